/**
 * Saved pages at a shopper's place (docs/crawling.md, "Delivery location"): prices written in
 * every format move in the page's own format, one product's prices and its buy box's stock and
 * delivery follow (postal code, ASIN) as the built-in pages' do, cards move by their own ASIN,
 * and what the parsers read says so.
 */
import { parseDetailsPage, parseSearchPage } from '@crawl/marketplace';
import { deliveryTexts } from './details-page';
import { marketLocale } from './locale';
import { LocatedPage } from './located-page';
import { findPrices, formatLike, minorOf } from './price-texts';
import { placeAt, priceAt } from './product-facts';

const US = marketLocale('US');
const CTX = { marketplace: 'US', origin: 'https://www.amazon.com' } as const;
const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const amountsOf = (html: string, digits = 2) =>
  findPrices(latin1(html), digits).amounts.map((a) => Buffer.from(latin1(html).slice(a.at, a.at + a.length), 'latin1').toString());

/** A saved-like product page: the 2023+ price block, a text price, stock, the buy box's delivery message. */
function productPage(asin: string, stock = 'In Stock'): Buffer {
  return Buffer.from(`<html><body>
<div id="nav-global-location-slot"><div id="glow-ingress-block"><span class="nav-line-1" id="glow-ingress-line1">Delivering to Ashburn 20147</span><span class="nav-line-2" id="glow-ingress-line2">Update location</span></div></div>
<div id="centerCol"><span id="productTitle">Acme Lamp</span>
<div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">$35.99</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">35<span class="a-price-decimal">.</span></span><span class="a-price-fraction">99</span></span></span></div>
<span id="listPrice">List: $1,049.99</span><p>FREE delivery on orders over $35 shipped by Amazon</p></div>
<div id="rightCol"><div id="deliveryBlock_feature_div"><span data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="FREE" data-csa-c-delivery-time="Friday, August 21" data-csa-c-type="element"> FREE delivery <span class="a-text-bold">Friday, August 21</span> </span></div>
<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-success"> ${stock} </span></div>
<input type="hidden" id="ASIN" name="ASIN" value="${asin}"></div>
</body></html>`);
}

const placement = (postalCode: string, asin: string) => ({
  postalCode,
  lines: [`Delivering to Chicago ${postalCode}`, 'Update location'] as [string, string],
  asin,
});

/** A postal code (from 10000 on) for which `test` holds. */
function codeWhere(test: (code: string) => boolean): string {
  for (let n = 10_000; n < 99_999; n++) if (test(String(n))) return String(n);
  throw new Error('no such code');
}

describe('prices as pages write them', () => {
  it('finds amounts with their currency in every format, and only with minor units where the currency has them', () => {
    expect(amountsOf('<b>$35.99</b> R$ 49,90 | 1.234,56&nbsp;€ | £3.99 | ₹1,23,456.00 | US$12.00 | 12,99 € | over $35 | $0.00')).toEqual([
      '35.99',
      '49,90',
      '1.234,56',
      '3.99',
      '1,23,456.00',
      '12.00',
      '12,99',
    ]);
    // a yen or CFA franc amount is whole, on any marketplace's page
    expect(amountsOf('￥1,980 and XOF&nbsp;9,107 and $4.99', 2)).toEqual(['1,980', '9,107', '4.99']);
    expect(amountsOf('￥1,980 <span class="a-offscreen">￥12,800</span>', 0)).toEqual(['1,980', '12,800']);
  });

  it('writes a moved amount in the amount own format, regrouped when its digits change', () => {
    expect(formatLike('35.99', 3719, 2)).toBe('37.19');
    expect(formatLike('1.234,56', 131_056, 2)).toBe('1.310,56');
    expect(formatLike('999.99', 104_999, 2)).toBe('1,049.99');
    expect(formatLike('9,99', 1_049, 2)).toBe('10,49');
    expect(formatLike('1,980', 2_080, 0)).toBe('2,080');
    expect(formatLike('9\xC2\xA0999,00', 1_049_900, 2)).toBe('10\xC2\xA0499,00');
    expect(minorOf('1.234,56')).toBe(123_456);
  });
});

