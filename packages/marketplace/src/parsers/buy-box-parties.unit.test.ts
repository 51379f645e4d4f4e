/**
 * Who ships and who sells the buy-box offer (buy-box-parties.ts, and the seller of details-info.ts
 * that soldBy repeats). The markup is Amazon's, cut down to the buy box: the 2023+ offer-display
 * features, the 2021-2022 tabular rows and the older #merchant-info sentence, in each
 * marketplace's language. The real pages' values are held by details-commerce.unit.test.ts.
 */
import { Doc } from '../page';
import { extractBuyBoxParties, fulfilledByAmazon, partiesFromSentence, partyName } from './buy-box-parties';
import { extractSeller } from './details-info';

const page = (body: string) => new Doc(`<html><body><div id="buybox">${body}</div></body></html>`);
const parties = (body: string) => extractBuyBoxParties(page(body));
/** soldBy as a details item has it: the seller's name, else the parties' seller. */
const soldBy = (body: string) => extractSeller(page(body))?.name ?? parties(body).soldBy;

/** A 2023+ offer-display feature: label element, then its text element. */
const feature = (id: string, name: string, label: string, value: string) =>
  `<div id="${id}" class="celwidget" data-feature-name="${id.replace('_feature_div', '')}">` +
  `<div class="offer-display-feature-label a-size-small" offer-display-feature-name="${name}"><div class="a-spacing-none"><span class="a-size-small a-color-tertiary">${label}</span></div></div>` +
  `<div class="offer-display-feature-text a-size-small" offer-display-feature-name="${name}"><div class="offer-display-feature-text a-spacing-none"><span class="a-size-small offer-display-feature-text-message">${value}</span></div>` +
  `<div class="a-popover-preload"><span class="a-text-bold">${label}</span> ${value}</div></div></div>`;
const offerDisplay = (shipsLabel: string, shipper: string, soldLabel: string, seller: string) =>
  feature('fulfillerInfoFeature_feature_div', 'desktop-fulfiller-info', shipsLabel, shipper) +
  feature('merchantInfoFeature_feature_div', 'desktop-merchant-info', soldLabel, seller);

/** A 2021-2022 tabular row: label and text, both named by the label in the page language. */
const tabularRow = (label: string, value: string) =>
  `<div class="tabular-buybox-label" tabular-attribute-name="${label}"><div class="a-spacing-none"><span class="a-size-small a-color-tertiary">${label}</span></div></div>` +
  `<div class="tabular-buybox-text" tabular-attribute-name="${label}"><div class="tabular-buybox-text a-spacing-none"><span class="a-size-small">${value}</span></div></div>`;
const tabular = (...rows: [string, string][]) =>
  `<div id="tabular-buybox" class="a-section tabular-buybox"><div class="tabular-buybox-container">${rows.map(([l, v]) => tabularRow(l, v)).join('')}</div></div>`;

const merchantInfo = (html: string) => `<div id="merchant-info" class="a-section a-spacing-mini">${html}</div>`;

