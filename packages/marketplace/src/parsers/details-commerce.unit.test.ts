/**
 * Commercial fields of details pages. Fixture values were read from the HTML by hand (the element
 * named in each row), not copied from parser output.
 *
 * Which fixtures carry which field:
 * | fixture                      | badges                                   | coupon                                    | bought | shipsFrom / soldBy / FBA                                    | newOffersCount / lowestNewPrice                                 |
 * |------------------------------|------------------------------------------|-------------------------------------------|--------|-------------------------------------------------------------|----------------------------------------------|
 * | details-BR-8565042472        | -                                        | -                                         | -      | tabular "Enviado por"/"Vendido por" Amazon.com.br           | own format swatch "20 Novo a partir de R$ 19,00" (mbc box below) |
 * | details-BR-B085VK7LYQ        | -                                        | -                                         | -      | - (no buy box)                                              | -                                            |
 * | details-BR-B09YRKYRSM        | -                                        | couponLabel "Economize 10%" + "com o cupom." | -   | tabular HiKA / HiKA -> not FBA                              | -                                            |
 * | details-DE-B01GAWQSFW        | - (empty slots)                          | -                                         | -      | - (unavailable, empty #merchant-info)                       | -                                            |
 * | details-ES-B01MUGXRT9        | - (empty slots)                          | -                                         | -      | - (empty #merchant-info)                                    | - ("Ver todas las opciones de compra")       |
 * | details-ES-B07JH148DF        | #acBadge "Opción Amazon"                 | -                                         | 100    | offer-display "Envío desde"/"Vendido por" Amazon (new row)  | - ("Nueva & De segunda mano (23)")           |
 * | details-ES-B08PBWPQ16        | -                                        | -                                         | -      | - (Kindle)                                                  | - (the swatch's offers are the paperback's)  |
 * | details-FR-B07H57DNVV        | #acBadge "Amazon's Choice pour ..."      | -                                         | -      | "Expédié et vendu par Amazon."                              | #olp_feature_div "14 neufs" à partir de EUR 9,99 (the swatch says 23) |
 * | details-UK-1439878676        | -                                        | -                                         | -      | "Dispatched from and sold by Amazon."                       | own format swatch "19 New from £44.10"                          |
 * | details-UK-1849757097        | -                                        | - ("Buy 2, save 10%" is a promotion)      | -      | used box "Sold by Goldstone-Books", no shipper              | - ("New & Used (14)")                        |
 * | details-US-0062796984        | zeitgeist "Amazon Charts #7 Most Sold"   | -                                         | -      | "Ships from and sold by Amazon.com."                        | own format swatch "21 New from $9.20" (mbc box from $11.06)     |
 * | details-US-B0011UCPM4        | -                                        | -                                         | -      | Kindle "Sold by: Hachette Book Group", no shipper           | -                                            |
 * | details-US-B01GAWQSFW        | - (empty slots)                          | -                                         | -      | - (unavailable)                                             | -                                            |
 * | details-US-B073WRF565        | #acBadge "Amazon's Choice in Bed Frames" | - (carousel "Save $10.00 with coupon")    | -      | tabular "Ships from"/"Sold by" Amazon.com                   | - ("New & Used (4)")                         |
 * | details-US-B07G2L3JMM        | -                                        | -                                         | -      | "Sold by Direct ChangM and Fulfilled by Amazon."            | #olp-upd-new "New (1) from $29.99"                              |
 * | details-US-B0DR8G428S        | - (AC / CPF / deals only in carousels)   | - ("Up to 20% off if you qualify")        | 200    | offer-display "Ships from" Amazon / "Sold by" Chen Ying Ke Ji | -                                          |
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseDetailsPage } from './details';
import { extractCommerce, type DetailsCommerce } from './details-commerce';
import { Doc } from '../page';
import type { DetailsItem } from './types';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

const originOf = (code: string) => `https://${MARKETPLACES[code as MarketplaceCode].host}`;

const NONE: DetailsCommerce = {
  badges: [],
  coupon: null,
  boughtPastMonth: null,
  shipsFrom: null,
  soldBy: null,
  fulfilledByAmazon: null,
  newOffersCount: null,
  lowestNewPrice: null,
};
const amazonShipsAndSells = (name: string): Partial<DetailsCommerce> => ({ shipsFrom: name, soldBy: name, fulfilledByAmazon: true });

const EXPECTED: Record<string, DetailsCommerce> = {
  'details-BR-8565042472.html': {
    ...NONE,
    ...amazonShipsAndSells('Amazon.com.br'),
    newOffersCount: 20,
    lowestNewPrice: { amount: 19, currency: 'BRL' },
  },
  'details-BR-B085VK7LYQ.html': NONE,
  'details-BR-B09YRKYRSM.html': {
    ...NONE,
    coupon: 'Economize 10% com o cupom',
    shipsFrom: 'HiKA',
    soldBy: 'HiKA',
    fulfilledByAmazon: false,
  },
  'details-DE-B01GAWQSFW.html': NONE,
  'details-ES-B01MUGXRT9.html': NONE,
  'details-ES-B07JH148DF.html': { ...NONE, badges: ['amazons_choice'], boughtPastMonth: 100, ...amazonShipsAndSells('Amazon') },
  'details-ES-B08PBWPQ16.html': NONE,
  'details-FR-B07H57DNVV.html': {
    ...NONE,
    badges: ['amazons_choice'],
    ...amazonShipsAndSells('Amazon'),
    newOffersCount: 14,
    lowestNewPrice: { amount: 9.99, currency: 'EUR' },
  },
  'details-UK-1439878676.html': {
    ...NONE,
    ...amazonShipsAndSells('Amazon'),
    newOffersCount: 19,
    lowestNewPrice: { amount: 44.1, currency: 'GBP' },
  },
  'details-UK-1849757097.html': { ...NONE, soldBy: 'Goldstone-Books' },
  'details-US-0062796984.html': {
    ...NONE,
    badges: ['best_seller'],
    ...amazonShipsAndSells('Amazon.com'),
    newOffersCount: 21,
    lowestNewPrice: { amount: 9.2, currency: 'USD' },
  },
  'details-US-B0011UCPM4.html': { ...NONE, soldBy: 'Hachette Book Group' },
  'details-US-B01GAWQSFW.html': NONE,
  'details-US-B073WRF565.html': { ...NONE, badges: ['amazons_choice'], ...amazonShipsAndSells('Amazon.com') },
  'details-US-B07G2L3JMM.html': {
    ...NONE,
    shipsFrom: 'Amazon',
    soldBy: 'Direct ChangM',
    fulfilledByAmazon: true,
    newOffersCount: 1,
    lowestNewPrice: { amount: 29.99, currency: 'USD' },
  },
  'details-US-B0DR8G428S.html': { ...NONE, boughtPastMonth: 200, shipsFrom: 'Amazon', soldBy: 'Chen Ying Ke Ji', fulfilledByAmazon: true },
};

function parse(file: string): DetailsItem {
  const mk = file.split('-')[1]!;
  const item = parseDetailsPage(readRealPage(file), { marketplace: mk, origin: originOf(mk) });
  if (!item) throw new Error(`no item for ${file}`);
  return item;
}

const commerceOf = (item: DetailsItem): DetailsCommerce => ({
  badges: item.badges,
  coupon: item.coupon,
  boughtPastMonth: item.boughtPastMonth,
  shipsFrom: item.shipsFrom,
  soldBy: item.soldBy,
  fulfilledByAmazon: item.fulfilledByAmazon,
  newOffersCount: item.newOffersCount,
  lowestNewPrice: item.lowestNewPrice,
});

// One test for the table: toEqual's difference names the page and the field that changed.
d('parseDetailsPage: commercial fields of every fixture', () => {
  it('every detail fixture has an expectation and parses to it', () => {
    expect(realPageFiles((f) => f.startsWith('details-'))).toEqual(Object.keys(EXPECTED).sort());
    const items = Object.keys(EXPECTED).map((file): [string, DetailsItem] => [file, parse(file)]);
    expect(Object.fromEntries(items.map(([file, item]) => [file, commerceOf(item)]))).toEqual(EXPECTED);
    // soldBy is the seller's name wherever the seller was read.
    for (const [file, item] of items) if (item.seller) expect([file, item.soldBy]).toEqual([file, item.seller.name]);
  });
});

/** extractCommerce on a page body; `seller` as details-info.ts would pass it. */
const commerce = (body: string, seller: { name: string } | null = null): DetailsCommerce =>
  extractCommerce(new Doc(`<html><body>${body}</body></html>`), seller);
