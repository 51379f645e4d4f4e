/**
 * Expected values were read from the fixture HTML: div.olpOffer rows (.olpOfferPrice,
 * .olpCondition, .olpSellerName link/logo, .olpBadge FBA popover, "Ships from ..." list items,
 * .a-expander-content delivery notes) and the a-pagination "Next" item.
 */
import { parsedOffersPageSchema } from '@crawl/core';
import { parseOffersPage } from './offers';
import { PARSER_VERSION, type OfferItem, type OffersPage } from './types';
import { describeOnRealPages, readRealPage } from '../test-support/real-pages';

const d = describeOnRealPages;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const DE = { marketplace: 'DE', origin: 'https://www.amazon.de' };
const usd = (amount: number) => ({ amount, currency: 'USD' });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

const cache = new Map<string, OffersPage>();
function parse(file: string): OffersPage {
  if (!cache.has(file)) {
    const page = parseOffersPage(readRealPage(file), US);
    if (!page) throw new Error(`${file} did not parse as an offers page`);
    cache.set(file, page);
  }
  return cache.get(file) as OffersPage;
}

const offer = (o: Omit<OfferItem, 'missingFields' | 'parserVersion'> & { missingFields?: string[] }): OfferItem => ({
  missingFields: [],
  parserVersion: PARSER_VERSION,
  ...o,
});