describe('seller names stop before the seller rating', () => {
  it.each([
    ['RetailEZ Pvt Ltd (4.5 out of 5 stars)', 'RetailEZ Pvt Ltd'],
    ['Cloudtail India (4', 'Cloudtail India'],
    ['Cloudtail India (4 .5 out of 5 stars | 182,837 ratings)', 'Cloudtail India'],
    ['Händler GmbH (4,6 von 5 Sternen)', 'Händler GmbH'],
    ['Boutique SARL (4,5 étoiles sur 5)', 'Boutique SARL'],
    ['Tienda MX 4.7 de 5 estrellas', 'Tienda MX'],
    ['ショップ 5つ星のうち4.5', 'ショップ'],
    // Parentheses that are no rating stay: a pack size, a year in the name.
    ['Socks (2 Pack) Store', 'Socks (2 Pack) Store'],
    ['Shop (2019) Ltd', 'Shop (2019) Ltd'],
  ])('%s -> %s', (raw, name) => {
    expect(partyName(raw)).toBe(name);
  });

  it('in the sentence, the seller link, the offer display and the tabular row (amazon.in)', () => {
    // The rating split across nodes: "(4" in one, ".5 out of 5 stars" in the next.
    const sentence = merchantInfo(
      'Sold by <span>Cloudtail India</span> <span>(4</span><span>.5 out of 5 stars | 182,837 ratings)</span> and Fulfilled by Amazon.',
    );
    expect(parties(sentence)).toEqual({ shipsFrom: 'Amazon', soldBy: 'Cloudtail India' });
    expect(soldBy(sentence)).toBe('Cloudtail India');
    const trigger = merchantInfo(
      'Sold by <a id="sellerProfileTriggerId" href="/gp/help/seller/at-a-glance.html?seller=A14CZOWI0VEHLG">Appario Retail Private Ltd (4</a><span>.3 out of 5 stars)</span> and Fulfilled by Amazon.',
    );
    expect(extractSeller(page(trigger))).toEqual({ name: 'Appario Retail Private Ltd', id: 'A14CZOWI0VEHLG' });
    const display = offerDisplay('Ships from', 'Amazon', 'Sold by', 'RetailEZ Pvt Ltd (4.5 out of 5 stars)');
    expect(parties(display)).toEqual({ shipsFrom: 'Amazon', soldBy: 'RetailEZ Pvt Ltd' });
    expect(soldBy(display)).toBe('RetailEZ Pvt Ltd');
    // A rating element of its own inside the value is not read at all.
    const rated = offerDisplay(
      'Ships from',
      'Amazon',
      'Sold by',
      'Darshita Etel</span><span class="offer-display-feature-merchant-rating-text">(4.1 out of 5 stars)',
    );
    expect(soldBy(rated)).toBe('Darshita Etel');
    expect(soldBy(tabular(['Ships from', 'Amazon'], ['Sold by', 'Clicktech Retail (4.4 out of 5 stars)']))).toBe('Clicktech Retail');
  });
});

describe('domain-like seller names are read whole', () => {
  it.each([
    ['Enviado de e vendido por Amazon.com.br.', 'Amazon.com.br', 'Amazon.com.br'],
    ['Vendido e enviado por Amazon.com.br. Embalagem para presente disponível.', 'Amazon.com.br', 'Amazon.com.br'],
    ['Vendido por Amazon.com.br e enviado por Amazon.com.br.', 'Amazon.com.br', 'Amazon.com.br'],
    ['Vendido y enviado por Amazon.com.mx.', 'Amazon.com.mx', 'Amazon.com.mx'],
    ['Dispatched from and sold by Amazon.co.uk.', 'Amazon.co.uk', 'Amazon.co.uk'],
    ['Amazon.com.tr tarafından satılır ve gönderilir.', 'Amazon.com.tr', 'Amazon.com.tr'],
  ])('%s', (sentence, shipsFrom, seller) => {
    expect(parties(merchantInfo(sentence))).toEqual({ shipsFrom, soldBy: seller });
    expect(soldBy(merchantInfo(sentence))).toBe(seller);
  });

  it('in the tabular rows and the offer display too', () => {
    expect(soldBy(tabular(['Enviado por', 'Amazon.com.br'], ['Vendido por', 'Amazon.com.br']))).toBe('Amazon.com.br');
    expect(parties(offerDisplay('Enviado por', 'Amazon.com.br', 'Vendido por', 'Amazon.com.br'))).toEqual({
      shipsFrom: 'Amazon.com.br',
      soldBy: 'Amazon.com.br',
    });
  });
});