/** extractCommerce on a page body of `marketplace` whose own ASIN is B0TESTASIN. */
const commerceIn = (marketplace: string, body: string): DetailsCommerce =>
  extractCommerce(new Doc(`<html><body>${body}</body></html>`), null, { asin: 'B0TESTASIN', marketplace });

describe('extractCommerce: buy-box parties', () => {
  it.each([
    ['Sold by <a id="sellerProfileTriggerId">Acme</a> and <a>Fulfilled by Amazon</a>.', 'Amazon', 'Acme'],
    ['Verkauf durch <a>Acme</a> und Versand durch Amazon.', 'Amazon', 'Acme'],
    ['Vendu par <a>Acme</a> et expédié par Amazon.', 'Amazon', 'Acme'],
    ['Vendido por <a>Acme</a> y gestionado por Amazon.', 'Amazon', 'Acme'],
    ['Venduto da <a>Acme</a> e spedito da Amazon.', 'Amazon', 'Acme'],
    ['この商品は、Acme が販売し、Amazon.co.jp が発送します。', 'Amazon.co.jp', 'Acme'],
  ])('"Fulfilled by Amazon" without a Ships from row: shipsFrom is Amazon (%s)', (sentence, shipsFrom, soldBy) => {
    const c = commerce(`<div id="merchant-info">${sentence}</div>`);
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual([shipsFrom, soldBy, true]);
  });

  it.each([
    ['Ships from and sold by Amazon.com. Gift-wrap available.', 'Amazon.com', true],
    ['Ships from and sold by Amazon.com in easy-to-open packaging. Gift-wrap available.', 'Amazon.com', true],
    ['Verkauf und Versand durch Amazon.', 'Amazon', true],
    ['Expédié et vendu par Amazon.', 'Amazon', true],
    ['Enviado de e vendido por Amazon.com.br.', 'Amazon.com.br', true],
    ['この商品は、Amazon.co.jp が販売、発送します。', 'Amazon.co.jp', true],
    ['Ships from and sold by Acme Outlet.', 'Acme Outlet', false],
    ['Vendido y enviado por Tienda Acme.', 'Tienda Acme', false],
  ])('one party ships and sells: %s', (sentence, party, fba) => {
    const c = commerce(`<div id="merchant-info">${sentence}</div>`);
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual([party, party, fba]);
  });

  it('a page that names only the seller says nothing about the shipper', () => {
    const c = commerce('<div id="merchant-info">Sold by Acme.</div>', { name: 'Acme' });
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual([null, 'Acme', null]);
  });

  it.each([
    ['Ships from', 'Sold by'],
    ['Versand', 'Verkäufer'],
    ['Expédié par', 'Vendu par'],
    ['Enviado desde', 'Vendido por'],
    ['Spedito da', 'Venduto da'],
    ['Enviado por', 'Vendido por'],
    ['出荷元', '販売元'],
  ])('tabular buy box rows named "%s" / "%s"', (shipsLabel, soldLabel) => {
    const row = (label: string, value: string) =>
      `<div class="tabular-buybox-label" tabular-attribute-name="${label}"><span>${label}</span></div>` +
      `<div class="tabular-buybox-text" tabular-attribute-name="${label}"><span>${value}</span></div>`;
    const c = commerce(`<div id="tabular-buybox">${row(soldLabel, 'Acme')}${row(shipsLabel, 'Acme Logistics')}</div>`);
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual(['Acme Logistics', 'Acme', false]);
  });

  it('several buying options: only the active accordion row is the buy box', () => {
    const row = (name: string, active: boolean, shipper: string) =>
      `<div data-a-accordion-row-name="${name}" class="a-accordion-row-container${active ? ' a-accordion-active' : ''}">` +
      `<div id="tabular-buybox"><div class="tabular-buybox-text" tabular-attribute-name="Ships from">${shipper}</div>` +
      `<div class="tabular-buybox-text" tabular-attribute-name="Sold by">${shipper}</div></div></div>`;
    const c = commerce(row('usedAccordionRow', false, 'Used Books Co') + row('newAccordionRow', true, 'Amazon.com'));
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual(['Amazon.com', 'Amazon.com', true]);
  });

  it('2023+ offer-display blocks: label and value', () => {
    const block = (id: string, label: string, value: string) =>
      `<div id="${id}"><div class="offer-display-feature-label"><span>${label}</span></div>` +
      `<div class="offer-display-feature-text"><span class="offer-display-feature-text-message">${value}</span></div></div>`;
    const c = commerce(
      block('fulfillerInfoFeature_feature_div', 'Versand', 'Amazon') + block('merchantInfoFeature_feature_div', 'Verkäufer', 'Acme GmbH'),
    );
    expect([c.shipsFrom, c.soldBy, c.fulfilledByAmazon]).toEqual(['Amazon', 'Acme GmbH', true]);
  });

  it('soldBy keeps the seller that details-info read', () => {
    const c = commerce('<div id="merchant-info">Ships from and sold by Acme Outlet.</div>', { name: 'Acme' });
    expect(c.soldBy).toBe('Acme');
  });
});

