/**
 * Buy-box price and struck list price of a detail page, across layouts:
 * 2017-2019 #priceblock_* rows and book accordions, 2021-2022 #corePrice /
 * #apex_desktop tables, 2023+ #corePriceDisplay_desktop_feature_div, and the
 * 2026 rendered DOM whose .a-offscreen copies are blank.
 */
import type { Doc, Sel } from '../page';
import { currencyForMarketplace, detectCurrency, parseMoney } from './numbers';
import { clean, isRecord, textOf } from './text';
import type { Money } from './types';

/**
 * Money of one `.a-price` block (or plain price element). The screen-reader copy
 * (.a-offscreen) is preferred; when it is blank (scripts-stripped renders) the
 * visible symbol/whole/fraction spans are assembled instead.
 */
export function moneyFromElement(el: Sel, marketplace: string): Money | null {
  if (el.length === 0) return null;
  const offs = el.is('.a-offscreen') ? el : el.find('.a-offscreen');
  for (let i = 0; i < offs.length; i++) {
    const m = parseMoney(textOf(offs.eq(i)), marketplace);
    if (m) return m;
  }
  const whole = el.find('.a-price-whole').first();
  if (whole.length) {
    const intDigits = textOf(whole.clone().children('.a-price-decimal').remove().end()).replace(/\D/g, '');
    const fracDigits = textOf(el.find('.a-price-fraction').first()).replace(/\D/g, '');
    if (intDigits) {
      const amount = Number(fracDigits ? `${intDigits}.${fracDigits}` : intDigits);
      const sym = textOf(el.find('.a-price-symbol').first());
      const currency = detectCurrency(sym, marketplace) ?? currencyForMarketplace(marketplace);
      return { amount: Math.round(amount * 100) / 100, currency };
    }
  }
  // Text-price variants only carry an aria-hidden copy; old layouts are plain text.
  const hidden = el.find('[aria-hidden="true"]').first();
  const text = hidden.length ? textOf(hidden) : textOf(el);
  return looksLikePrice(text) ? parseMoney(text, marketplace) : null;
}

/**
 * Plain-text price check: .a-color-price is also used for "Only 6 left in stock", so
 * the text may hold at most a currency code/symbol besides the amount(s). A missing
 * symbol is fine: 2017-2019 amazon.in renders "₹" with an empty span.currencyINR.
 */
export function looksLikePrice(text: string): boolean {
  if (!text || text.length > 40 || !/\d/.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length <= 6;
}

/** Ordered by layout recency; within a layout, the price the customer pays comes first. */
const PRICE_SELECTORS = [
  // 2023+: first .priceToPay in document order belongs to the active buy-box accordion row.
  '#corePriceDisplay_desktop_feature_div .priceToPay',
  '#corePriceDisplay_desktop_feature_div .apexPriceToPay',
  // 2021-2022 apex table ("Price:" row; a-price-range keeps the lower bound first).
  '#corePrice_desktop .apexPriceToPay',
  '#corePrice_desktop .priceToPay',
  '#corePrice_feature_div .priceToPay',
  '#corePrice_feature_div .a-price:not(.a-text-price)',
  '#apex_desktop .priceToPay',
  '#apex_desktop .apexPriceToPay',
  '#apex_offerDisplay_desktop .priceToPay',
  // 2015-2020 price block rows: a deal or sale price replaces "our price".
  '#priceblock_dealprice',
  '#priceblock_saleprice',
  '#priceblock_pospromoprice',
  '#priceblock_ourprice',
  '#price_inside_buybox',
  '#newBuyBoxPrice',
  // E-books.
  '#kindle-price',
  '#kindle-price-column .a-color-price',
  // Book/media accordions and format swatches.
  '#buyNewSection .offer-price',
  '#buyNew_noncbb .a-color-price',
  '#tmmSwatches .a-button-selected .a-color-price',
  '#tmmSwatches .selected .a-color-price',
  '#price .header-price',
  '.header-price',
  '#usedBuySection .offer-price',
  '#buybox .offer-price',
  // Only inside the buy box: #rightCol also hosts sponsored-product ads with their own prices.
  '#buybox .a-price:not(.a-text-price)',
  '#desktop_buybox .a-price:not(.a-text-price)',
  '#buybox .a-color-price',
];

const LIST_PRICE_SELECTORS = [
  '#corePriceDisplay_desktop_feature_div .basisPrice .a-price',
  '#corePriceDisplay_desktop_feature_div .a-price[data-a-strike="true"]',
  '#corePrice_desktop .a-price[data-a-strike="true"]',
  '#corePrice_feature_div .a-price[data-a-strike="true"]',
  '#apex_desktop .a-price[data-a-strike="true"]',
  '#listPrice',
  '#listPriceValue',
  '#priceblock_ourprice_row .a-text-strike',
  '.priceBlockStrikePriceString',
  '#price .a-text-strike',
  '#print-list-price',
  '#digital-list-price .a-text-strike',
  '#buyNewSection .a-text-strike',
  '#buybox .a-text-strike',
];

function firstMoney(doc: Doc, selectors: readonly string[], marketplace: string): Money | null {
  let zero: Money | null = null;
  for (const s of selectors) {
    const els = doc.q(s);
    for (let i = 0; i < els.length && i < 4; i++) {
      const m = moneyFromElement(els.eq(i), marketplace);
      if (!m) continue;
      // "0,00 €" swatches are Kindle Unlimited / Prime Video offers, not the price.
      if (m.amount > 0) return m;
      zero ??= m;
    }
  }
  return zero;
}

/** Twister "buying options" JSON kept as text in the buy box (2021-2022 layouts). */
function priceFromBuyingOptionsJson(doc: Doc, marketplace: string): Money | null {
  const raw = clean(doc.q('#buybox .twister-plus-buying-options-price-data').first().text());
  if (!raw.startsWith('[') && !raw.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? Object.values(parsed).flat() : [];
    const offers = list.filter(isRecord);
    const offer = offers.find((o) => o.buyingOptionType === 'NEW') ?? offers[0];
    if (!offer || typeof offer.priceAmount !== 'number') return null;
    const sym = typeof offer.currencySymbol === 'string' ? offer.currencySymbol : String(offer.displayPrice ?? '');
    return {
      amount: offer.priceAmount,
      currency: detectCurrency(sym, marketplace) ?? currencyForMarketplace(marketplace),
    };
  } catch {
    return null;
  }
}

export function extractPrices(doc: Doc, marketplace: string): { price: Money | null; listPrice: Money | null } {
  const price = firstMoney(doc, PRICE_SELECTORS, marketplace) ?? priceFromBuyingOptionsJson(doc, marketplace);
  let listPrice = firstMoney(doc, LIST_PRICE_SELECTORS, marketplace);
  // A "list price" that is not above the paid price (or in another currency) is not a discount reference.
  if (listPrice && (!price || listPrice.currency !== price.currency || listPrice.amount <= price.amount)) {
    listPrice = null;
  }
  return { price, listPrice };
}