describe('every marketplace language', () => {
  // [language, offer-display labels, tabular labels, a joint sentence, a split sentence (seller X, shipper Amazon)]
  it.each<[string, [string, string], [string, string], string, string]>([
    [
      'English',
      ['Ships from', 'Sold by'],
      ['Ships from', 'Sold by'],
      'Ships from and sold by Amazon.',
      'Sold by X and Fulfilled by Amazon.',
    ],
    [
      'German',
      ['Versand', 'Verkäufer'],
      ['Versand', 'Verkäufer'],
      'Verkauf und Versand durch Amazon.',
      'Verkauf durch X und Versand durch Amazon.',
    ],
    [
      'German (2023+)',
      ['Versender', 'Verkauft von'],
      ['Versand durch', 'Verkauft von'],
      'Verkauft und versandt von Amazon.',
      'Verkauft von X und versandt von Amazon.',
    ],
    [
      'French',
      ['Expéditeur', 'Vendeur'],
      ['Expédié par', 'Vendu par'],
      'Expédié et vendu par Amazon.',
      'Vendu par X et expédié par Amazon.',
    ],
    [
      'French (seller first)',
      ['Expédié par', 'Vendu par'],
      ['Expédié par', 'Vendu par'],
      'Vendu et expédié par Amazon.',
      'Vendu par X et expédié par Amazon.',
    ],
    [
      'Spanish',
      ['Envío desde', 'Vendido por'],
      ['Enviado desde', 'Vendido por'],
      'Vendido y enviado por Amazon.',
      'Vendido por X y gestionado por Amazon.',
    ],
    [
      'Portuguese',
      ['Enviado de', 'Vendido por'],
      ['Enviado por', 'Vendido por'],
      'Enviado de e vendido por Amazon.',
      'Vendido por X e enviado por Amazon.',
    ],
    [
      'Italian',
      ['Spedizione', 'Venditore'],
      ['Spedito da', 'Venduto da'],
      'Venduto e spedito da Amazon.',
      'Venduto da X e spedito da Amazon.',
    ],
    [
      'Dutch',
      ['Verzending', 'Verkoper'],
      ['Verzonden door', 'Verkocht door'],
      'Verkocht en verzonden door Amazon.',
      'Verkocht door X en verzonden door Amazon.',
    ],
    [
      'Swedish',
      ['Skickas från', 'Säljs av'],
      ['Skickas från', 'Säljare'],
      'Säljs och skickas av Amazon.',
      'Säljs av X och skickas av Amazon.',
    ],
    [
      'Polish',
      ['Wysyłka', 'Sprzedawca'],
      ['Wysyłka', 'Sprzedawca'],
      'Sprzedawane i wysyłane przez Amazon.',
      'Sprzedawane przez X i wysyłane przez Amazon.',
    ],
    [
      'Turkish',
      ['Gönderici', 'Satıcı'],
      ['Gönderici', 'Satıcı'],
      'Amazon tarafından satılır ve gönderilir.',
      'Satıcı: X, Gönderici: Amazon',
    ],
    [
      'Japanese',
      ['出荷元', '販売元'],
      ['出荷元', '販売元'],
      'この商品は、Amazon が販売、発送します。',
      'この商品は、X が販売し、Amazon が発送します。',
    ],
    ['Arabic', ['الشحن من', 'البائع'], ['الشحن من', 'البائع'], 'يتم الشحن والبيع من قبل Amazon.', 'البائع: X'],
  ])('%s', (_language, [shipsOd, soldOd], [shipsTab, soldTab], joint, split) => {
    expect(parties(offerDisplay(shipsOd, 'Amazon', soldOd, 'X'))).toEqual({ shipsFrom: 'Amazon', soldBy: 'X' });
    expect(parties(tabular([shipsTab, 'Amazon'], [soldTab, 'X']))).toEqual({ shipsFrom: 'Amazon', soldBy: 'X' });
    expect(soldBy(tabular([shipsTab, 'Amazon'], [soldTab, 'X']))).toBe('X');
    expect(parties(merchantInfo(joint))).toEqual({ shipsFrom: 'Amazon', soldBy: 'Amazon' });
    const bySplit = partiesFromSentence(split);
    expect(bySplit.soldBy).toBe('X');
    if (bySplit.shipsFrom !== null) expect(bySplit.shipsFrom).toBe('Amazon');
  });

  it('reads "Vendu par Amazon" whether the words and the name share a node or not (amazon.fr books)', () => {
    for (const html of [
      'Vendu par Amazon.',
      '<span>Vendu par</span><a class="a-link-normal" href="/gp/help/customer/display.html">Amazon</a><span>.</span>',
      '<span>Expédié et vendu par</span><span>Amazon</span>.',
      'Vendu et expédié par <b>Amazon EU S.à r.l.</b> Emballage cadeau disponible.',
    ])
      expect(soldBy(merchantInfo(html))).toMatch(/^Amazon/);
    expect(parties(merchantInfo('<span>Expédié et vendu par</span><span>Amazon</span>.'))).toEqual({
      shipsFrom: 'Amazon',
      soldBy: 'Amazon',
    });
  });

  it('a joint label names both parties', () => {
    expect(parties(tabular(['Vendu et expédié par', 'Amazon']))).toEqual({ shipsFrom: 'Amazon', soldBy: 'Amazon' });
    expect(parties(tabular(['Vendido y enviado por', 'Amazon Estados Unidos']))).toEqual({
      shipsFrom: 'Amazon Estados Unidos',
      soldBy: 'Amazon Estados Unidos',
    });
  });

  it('the shipper named first', () => {
    expect(partiesFromSentence('Ships from Amazon and sold by Acme Corp.')).toEqual({ shipsFrom: 'Amazon', soldBy: 'Acme Corp' });
    expect(partiesFromSentence('Versand durch Amazon, Verkauf durch Händler GmbH.')).toEqual({
      shipsFrom: 'Amazon',
      soldBy: 'Händler GmbH',
    });
  });

  it('"y" or "e" inside a name is no conjunction', () => {
    expect(partiesFromSentence('Vendido por Soy y enviado por Amazon.')).toEqual({ shipsFrom: 'Amazon', soldBy: 'Soy' });
    expect(partiesFromSentence('Vendido por Casa Bye e enviado por Amazon.')).toEqual({ shipsFrom: 'Amazon', soldBy: 'Casa Bye' });
  });
});