describe('extractCommerce: coupon', () => {
  const promo = (inner: string) =>
    `<div id="promoPriceBlockMessage_feature_div"><span class="promoPriceBlockMessage">${inner}</span></div>`;

  it('a clippable coupon: label text without the clip button, the hidden twin and the Terms link', () => {
    const c = commerce(
      promo(
        '<div data-csa-c-coupon="true"><span class="a-button"><span>Clip</span></span>' +
          '<div class="aok-hidden">Something went wrong</div>' +
          '<label id="couponTextpctch1" class="a-color-success couponLabelText">Apply $10 coupon</label>' +
          ' <a href="#">Shop items</a> | <a href="#">Terms</a></div>',
      ),
    );
    expect(c.coupon).toBe('Apply $10 coupon');
  });

  it('a coupon with a "Coupon:" badge label and a Terms link', () => {
    const c = commerce(
      promo(
        '<div data-csa-c-coupon="true"><span id="couponBadgepctch2">Coupon:</span> ' +
          '<label id="couponTextpctch2" class="couponLabelText">Apply 5% coupon</label> | <a href="#">Terms</a></div>',
      ),
    );
    expect(c.coupon).toBe('Apply 5% coupon');
  });

  it('"Buy 4, save 5%" and "Up to 20% off" promotions are not coupons', () => {
    const c = commerce(
      promo(
        '<span data-csa-c-item-id="p1"><label id="greenBadgepctch3">Save 5%</label> <span id="promoMessagepctch3">Buy 4, save 5% <a>Shop items</a> <a>Terms</a></span></span>' +
          '<span data-csa-c-item-id="p2"><label>Up to 20% off</label> if you qualify <a>Shop items</a></span>',
      ),
    );
    expect(c.coupon).toBeNull();
  });

  it('a promotion beside a coupon: the coupon item is read', () => {
    const c = commerce(
      promo(
        '<span data-csa-c-item-id="p1">Buy 2, save 10% <a>Terms</a></span>' +
          '<span data-csa-c-item-id="p2">Spare 5 % mit diesem Coupon. <a>Bedingungen</a></span>',
      ),
    );
    expect(c.coupon).toBe('Spare 5 % mit diesem Coupon');
  });

  it('2019-2021 #vpcButton: the offer sentence, not its Details link', () => {
    const c = commerce(
      '<div id="vpcButton"><i class="a-icon a-icon-checkbox"></i><span class="a-color-success">' +
        ' Save an extra 5% when you apply this coupon. </span><a href="#">Details</a></div>',
    );
    expect(c.coupon).toBe('Save an extra 5% when you apply this coupon');
  });

  it('2018-2019 #unclippedCoupon: the unclipped line only', () => {
    const c = commerce(
      '<div id="couponFeature"><div id="unclippedCoupon"><span class="a-color-success">Save an extra $8.50</span> when you apply this coupon. <a href="#">Details</a></div>' +
        '<div id="clippedCoupon"><span>Coupon applied</span></div></div>',
    );
    expect(c.coupon).toBe('Save an extra $8.50 when you apply this coupon');
  });

  it('coupon label markup without an item wrapper: a promotion beside it stays out', () => {
    const c = commerce(
      promo(
        '<div><span>Buy 2, save 10%</span> <a>Terms</a></div>' +
          '<div><span id="couponBadgepctch6">Coupon:</span> <span id="couponTextpctch6" class="couponLabelText">Apply 5% coupon <a>Shop items</a> | <a>Terms</a></span></div>',
      ),
    );
    expect(c.coupon).toBe('Apply 5% coupon');
  });

  it('a subscription first-order coupon shown in the coupon component counts', () => {
    const c = commerce(
      promo(
        '<div data-csa-c-coupon="true"><label id="couponTextpctch4" class="couponLabelText">Save 15% on your first Subscribe &amp; Save order</label></div>',
      ),
    );
    expect(c.coupon).toBe('Save 15% on your first Subscribe & Save order');
  });

  it("an inactive buying option's coupon (display:none) and carousel coupons are not the product's", () => {
    const c = commerce(
      promo(
        '<div id="reinvent_price_desktop_newAccordionRow" style="display:none;"><label id="couponTextpctch5" class="couponLabelText">Apply 8% coupon</label></div>',
      ) + '<div id="sims"><div id="sp_detail_B000000000_couponBadge"><span class="couponLabel">Save $10.00</span> with coupon</div></div>',
    );
    expect(c.coupon).toBeNull();
  });
});

