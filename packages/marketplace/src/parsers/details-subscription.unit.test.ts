/**
 * `subscribeAndSave` of details pages: the buy box's subscription option in each layout and in
 * the marketplaces' languages, on markup in Amazon's layouts; and on the saved pages, none of
 * which offers a subscription (their Subscribe & Save words are in the navigation and in scripts).
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseDetailsPage } from './details';
import { extractSubscribeAndSave } from './details-subscription';
import { Doc } from '../page';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const snsIn = (marketplace: string, body: string) => extractSubscribeAndSave(new Doc(`<html><body>${body}</body></html>`), marketplace);

/** The 2021+ accordion row's header, as the option's name and price. */
const accordionRow = (header: string) =>
  `<div id="buybox"><div id="buyBoxAccordion" class="a-accordion"><div class="a-box a-accordion-active" data-a-accordion-row-name="newAccordionRow"><span class="a-price"><span class="a-offscreen">$60.00</span></span></div>` +
  `<div id="snsAccordionRowMiddle" class="a-box" data-a-accordion-row-name="snsAccordionRowMiddle"><div class="a-box-inner"><h5>${header}</h5></div></div></div></div>`;

describe('subscribeAndSave: the buy box in each layout', () => {
  it('2023+: the sns price block, not its struck basis price nor its unit price', () => {
    const body =
      '<div id="snsAccordionRowMiddle"><div id="sns-base-price"><span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$60.00</span></span>' +
      '<span class="a-price"><span class="a-offscreen">$54.00</span></span> <span class="pricePerUnit"><span class="a-price"><span class="a-offscreen">$0.54</span></span>/Count</span></div></div>';
    expect(snsIn('US', body)).toEqual({ amount: 54, currency: 'USD' });
  });

  it('2023+: the accessibility label of the price to pay', () => {
    const body =
      '<div id="snsAccordionRowMiddle"><span class="apex-pricetopay-accessibility-label">$54.00 with 10 percent savings</span></div>';
    expect(snsIn('US', body)).toEqual({ amount: 54, currency: 'USD' });
  });

  it('2016-2020: the subscription box, not its "Save 5%" line', () => {
    const body =
      '<div id="snsBuyBox"><span class="a-color-price">Save 5%</span> <span>Subscribe &amp; Save:</span> <span id="snsPrice"><span class="a-color-price">$23.74</span></span></div>';
    expect(snsIn('US', body)).toEqual({ amount: 23.74, currency: 'USD' });
  });

  it.each([
    ['US', 'Subscribe &amp; Save: $54.00 ($0.54 / Count)', 54, 'USD'],
    ['UK', 'Subscribe &amp; Save: Save 5% now £8.54', 8.54, 'GBP'],
    ['DE', 'Spar-Abo: 12,34 € (0,62 € / 100 g)', 12.34, 'EUR'],
    ['DE', 'Abonnieren &amp; Sparen: 12,34 €', 12.34, 'EUR'],
    ['FR', 'Abonnez-vous et économisez : 9,49 €', 9.49, 'EUR'],
    ['ES', 'Suscríbete y ahorra: 9,49 €', 9.49, 'EUR'],
    ['IT', 'Iscriviti e risparmia: 9,49 €', 9.49, 'EUR'],
    ['BR', 'Programe e Poupe: R$ 1.110,55 (5% de desconto)', 1110.55, 'BRL'],
    ['NL', 'Abonneer en bespaar: € 9,49', 9.49, 'EUR'],
    ['SE', 'Prenumerera och spara: 94,90 kr', 94.9, 'SEK'],
    ['PL', 'Subskrybuj i oszczędzaj: 49,99 zł', 49.99, 'PLN'],
    ['TR', 'Abone Ol ve Tasarruf Et: 129,99 TL', 129.99, 'TRY'],
    ['JP', '定期おトク便 ￥2,272', 2272, 'JPY'],
    ['AE', 'اشترك ووفّر: 49.00 درهم', 49, 'AED'],
  ])('the accordion row by its words (%s): %s', (marketplace, header, amount, currency) => {
    expect(snsIn(marketplace, accordionRow(header))).toEqual({ amount, currency });
  });

  it('no subscription: a hidden option, an upsell without a price, other rows', () => {
    expect(
      snsIn('US', '<div class="aok-hidden"><div id="snsAccordionRowMiddle"><h5>Subscribe &amp; Save: $54.00</h5></div></div>'),
    ).toBeNull();
    expect(snsIn('US', '<div id="snsBuyBox_feature_div"><span>Subscribe &amp; Save: save up to 15%</span></div>')).toBeNull();
    expect(snsIn('US', accordionRow('').replace(/<div id="snsAccordionRowMiddle"[\s\S]*?<\/div><\/div>/, ''))).toBeNull();
  });
});

describeOnRealPages('subscribeAndSave on the saved product pages', () => {
  it('no saved page offers a subscription in its buy box: null on every one', () => {
    const files = realPageFiles((f) => f.startsWith('details-'));
    expect(files.length).toBe(16);
    const found = files.map((file) => {
      const mk = file.split('-')[1] as MarketplaceCode;
      return [
        file,
        parseDetailsPage(readRealPage(file), { marketplace: mk, origin: `https://${MARKETPLACES[mk].host}` })?.subscribeAndSave,
      ];
    });
    expect(found).toEqual(files.map((file) => [file, null]));
  });
});