describe('a product page at a place', () => {
  const asin = 'B0LOCSAVED';
  const page = productPage(asin);
  const located = new LocatedPage(page, 'product', US);

  it('moves every price of the page as priceAt does, the whole and fraction spans with the screen-reader copy', () => {
    const body = located.render(page, placement('60601', asin)).toString();
    const price = priceAt(3599, asin, '60601');
    const text = US.price(price).text;
    expect(body).toContain(`<span class="a-offscreen">${text}</span>`);
    expect(body).toContain(
      `<span class="a-price-whole">${Math.floor(price / 100)}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${String(price % 100).padStart(2, '0')}</span>`,
    );
    expect(body).toContain(`List: ${US.price(priceAt(104_999, asin, '60601')).text}`);
    expect(body).toContain('orders over $35 shipped'); // a threshold is not a price
    expect(parseDetailsPage(body, CTX)?.price).toEqual({ amount: price / 100, currency: 'USD' });
  });

  it('the same place gives the same bytes; another place another price', () => {
    const chicago = located.render(page, placement('60601', asin));
    expect(located.render(page, placement('60601', asin)).equals(chicago)).toBe(true);
    const other = codeWhere((c) => priceAt(3599, asin, c) !== priceAt(3599, asin, '60601'));
    expect(parseDetailsPage(located.render(page, placement(other, asin)), CTX)?.price?.amount).not.toBe(
      parseDetailsPage(chicago, CTX)?.price?.amount,
    );
  });

  it("names the place in the deliver-to block and gives the buy box the place's delivery, as data and as words", () => {
    const code = codeWhere((c) => placeAt(asin, US, c).delivery.chargeMinor > 0);
    const body = located.render(page, placement(code, asin)).toString();
    const { charge, date } = deliveryTexts(placeAt(asin, US, code).delivery, US);
    expect(body).toContain(`id="glow-ingress-line1">Delivering to Chicago ${code}</span>`);
    expect(body).toContain(`data-csa-c-delivery-price="${charge}" data-csa-c-delivery-time="${date}"`);
    expect(body).toContain(`> ${charge} delivery <span class="a-text-bold">${date}</span>`);
    const item = parseDetailsPage(body, CTX);
    expect(item?.shipping).toEqual({ amount: placeAt(asin, US, code).delivery.chargeMinor / 100, currency: 'USD' });
    expect(item?.deliveryPromise?.text).toBe(date);
    const free = codeWhere((c) => placeAt(asin, US, c).delivery.chargeMinor === 0);
    expect(parseDetailsPage(located.render(page, placement(free, asin)), CTX)?.shipping).toEqual({ amount: 0, currency: 'USD' });
  });

  it('is out of stock where placeAt says so, and as saved elsewhere', () => {
    const out = codeWhere((c) => placeAt(asin, US, c).out);
    const stocked = codeWhere((c) => !placeAt(asin, US, c).out);
    expect(parseDetailsPage(located.render(page, placement(out, asin)), CTX)?.availability.status).toBe('out_of_stock');
    expect(parseDetailsPage(located.render(page, placement(stocked, asin)), CTX)?.availability).toEqual(
      parseDetailsPage(page, CTX)?.availability,
    );
  });

  it('reads the slots from the body it is given: a template page of another ASIN, same layout', () => {
    const other = productPage('B0LOCOTHER')
      .toString()
      .replace(/35(<span class="a-price-decimal">)/, '42$1')
      .replace('$35.99', '$42.99');
    const body = located.render(Buffer.from(other), placement('60601', 'B0LOCOTHER')).toString();
    expect(parseDetailsPage(body, CTX)?.price?.amount).toBe(priceAt(4299, 'B0LOCOTHER', '60601') / 100);
  });
});

describe('cards at a place', () => {
  const card = (asin: string, price: string) =>
    `<div data-asin="${asin}" data-component-type="s-search-result" class="s-result-item"><h2 aria-label="x"><a href="/dp/${asin}"><span>Lamp ${asin} for the desk</span></a></h2><span class="a-price"><span class="a-offscreen">${price}</span></span></div>`;
  const page = Buffer.from(
    `<html><body><div class="s-main-slot">${card('B0CARD0001', '$19.99')}${card('B0CARD0002', '$19.99')}</div></body></html>`,
  );

  it("moves each card's price by the card's own ASIN", () => {
    const body = new LocatedPage(page, 'cards', US).render(page, placement('60601', 'desk lamp'));
    expect(parseSearchPage(body, CTX).map((c) => c.price?.amount)).toEqual(
      ['B0CARD0001', 'B0CARD0002'].map((a) => priceAt(1999, a, '60601') / 100),
    );
  });
});