describe('extractCommerce: badges', () => {
  const ac = (text: string) =>
    `<div id="acBadge_feature_div"><div class="ac-badge-wrapper"><span class="ac-badge-rectangle"><span class="ac-badge-text-primary">${text}</span></span></div></div>`;

  it.each(["Amazon's Choice", 'Opción Amazon', 'Amazons Tipp', "Choix d'Amazon", 'Scelta Amazon', 'Escolha da Amazon', 'Amazonのおすすめ'])(
    "Amazon's Choice markup: %s",
    (text) => {
      expect(commerce(ac(text)).badges).toEqual(['amazons_choice']);
    },
  );

  it("Amazon's Choice by its wording where the markup is unknown", () => {
    expect(commerce('<div id="acBadge_feature_div"><span class="new-badge">Amazons Tipp für „kopfhörer“</span></div>').badges).toEqual([
      'amazons_choice',
    ]);
  });

  it('empty slots (a style block, an unopened popover) are no badges', () => {
    const c = commerce(
      '<div id="acBadge_feature_div"><style>.ac-badge-rectangle{border-radius:4px}</style></div>' +
        '<div id="zeitgeistBadge_feature_div"> </div>' +
        '<div id="climatePledgeFriendlyATF_feature_div"><div class="a-popover-preload" id="a-popover-CPFBottomSheet-ATF">Climate Pledge Friendly</div></div>' +
        '<div id="dealBadge_feature_div"></div>',
    );
    expect(c.badges).toEqual([]);
  });

  it.each([
    ['#1 Best Seller in Power Banks'],
    ['Nr. 1 Bestseller in Powerbanks'],
    ['N.º 1 más vendido en Baterías externas'],
    ['n°1 des ventes dans Batteries externes'],
    ['ベストセラー1位 - モバイルバッテリー'],
  ])('best seller (zeitgeist badge): %s', (text) => {
    expect(
      commerce(
        `<div id="zeitgeistBadge_feature_div"><div class="zg-badge-wrapper"><i class="p13n-best-seller-badge">${text}</i></div></div>`,
      ).badges,
    ).toEqual(['best_seller']);
  });

  it.each([['Climate Pledge Friendly'], ['1 sustainability feature'], ['2 Nachhaltigkeitsmerkmale']])(
    'climate pledge friendly: %s',
    (text) => {
      expect(commerce(`<div id="climatePledgeFriendlyATF_feature_div"><span class="cpfBadgeTextID">${text}</span></div>`).badges).toEqual([
        'climate_pledge_friendly',
      ]);
    },
  );

  it.each([
    ['Limited time deal'],
    ['Lightning Deal'],
    ['Prime Day Deal'],
    ['Black Friday Angebot'],
    ['Oferta por tiempo limitado'],
    ['Blitzangebot'],
    ['タイムセール'],
  ])('a deal badge on the buy-box price: %s', (text) => {
    expect(commerce(`<div id="dealBadge_feature_div"><span class="dealBadge"><span>${text}</span></span></div>`).badges).toEqual([
      'limited_time_deal',
    ]);
    expect(
      commerce(
        `<div id="corePriceDisplay_desktop_feature_div"><div class="dealBadge">${text}</div><span class="a-price">$9.99</span></div>`,
      ).badges,
    ).toEqual(['limited_time_deal']);
  });

  it("badges of carousels and a 'similar item' pick are not the product's", () => {
    const c = commerce(
      '<div id="dealBadge_feature_div"></div>' +
        '<div id="sims-fbt"><span class="dealBadge">Limited time deal</span><i class="p13n-best-seller-badge">#1 Best Seller</i></div>' +
        '<div id="valuePick_feature_div"><span class="value-pick-ac-badge-rectangle">Amazon\'s Choice</span><span>1 sustainability feature</span></div>' +
        '<div id="climatePledgeFriendlyBTF_feature_div"><span class="cpfBadgeTextID">Climate Pledge Friendly</span></div>',
    );
    expect(c.badges).toEqual([]);
  });

  it('several badges come in the enum order', () => {
    const c = commerce(
      '<div id="dealBadge_feature_div"><span class="dealBadge">Limited time deal</span></div>' +
        '<div id="climatePledgeFriendlyATF_feature_div"><span>Climate Pledge Friendly</span></div>' +
        '<div id="zeitgeistBadge_feature_div"><a class="badge-link"><i>#1 Best Seller</i></a></div>' +
        ac("Amazon's Choice"),
    );
    expect(c.badges).toEqual(['amazons_choice', 'best_seller', 'climate_pledge_friendly', 'limited_time_deal']);
  });
});