d('parseOffersPage: legacy offer listing, Digital Image Processing (page 1 of 2)', () => {
  const file = 'offers-US-0133356728.html';

  it('reads the product and sees the next page', () => {
    const page = parse(file);
    expect(page.layout).toBe('offer-listing');
    expect(page.asin).toBe('0133356728');
    expect(page.title).toBe('Digital Image Processing (4th Edition) (Hardcover)');
    expect(page.totalOffers).toBeNull();
    expect(page.hasNextPage).toBe(true);
    expect(page.offers).toHaveLength(10);
    expect(page.offers.map((o) => o.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(() => parsedOffersPageSchema.parse(page)).not.toThrow();
  });

  it('Amazon.com shown as a logo without link: name from alt text, id from its policy links, fulfilled by Amazon', () => {
    expect(parse(file).offers[0]).toEqual(
      offer({
        position: 1,
        price: usd(197.32),
        shipping: null,
        condition: 'New',
        seller: { name: 'Amazon.com', id: 'ATVPDKIKX0DER' },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: null,
      }),
    );
  });

  it('a third-party seller shipping from abroad', () => {
    expect(parse(file).offers[1]).toEqual(
      offer({
        position: 2,
        price: usd(323.95),
        shipping: null,
        condition: 'Used - Like New',
        seller: { name: 'Hinoyama#US', id: 'A1C80BTUIOI87G' },
        fulfilledByAmazon: false,
        shipsFrom: 'Japan',
        isBuyBox: null,
        deliveryText: 'Arrives between November 5-27.',
      }),
    );
  });

  it('the rental row rendering "0,00" has no price; Amazon Warehouse is a logo linking /shops/<id>', () => {
    expect(parse(file).offers[2]).toEqual(
      offer({
        position: 3,
        price: null,
        shipping: null,
        condition: 'Rental',
        seller: { name: 'Amazon Warehouse', id: 'A2L77EE7U53NWQ' },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: null,
        missingFields: ['price'],
      }),
    );
  });

  it('last row, and ships-from origins of the merchant-fulfilled rows', () => {
    const offers = parse(file).offers;
    expect(offers[9]).toEqual(
      offer({
        position: 10,
        price: usd(711.66),
        shipping: null,
        condition: 'New',
        seller: { name: 'booktexts', id: 'A12OBG8132X2Y0' },
        fulfilledByAmazon: false,
        shipsFrom: 'NJ, United States',
        isBuyBox: null,
        deliveryText: null,
      }),
    );
    expect(offers.map((o) => o.shipsFrom)).toEqual([
      null,
      'Japan',
      null,
      'OH, United States',
      'MO, United States',
      'TX, United States',
      'TX, United States',
      null,
      'NJ, United States',
      'NJ, United States',
    ]);
    expect(offers.map((o) => o.price?.amount ?? null)).toEqual([197.32, 323.95, null, 189.74, 231.25, 320, 320, 320.23, 485.28, 711.66]);
  });
});

d('parseOffersPage: legacy offer listing, History of Psychology (all FBA, single page)', () => {
  const file = 'offers-US-1133958095.html';

  it('lists 8 used/rental FBA offers without a next page', () => {
    const page = parse(file);
    expect(page.asin).toBe('1133958095');
    expect(page.title).toBe('An Introduction to the History of Psychology');
    expect(page.hasNextPage).toBe(false);
    expect(page.offers).toHaveLength(8);
    expect(page.offers.every((o) => o.fulfilledByAmazon === true && o.isBuyBox === null)).toBe(true);
    expect(page.offers.map((o) => o.condition)).toEqual([
      'Used - Acceptable',
      'Used - Good',
      'Rental',
      'Used - Good',
      'Used - Good',
      'Used - Very Good',
      'Used - Acceptable',
      'Used - Good',
    ]);
  });

  it('first and last offers in full; the back-ordered row keeps its delivery note', () => {
    const offers = parse(file).offers;
    expect(offers[0]).toEqual(
      offer({
        position: 1,
        price: usd(33),
        shipping: null,
        condition: 'Used - Acceptable',
        seller: { name: 'MainBookGuys', id: 'A2NNQFEAP53FC4' },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: null,
      }),
    );
    expect(offers[7]).toEqual(
      offer({
        position: 8,
        price: usd(99.03),
        shipping: null,
        condition: 'Used - Good',
        seller: { name: 'Anseris Books', id: 'A17UKP9OXZFEBG' },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: null,
      }),
    );
    expect(offers[5]!.deliveryText).toBe('Back-ordered. Due in stock September 12 -- order now to reserve yours');
    // The rental row with a real price keeps it (only a rendered 0 is dropped).
    expect(offers[2]!.price).toEqual(usd(40.25));
  });
});

/** The 2021+ All Offers Display panel, built from its known structure (no fixture of it exists). */
function aodPage(opts: { total: number; endShown: boolean }): string {
  const grid = (label: string, value: string) =>
    `<div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner"><div class="a-fixed-left-grid-col a-col-left"><span class="a-size-small a-color-tertiary">${label}</span></div><div class="a-fixed-left-grid-col a-col-right">${value}</div></div></div>`;
  return `<!doctype html><html><head><title>Amazon.de</title></head><body>
<div id="aod-container" class="a-section">
 <div id="aod-asin-block"><h5 id="aod-asin-title-text" class="a-size-base-plus">Bosch Akkuschrauber 12V</h5></div>
 <div id="aod-sticky-pinned-container"><div id="aod-pinned-offer"><div id="aod-price-0"><span class="a-price"><span class="a-offscreen">79,99 €</span></span></div></div></div>
 <input type="hidden" id="aod-total-offer-count" value="${opts.total}">
 <div id="aod-pinned-offer" class="a-section a-spacing-none aod-clear-float aod-pinned-offer">
  <div id="aod-price-0" class="a-section a-spacing-none aod-offer-price">
   <span class="a-price aok-align-center centralizedApexPricePriceToPayMargin" data-a-size="xl"><span class="a-offscreen"></span><span aria-hidden="true"><span class="a-price-whole">79<span class="a-price-decimal">,</span></span><span class="a-price-fraction">99</span><span class="a-price-symbol">€</span></span></span>
   <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">109,99 €</span></span>
  </div>
  <div id="aod-offer-heading" class="a-section a-spacing-none"><h5> Neu </h5></div>
  <div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-delivery-price="GRATIS" data-csa-c-delivery-time="Dienstag, 3. Juni">GRATIS Lieferung <span class="a-text-bold">Dienstag, 3. Juni</span></span></div>
  <div id="aod-offer-shipsFrom">${grid('Versand', '<span class="a-size-small a-color-base">Amazon</span>')}</div>
  <div id="aod-offer-soldBy">${grid('Verkäufer', '<span class="a-size-small a-color-base">Amazon</span>')}</div>
  <form method="post" action="/gp/add-to-cart/html"><input type="hidden" name="items[0.base][asin]" value="B0TEST0001"><input type="hidden" name="items[0.base][offerListingId]" value="x"></form>
 </div>
 <div id="aod-offer-list">
  <div id="aod-offer" class="a-section aod-information-block aod-clear-float" role="listitem">
   <div id="aod-price-1" class="a-section aod-offer-price"><span class="a-price"><span class="a-offscreen">84,50 €</span></span></div>
   <div id="aod-offer-heading"><h5>Gebraucht - Sehr gut</h5></div>
   <div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-delivery-price="4,99 €" data-csa-c-delivery-time="5. - 7. Juni">Lieferung für 4,99 € <span class="a-text-bold">5. - 7. Juni</span></span></div>
   <div id="aod-offer-shipsFrom">${grid('Versand', '<span class="a-size-small a-color-base">Werkzeug-Profi</span>')}</div>
   <div id="aod-offer-soldBy">${grid('Verkäufer', '<a class="a-size-small a-link-normal" href="/gp/aag/main?ie=UTF8&amp;seller=A1B2C3D4E5F6G7&amp;isAmazonFulfilled=0&amp;asin=B0TEST0001" role="link">Werkzeug-Profi</a><div id="aod-offer-seller-rating"><i class="a-icon a-icon-star-mini a-star-mini-4-5"></i><span>(1.234 Bewertungen)</span></div>')}</div>
  </div>
  <div id="aod-offer" class="a-section aod-information-block aod-clear-float" role="listitem">
   <div id="aod-price-2" class="a-section aod-offer-price"><span class="a-price"><span class="a-offscreen">86,00 €</span></span></div>
   <div id="aod-offer-heading"><h5>Neu</h5></div>
   <div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-delivery-price="GRATIS" data-csa-c-delivery-time="morgen">GRATIS Lieferung <span class="a-text-bold">morgen</span></span></div>
   <div id="aod-offer-shipsFrom">${grid('Versand', '<span class="a-size-small a-color-base">Amazon</span>')}</div>
   <div id="aod-offer-soldBy">${grid('Verkäufer', '<a class="a-size-small a-link-normal" href="/gp/aag/main?ie=UTF8&amp;seller=AZZZZZZZZZZZZ1&amp;isAmazonFulfilled=1&amp;asin=B0TEST0001" role="link">Tools4You</a>')}</div>
  </div>
 </div>
 <div id="aod-end-of-results" class="a-section${opts.endShown ? '' : ' aok-hidden'}">Ende der Ergebnisse</div>
</div></body></html>`;
}

d('parseOffersPage: a real All Offers Display panel (2021), VTech CS6114', () => {
  // Read by hand from the HTML: #aod-pinned-offer (plus its #aod-sticky-pinned-container copy) and
  // six #aod-offer blocks in #aod-offer-list. Per offer: the .a-offscreen of #aod-price-N, the
  // "+ $N shipping" secondary span under it, the h5 of #aod-offer-heading, the #delivery-message
  // ("Arrives: <b>...</b>", the "... More" expander being aok-hidden), the right column of
  // #aod-offer-shipsFrom and #aod-offer-soldBy (a /gp/aag/main?...seller=<id>&isAmazonFulfilled=<0|1>
  // link; Amazon.com as a plain span, its id in the block's hidden input#ftSelectMerchant).
  // Page: aod-total-offer-count 6 ("6 other options"), "End of results" shown, "See more" aod-hide.
  const file = 'offers-US-B004OA758C-aod.html';
  const amazonFba = (o: { position: number; price: number; shipping: number; seller: [string, string]; deliveryText: string }) =>
    offer({
      position: o.position,
      price: usd(o.price),
      shipping: usd(o.shipping),
      condition: 'New',
      seller: { name: o.seller[0], id: o.seller[1] },
      fulfilledByAmazon: true,
      shipsFrom: 'Amazon.com',
      isBuyBox: false,
      deliveryText: o.deliveryText,
    });
  const merchant = (o: { position: number; price: number; shipping: number | null; name: string; id: string; deliveryText: string }) =>
    offer({
      position: o.position,
      price: usd(o.price),
      shipping: o.shipping === null ? null : usd(o.shipping),
      condition: 'New',
      seller: { name: o.name, id: o.id },
      fulfilledByAmazon: false,
      shipsFrom: o.name,
      isBuyBox: false,
      deliveryText: o.deliveryText,
    });

  it('the page: its product, six other offers announced, no next page after "End of results"', () => {
    const page = parse(file);
    expect(page).toMatchObject({
      layout: 'aod',
      asin: 'B004OA758C',
      title: 'VTech CS6114 DECT 6.0 Cordless Phone with Caller ID/Call Waiting, White/Grey with 1 Handset',
      totalOffers: 6,
      hasNextPage: false,
    });
    expect(page.offers).toHaveLength(7);
    expect(() => parsedOffersPageSchema.parse(page)).not.toThrow();
  });

  it('every offer exactly: the pinned Amazon.com buy box, then the list sorted by price + delivery', () => {
    expect(parse(file).offers).toEqual([
      offer({
        position: 1,
        price: usd(14.97),
        shipping: usd(14.38),
        condition: 'New',
        seller: { name: 'Amazon.com', id: 'ATVPDKIKX0DER' },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon.com',
        isBuyBox: true,
        deliveryText: 'Arrives: March 3 - 9',
      }),
      // The same seller twice, at two prices and delivery dates: two offers, both kept.
      amazonFba({
        position: 2,
        price: 21.95,
        shipping: 14.38,
        seller: ['Essence2Beauty', 'A1RDK9BCDVBKB7'],
        deliveryText: 'Arrives: March 3 - 9',
      }),
      amazonFba({
        position: 3,
        price: 21.99,
        shipping: 22.38,
        seller: ['Essence2Beauty', 'A1RDK9BCDVBKB7'],
        deliveryText: 'Arrives: Friday, Feb 26',
      }),
      amazonFba({
        position: 4,
        price: 22.59,
        shipping: 16.68,
        seller: ["Get 'N' Go 1", 'A2A735O9SGW5JC'],
        deliveryText: 'Arrives: March 1 - 10',
      }),
      merchant({
        position: 5,
        price: 25.99,
        shipping: 58,
        name: 'Triplenet Pricing INC',
        id: 'AAZRLVTNON75Z',
        deliveryText: 'Arrives: Feb 24 - March 4',
      }),
      merchant({
        position: 6,
        price: 24.75,
        shipping: 359.95,
        name: 'Moon Tech',
        id: 'A20NV9CRQIRRW5',
        deliveryText: 'Arrives: Feb 18 - 23',
      }),
      // "beyond seller's shipping coverage": an empty .aod-ship-charge row, no charge offered at all.
      merchant({
        position: 7,
        price: 36.89,
        shipping: null,
        name: 'BikeSomeWhere',
        id: 'A3SNLLVFZ6ABAC',
        deliveryText:
          "Your selected delivery location is beyond seller's shipping coverage for this item. Please choose a different delivery location or purchase from another seller.",
      }),
    ]);
  });

  it('"See more" shown instead of "End of results": the panel has a next page', () => {
    const html = readRealPage(file)
      .replace('class="a-link-normal aod-hide" title="Show more"', 'class="a-link-normal" title="Show more"')
      .replace(
        'id="aod-end-of-results" class="a-size-base a-color-base"',
        'id="aod-end-of-results" class="a-size-base a-color-base aod-hide"',
      );
    expect(parseOffersPage(html, US)).toMatchObject({ layout: 'aod', hasNextPage: true, totalOffers: 6 });
  });
});

describe('parseOffersPage: All Offers Display layout (2021+)', () => {
  it('pinned offer is the buy box; the sticky copy is ignored; sellers, FBA and shipping per offer', () => {
    const page = parseOffersPage(aodPage({ total: 2, endShown: true }), DE);
    expect(page).not.toBeNull();
    expect(page!.asin).toBe('B0TEST0001');
    expect(page!.title).toBe('Bosch Akkuschrauber 12V');
    expect(page!.totalOffers).toBe(2);
    expect(page!.hasNextPage).toBe(false);
    expect(page!.offers).toEqual([
      offer({
        position: 1,
        price: eur(79.99),
        shipping: eur(0),
        condition: 'Neu',
        seller: { name: 'Amazon', id: null },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon',
        isBuyBox: true,
        deliveryText: 'GRATIS Lieferung Dienstag, 3. Juni',
      }),
      offer({
        position: 2,
        price: eur(84.5),
        shipping: eur(4.99),
        condition: 'Gebraucht - Sehr gut',
        seller: { name: 'Werkzeug-Profi', id: 'A1B2C3D4E5F6G7' },
        fulfilledByAmazon: false,
        shipsFrom: 'Werkzeug-Profi',
        isBuyBox: false,
        deliveryText: 'Lieferung für 4,99 € 5. - 7. Juni',
      }),
      offer({
        position: 3,
        price: eur(86),
        shipping: eur(0),
        condition: 'Neu',
        seller: { name: 'Tools4You', id: 'AZZZZZZZZZZZZ1' },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon',
        isBuyBox: false,
        deliveryText: 'GRATIS Lieferung morgen',
      }),
    ]);
  });

  it("the listing's deliver-to block is the page's delivery location; a panel page without one names none", () => {
    const nav =
      '<div id="nav-belt"><div id="glow-ingress-block"><span id="glow-ingress-line1">Liefern an Berlin 10115</span>' +
      '<span id="glow-ingress-line2">Standort aktualisieren</span></div></div>';
    const withNav = aodPage({ total: 2, endShown: true }).replace('<body>', `<body>${nav}`);
    expect(parseOffersPage(withNav, DE)!.deliveryLocation).toEqual({ text: 'Berlin 10115', postalCode: '10115' });
    expect(parseOffersPage(aodPage({ total: 2, endShown: true }), DE)!.deliveryLocation).toBeNull();
  });

  it('more offers announced than listed, end of results hidden: there is a next page', () => {
    expect(parseOffersPage(aodPage({ total: 12, endShown: false }), DE)!.hasNextPage).toBe(true);
    expect(parseOffersPage(aodPage({ total: 12, endShown: true }), DE)!.hasNextPage).toBe(false);
  });

  it('a later page of the panel (its offer list only): the offers are numbered across pages, so the total tells whether more follow', () => {
    const laterPage = (from: number, to: number) => {
      const rows = [];
      for (let n = from; n <= to; n++)
        rows.push(
          `<div id="aod-offer"><div id="aod-offer-heading"><h5>Neu</h5></div><div id="aod-offer-price"><div id="aod-price-${n}"><span class="a-price"><span class="a-offscreen">${50 + n},00 €</span></span></div></div>` +
            `<input type="hidden" id="ftSelectAsin" value="B0TEST0001"><div id="aod-offer-soldBy"><a href="/gp/aag/main?seller=A1B2C3D4E5F6G${String.fromCharCode(65 + n)}">Seller ${n}</a></div></div>`,
        );
      return `<div id="aod-offer-list"><input type="hidden" id="aod-total-offer-count" value="25">${rows.join('')}</div>`;
    };
    const second = parseOffersPage(laterPage(11, 20), DE)!;
    expect(second).toMatchObject({ layout: 'aod', asin: 'B0TEST0001', totalOffers: 25, hasNextPage: true });
    expect(second.offers.map((o) => [o.position, o.isBuyBox, o.price?.amount])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, false, 61 + i]),
    );
    expect(parseOffersPage(laterPage(21, 25), DE)!.hasNextPage).toBe(false);
  });

  it('a pinned block without a price ("No featured offers available") is not an offer', () => {
    const html = aodPage({ total: 2, endShown: true }).replace(
      /<div id="aod-pinned-offer" class[\s\S]*?<\/form>\n <\/div>/,
      '<div id="aod-pinned-offer" class="a-section"><span>Keine empfohlenen Angebote verfügbar</span></div>',
    );
    const page = parseOffersPage(html, DE)!;
    expect(page.offers.map((o) => [o.position, o.isBuyBox, o.seller?.name])).toEqual([
      [1, false, 'Werkzeug-Profi'],
      [2, false, 'Tools4You'],
    ]);
  });

  it('label/value blocks without the grid ("Vendido por" Amazon.com.br): the value, not the label', () => {
    const html = `<html><body><div id="aod-container">
<div id="aod-pinned-offer"><div id="aod-offer-heading"><h5>Novo</h5></div>
 <div id="aod-offer-price"><span class="a-price"><span class="a-offscreen">R$ 4.219,07</span></span><span>à vista no Pix</span></div>
 <div id="aod-offer-shipsFrom"><span>Enviado por</span> <span>Amazon.com.br</span></div>
 <div id="aod-offer-soldBy"><span>Vendido por</span> <span>Amazon.com.br</span></div></div>
<div id="aod-offer-list"><div id="aod-offer"><div id="aod-offer-heading"><h5>Usado - Muito bom</h5></div>
 <div id="aod-offer-price"><span class="a-price"><span class="a-offscreen">R$ 4.331,09</span></span></div>
 <div id="aod-offer-soldBy"><span>Vendido por</span> <a href="/gp/aag/main?seller=ACUNARZFR75ET">Magalu.</a></div></div></div>
</div></body></html>`;
    const page = parseOffersPage(html, { marketplace: 'BR', origin: 'https://www.amazon.com.br' })!;
    expect(page.offers.map((o) => [o.price, o.condition, o.seller, o.shipsFrom, o.fulfilledByAmazon, o.isBuyBox])).toEqual([
      [{ amount: 4219.07, currency: 'BRL' }, 'Novo', { name: 'Amazon.com.br', id: null }, 'Amazon.com.br', true, true],
      [{ amount: 4331.09, currency: 'BRL' }, 'Usado - Muito bom', { name: 'Magalu.', id: 'ACUNARZFR75ET' }, null, null, false],
    ]);
  });

  it('pages that are not offer listings yield null', () => {
    expect(parseOffersPage('', DE)).toBeNull();
    expect(parseOffersPage('<html><body><form action="/errors/validateCaptcha"></form></body></html>', DE)).toBeNull();
    expect(parseOffersPage('<html><body><span id="productTitle">Thing</span></body></html>', DE)).toBeNull();
  });
});