describe('import offers (amazon.com.mx: Amazon Estados Unidos, AmazonGlobal)', () => {
  it('reads the offer display whatever block holds its features', () => {
    const display =
      feature('globalStoreFulfillerInfo', 'desktop-fulfiller-info', 'Enviado desde', 'Amazon Estados Unidos') +
      feature('globalStoreMerchantInfo', 'desktop-merchant-info', 'Vendido por', 'Amazon Estados Unidos');
    expect(parties(display)).toEqual({ shipsFrom: 'Amazon Estados Unidos', soldBy: 'Amazon Estados Unidos' });
    expect(soldBy(display)).toBe('Amazon Estados Unidos');
  });

  it('takes the party from the feature name when the label is in words it does not know', () => {
    const display =
      feature('fulfillerInfoFeature_feature_div', 'desktop-fulfiller-info', 'Remite', 'AmazonGlobal') +
      feature('merchantInfoFeature_feature_div', 'desktop-merchant-info', 'Tienda', 'Amazon Estados Unidos');
    expect(parties(display)).toEqual({ shipsFrom: 'AmazonGlobal', soldBy: 'Amazon Estados Unidos' });
  });

  it('reads tabular rows named only by their label element', () => {
    const rows =
      '<div id="tabular-buybox"><table><tr><td><span class="tabular-buybox-label">Enviado desde</span></td><td><span class="tabular-buybox-text">Amazon Estados Unidos</span></td></tr>' +
      '<tr><td><span class="tabular-buybox-label">Vendido por</span></td><td><span class="tabular-buybox-text">Amazon Estados Unidos</span></td></tr></table></div>';
    expect(parties(rows)).toEqual({ shipsFrom: 'Amazon Estados Unidos', soldBy: 'Amazon Estados Unidos' });
    expect(soldBy(rows)).toBe('Amazon Estados Unidos');
  });

  it('reads the import sentence', () => {
    expect(partiesFromSentence('Enviado desde y vendido por Amazon Estados Unidos.')).toEqual({
      shipsFrom: 'Amazon Estados Unidos',
      soldBy: 'Amazon Estados Unidos',
    });
    expect(partiesFromSentence('Vendido por Amazon Estados Unidos y enviado por AmazonGlobal.')).toEqual({
      shipsFrom: 'AmazonGlobal',
      soldBy: 'Amazon Estados Unidos',
    });
  });

  it('Amazon Estados Unidos and AmazonGlobal are Amazon', () => {
    expect(['Amazon Estados Unidos', 'AmazonGlobal', 'Amazon Global', 'Amazon.com.mx', 'Amazonas Shop'].map(fulfilledByAmazon)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('the buy box only', () => {
  it("takes the active accordion row's blocks", () => {
    const html =
      `<div data-a-accordion-row-name="usedAccordionRow" class="a-box">${merchantInfo('Sold by Used Books Ltd.')}</div>` +
      `<div data-a-accordion-row-name="newAccordionRow" class="a-box a-accordion-active">${tabular(['Ships from', 'Amazon'], ['Sold by', 'Amazon'])}</div>`;
    expect(parties(html)).toEqual({ shipsFrom: 'Amazon', soldBy: 'Amazon' });
    expect(soldBy(html)).toBe('Amazon');
  });

  it('other rows of the offer display and the tabular buy box are no party', () => {
    const html =
      feature('returnsInfoFeature_feature_div', 'desktop-return-info', 'Returns', 'Returnable until Jan 31, 2025') +
      tabular(['Payment', 'Secure transaction'], ['Packaging', 'Ships in product packaging']);
    expect(parties(html)).toEqual({ shipsFrom: null, soldBy: null });
  });
});