describe('extractCommerce: counts', () => {
  it.each([
    ['<span class="a-text-bold">100+&nbsp;comprados</span><span> el mes pasado</span>', 100],
    ['<span class="a-text-bold">10K+ bought</span><span> in past month</span>', 10_000],
    ['<span>Mehr als 1.000 Mal im letzten Monat gekauft</span>', 1_000],
    ['<span>Plus de 1 k achetés au cours du mois dernier</span>', 1_000],
    ['<span>過去1か月で1000点以上購入されました</span>', 1_000],
  ])('bought in past month: %s', (inner, expected) => {
    const c = commerce(
      `<div id="socialProofingAsinFaceout_feature_div"><span id="social-proofing-faceout-title-tk_bought" class="social-proofing-faceout-title-text">${inner}</span></div>`,
    );
    expect(c.boughtPastMonth).toBe(expected);
  });

  it('a social-proofing line that is not a sales count is no figure', () => {
    const c = commerce(
      '<div id="socialProofingAsinFaceout_feature_div"><span class="social-proofing-faceout-title-text">1K+ viewed in past week</span></div>',
    );
    expect(c.boughtPastMonth).toBeNull();
  });

  it.each([
    [
      '<div id="olp-upd-new"><a href="/gp/offer-listing/B0X/ref=dp_olp_new_mbc?condition=new">New (12) from <span>$9.99</span></a></div>',
      12,
    ],
    ['<div id="olp_feature_div"><a href="/gp/offer-listing/B0X?condition=new">Neu (3)</a> ab EUR 12,99</div>', 3],
    ['<div id="olp_feature_div"><a href="/gp/offer-listing/B0X?condition=new">5&nbsp;neufs</a> à partir de EUR 9,99</div>', 5],
    ['<div id="olpLinkWidget_feature_div"><a class="olp-touch-link"><span>Nuevo (7) desde</span> 52,01€</a></div>', 7],
    ['<div id="olpLinkWidget_feature_div"><span class="olp-text">Novo (2) a partir de R$ 19,00</span></div>', 2],
    ['<div id="olp_feature_div"><span>新品の出品：3</span><span>￥1,980より</span></div>', 3],
  ])('new offers: %s', (html, expected) => {
    expect(commerce(html).newOffersCount).toBe(expected);
  });

  it.each([
    ['<div id="olpLinkWidget_feature_div"><a href="/gp/offer-listing/B0X?condition=ALL">Used &amp; New (7) from $5.00</a></div>'],
    ['<div id="olp_feature_div"><a href="/gp/offer-listing/B0X">Neu und gebraucht (7) ab EUR 5,00</a></div>'],
    ['<div id="olp_feature_div"><a href="/gp/offer-listing/B0X?condition=all">New (7) from $5.00</a></div>'],
    ['<div id="olp_feature_div"><a href="/gp/offer-listing/B0X?condition=used">2 used from $4.00</a></div>'],
  ])('a count that is not of new offers only is null: %s', (html) => {
    expect(commerce(html).newOffersCount).toBeNull();
  });
});

