/**
 * Prices as a saved page writes them ("$35.99", "1.234,56 €", "R$ 49,90", "￥1,980", and the
 * `.a-price` whole/fraction spans), found once per page on its latin1 view (byte offsets = string
 * offsets; a UTF-8 "€" is the three characters "\xE2\x82\xAC" there), and rewritten in the
 * page's own format when a shopper's place moves them (located-page.ts).
 */

const SYMBOL = String.raw`(?:R\$|US\$|\$|\xC2\xA3|\xC2\xA5|\xEF\xBF\xA5|\xE2\x82\xAC|\xE2\x82\xB9|&euro;|&pound;|&yen;|&#8364;|&#163;|&#165;|\b(?:USD|EUR|GBP|JPY|INR|BRL|CAD|AUD|MXN|SEK|PLN|TRY|SAR|AED|EGP|SGD|CHF|XOF|XAF|KRW)\b)`;
const SPACE = String.raw`(?:\s|\xC2\xA0|\xE2\x80\xAF|&nbsp;|&#160;)?`;
/** Indian lakh grouping, then groups of three, then plain digits; a two-digit fraction. */
const AMOUNT = String.raw`(?:\d{1,2}(?:,\d\d)+,\d{3}|\d{1,3}(?:(?:,|\.|\xC2\xA0|\xE2\x80\xAF|&nbsp;)\d{3})+|\d+)(?:[.,]\d\d)?`;
const PRICE_RE = new RegExp(String.raw`(${SYMBOL})${SPACE}(${AMOUNT})(?![\d])|(?<![\d.,])(${AMOUNT})${SPACE}(${SYMBOL})`, 'g');
/** Currencies without minor units, whatever the marketplace: a yen or CFA franc price is whole ("XOF&nbsp;9,107" on a page fetched from elsewhere). */
const WHOLE_CURRENCY = /^(?:\xC2\xA5|\xEF\xBF\xA5|&yen;|&#165;|JPY|XOF|XAF|KRW)$/;
const SPLIT_RE =
  /class="a-price-whole">(\d[\d.,]*?)(?:<span class="a-price-decimal">[.,]<\/span>)?<\/span>(?:\s*<span class="a-price-fraction">(\d\d)<\/span>)?/g;

/** A place in the page: an amount's digits (and separators) only, never its currency. */
export interface AmountSlot {
  at: number;
  length: number;
}

/** An amount written with its currency, and that currency's minor digits (2 for "$35.99", 0 for "￥1,980"). */
export interface PriceSlot extends AmountSlot {
  digits: number;
}

/** The visible parts of an `.a-price` block: the whole part, and its fraction when the currency has one. */
export interface SplitSlot {
  whole: AmountSlot;
  fraction: AmountSlot | null;
}

const hasFraction = (amount: string): boolean => /[.,]\d\d$/.test(amount);

/**
 * The amounts of `html` (a page's latin1 view) written with a currency, and the `.a-price`
 * whole/fraction spans. Only amounts written with their currency's minor units are taken
 * (`digits`, the marketplace's: 2 takes "35.99" but not the "$35" of "FREE delivery over $35";
 * a yen or CFA franc amount is whole on any page).
 */
export function findPrices(html: string, digits: number): { amounts: PriceSlot[]; splits: SplitSlot[] } {
  const amounts: PriceSlot[] = [];
  for (const m of html.matchAll(PRICE_RE)) {
    const amount = m[2] ?? m[3]!;
    const own = WHOLE_CURRENCY.test(m[1] ?? m[4]!) ? 0 : digits;
    if (hasFraction(amount) !== own > 0 || !/[1-9]/.test(amount)) continue;
    amounts.push({ at: m.index + m[0].indexOf(amount, (m[1] ?? '').length), length: amount.length, digits: own });
  }
  const splits: SplitSlot[] = [];
  for (const m of html.matchAll(SPLIT_RE)) {
    if ((m[2] !== undefined) !== digits > 0) continue;
    const wholeAt = m.index + 'class="a-price-whole">'.length;
    const whole = { at: wholeAt, length: m[1]!.replace(/[.,]$/, '').length };
    const fraction = m[2] === undefined ? null : { at: m.index + m[0].lastIndexOf(`>${m[2]}<`) + 1, length: 2 };
    splits.push({ whole, fraction });
  }
  return { amounts, splits };
}

/** An amount's value in minor units: every digit it has ("1.234,56" -> 123456). */
export const minorOf = (amount: string): number => Number(amount.replace(/\D/g, ''));

/**
 * `minor` written like `amount` (its separators, its grouping): digit for digit when the count
 * stays, else regrouped in threes with the amount's group separator.
 */
export function formatLike(amount: string, minor: number, digits: number): string {
  const next = String(minor).padStart(digits + 1, '0');
  const own = amount.replace(/\D/g, '');
  if (next.length === own.length) {
    let i = 0;
    return amount.replace(/\d/g, () => next[i++]!);
  }
  const fractionSep = digits > 0 ? amount.charAt(amount.length - digits - 1) : '';
  const whole = digits > 0 ? amount.slice(0, -digits - 1) : amount;
  const group = /\D+/.exec(whole)?.[0] ?? (fractionSep === ',' ? '.' : ',');
  const grouped = next.slice(0, next.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return digits > 0 ? `${grouped}${fractionSep}${next.slice(-digits)}` : grouped;
}