describe('extractCommerce: new offers and their lowest price', () => {
  const olp = (inner: string) =>
    `<div id="olpLinkWidget_feature_div"><div id="dynamic-aod-ingress-box"><div class="daodi-content"><a id="aod-ingress-link" href="/gp/offer-listing/B0TESTASIN/ref=dp_olp_NEW_mbc?ie=UTF8&amp;condition=NEW">${inner}</a></div></div></div>`;

  it.each([
    ['US', 'New (3) from <span class="a-price"><span class="a-offscreen">$12.99</span></span>', 3, 12.99, 'USD'],
    ['DE', 'Neu (3) ab <span class="a-price"><span class="a-offscreen">12,99 €</span></span>', 3, 12.99, 'EUR'],
    ['FR', 'Neuf (3) à partir de <span class="a-price"><span class="a-offscreen">12,99 €</span></span>', 3, 12.99, 'EUR'],
    ['ES', 'Nuevo (3) desde 12,99 €', 3, 12.99, 'EUR'],
    ['BR', 'Novo (3) a partir de <span class="a-color-price">R$ 1.099,00</span>', 3, 1099, 'BRL'],
    ['IT', 'Nuovo (3) da 12,99 €', 3, 12.99, 'EUR'],
    ['NL', 'Nieuw (3) vanaf € 12,99', 3, 12.99, 'EUR'],
    ['SE', 'Ny (3) från 129,00 kr', 3, 129, 'SEK'],
    ['PL', 'Nowy (3) od 49,99 zł', 3, 49.99, 'PLN'],
    ['TR', 'Yeni (3) 129,99 TL', 3, 129.99, 'TRY'],
    ['JP', '新品 (3点) <span class="a-price"><span class="a-offscreen">￥1,980</span></span>より', 3, 1980, 'JPY'],
    ['JP', '新品の出品：3点 ￥1,980より', 3, 1980, 'JPY'],
    ['AE', 'جديد (3) من 49.00 درهم', 3, 49, 'AED'],
  ])('the all-offers ingress (%s): %s', (marketplace, inner, count, amount, currency) => {
    const c = commerceIn(marketplace, olp(inner));
    expect([c.newOffersCount, c.lowestNewPrice]).toEqual([count, { amount, currency }]);
  });

  it.each([
    [
      'the 2016-2019 new-offer block with free shipping',
      '<div id="olp-upd-new-freeshipping"><span class="a-color-base"><a href="/gp/offer-listing/B0TESTASIN/ref=dp_olp_new_mbc?ie=UTF8&amp;condition=new">New (5) from <span class="a-color-price">$18.40</span></a> &amp; <b>FREE Shipping</b></span></div>',
      5,
      18.4,
    ],
    [
      'a link that names only the count, its price beside it',
      '<div id="olp_feature_div"><span class="olp-padding-right"><a href="/gp/offer-listing/B0TESTASIN?condition=new">14&nbsp;new</a>&nbsp;from&nbsp;<span class="a-color-price">$9.99</span></span></div>',
      14,
      9.99,
    ],
    [
      'the ingress link outside any known block',
      '<div id="rightCol"><span data-action="show-all-offers-display"><a id="aod-ingress-link" href="/gp/offer-listing/B0TESTASIN?condition=NEW">New (2) from $7.25</a></span></div>',
      2,
      7.25,
    ],
    [
      'the used-and-new buying option row',
      '<div id="usedAndNewBuyingOption"><a href="/gp/offer-listing/B0TESTASIN?condition=new"><span>New (6) from</span> <span class="a-price"><span class="a-offscreen">$31.00</span></span></a></div>',
      6,
      31,
    ],
    [
      "the page's own format swatch (another format's is not the product's)",
      '<div id="tmmSwatches"><ul><li class="swatchElement unselected"><span class="tmm-olp-links"><a href="/gp/offer-listing/B0OTHERFMT/ref=tmm_pap_new_olp_0?condition=new">40 New from $2.00</a></span></li>' +
        '<li class="swatchElement selected"><span class="tmm-olp-links"><span class="olp-used olp-link"><a href="/gp/offer-listing/B0TESTASIN/ref=tmm_hrd_used_olp_sr?condition=used">10 Used from $6.50</a></span><span class="olp-new olp-link"><a href="/gp/offer-listing/B0TESTASIN/ref=tmm_hrd_new_olp_sr?condition=new">21 New <span class="olp-from">from</span> $9.20</a></span></span></li></ul></div>',
      21,
      9.2,
    ],
    [
      'an offer-listing block wins over the format swatch',
      '<div id="olp_feature_div"><a href="/gp/offer-listing/B0TESTASIN?condition=new">14 new</a> from <span class="a-color-price">$9.99</span></div>' +
        '<div id="tmmSwatches"><a href="/gp/offer-listing/B0TESTASIN?condition=new">23 New from $9.99</a></div>',
      14,
      9.99,
    ],
    [
      'a line without a count still gives the price',
      '<div id="olp_feature_div"><a href="/gp/offer-listing/B0TESTASIN?condition=new">New from $15.00</a></div>',
      null,
      15,
    ],
  ])('%s', (_, body, count, amount) => {
    const c = commerceIn('US', body);
    expect([c.newOffersCount, c.lowestNewPrice]).toEqual([count, { amount, currency: 'USD' }]);
  });

  const mbc = (rows: string, olpLink = '') =>
    `<div id="moreBuyingChoices_feature_div"><div id="mbc" class="a-box-group"><div class="a-box"><h5><span id="mbc-title">Other Sellers on Amazon</span></h5></div>${rows}${olpLink}</div></div>`;
  const mbcRow = (price: string, extra = '') =>
    `<div class="a-box mbc-offer-row"><div class="a-box-inner"><span class="a-button"><a class="a-button-text" href="/gp/item-dispatch">Add to Cart</a></span><span class="a-size-medium a-color-price">${price}</span><br><span class="a-size-small a-color-secondary">+ $3.99 shipping${extra}</span><div><span>Sold by:</span> <span class="mbcMerchantName">Seller</span></div></div></div>`;

  it('without an offer-listing line: the lowest new offer of the other sellers box (a used row left out)', () => {
    const c = commerceIn(
      'US',
      mbc(
        mbcRow('$11.06') + mbcRow('$15.63') + mbcRow('$8.00', ' Used - Good'),
        '<div class="a-box"><span id="mbc-olp-link"><a href="/gp/offer-listing/B0TESTASIN?condition=all">16 new &amp; used</a> from <span class="a-color-price">$6.49</span></span></div>',
      ),
    );
    expect([c.newOffersCount, c.lowestNewPrice]).toEqual([null, { amount: 11.06, currency: 'USD' }]);
  });

  it('in German: "Andere Verkäufer auf Amazon"', () => {
    const c = commerceIn(
      'DE',
      mbc(mbcRow('EUR 34,90') + mbcRow('EUR 29,95')).replace('Other Sellers on Amazon', 'Andere Verkäufer auf Amazon'),
    );
    expect(c.lowestNewPrice).toEqual({ amount: 29.95, currency: 'EUR' });
  });

  it.each([
    ['a mixed count', olp('New &amp; Used (7) from $5.00').replace('condition=NEW', 'condition=ALL')],
    ['a mixed count in Spanish', olp('Nueva &amp; De segunda mano (23) desde 52,01€').replace('condition=NEW', 'condition=ALL')],
    [
      'a used-offers filter',
      '<div id="olp_feature_div"><a href="/gp/offer-listing/B0TESTASIN?f_usedLikeNew=true">New (7) from $5.00</a></div>',
    ],
    [
      'a hidden line',
      '<div id="olp_feature_div"><div class="aok-hidden"><a href="/gp/offer-listing/B0TESTASIN?condition=new">New (7) from $5.00</a></div></div>',
    ],
    [
      'a "see all buying options" button',
      '<div id="buybox-see-all-buying-choices"><a href="/gp/offer-listing/B0TESTASIN/ref=dp_olp_unknown_mbc">See All Buying Options</a></div>',
    ],
  ])('no new offers: %s', (_, body) => {
    const c = commerceIn('US', body);
    expect([c.newOffersCount, c.lowestNewPrice]).toEqual([null, null]);
  });
});
