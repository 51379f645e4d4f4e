/**
 * Locale-aware number, count, rating and money parsing for Amazon marketplaces.
 *
 * The decimal separator is decided by the string itself, not by a per-locale
 * table: Amazon mixes conventions on one page (amazon.es with a pt-PT UI shows
 * "1,959 avaliações" and "4.3 de 5"; amazon.com.br shows "R$ 1.169,00").
 */
import type { Money } from './types';

const MARKETPLACE_CURRENCY: Record<string, string> = {
  US: 'USD',
  UK: 'GBP',
  GB: 'GBP',
  DE: 'EUR',
  FR: 'EUR',
  IT: 'EUR',
  ES: 'EUR',
  NL: 'EUR',
  BE: 'EUR',
  IE: 'EUR',
  AT: 'EUR',
  CA: 'CAD',
  MX: 'MXN',
  BR: 'BRL',
  JP: 'JPY',
  IN: 'INR',
  AU: 'AUD',
  SE: 'SEK',
  PL: 'PLN',
  TR: 'TRY',
  AE: 'AED',
  SA: 'SAR',
  SG: 'SGD',
  EG: 'EGP',
  CN: 'CNY',
  ZA: 'ZAR',
  CH: 'CHF',
  NZ: 'NZD',
};

/** Default ISO 4217 currency of a marketplace code ('US', 'UK', 'DE', ...); 'USD' when unknown. */
export function currencyForMarketplace(marketplace: string): string {
  return MARKETPLACE_CURRENCY[(marketplace || '').trim().toUpperCase()] ?? 'USD';
}

const DOLLAR_CURRENCIES = new Set(['USD', 'CAD', 'AUD', 'SGD', 'MXN', 'NZD']);

/** Ordered: longer / more specific markers first ("US$" before "$", "R$" before "$"). */
const CURRENCY_MARKERS: [RegExp, string | null][] = [
  [/US\$|U\.S\.\s?\$/, 'USD'],
  [/CDN\$|CA\$|C\$/, 'CAD'],
  [/AU\$|A\$/, 'AUD'],
  [/NZ\$/, 'NZD'],
  [/S\$/, 'SGD'],
  [/R\$/, 'BRL'],
  [/MX\$/, 'MXN'],
  [/HK\$/, 'HKD'],
  [/\b(USD|EUR|GBP|CAD|AUD|JPY|INR|BRL|MXN|SEK|PLN|TRY|AED|SAR|SGD|EGP|CHF|CNY|NZD|HKD|ZAR|DKK|NOK|CZK|HUF)\b/, null],
  [/£/, 'GBP'],
  [/€/, 'EUR'],
  [/₹|\bRs\.?(?=\s?\d)/, 'INR'],
  [/₺|\bTL\b/, 'TRY'],
  [/zł/i, 'PLN'],
  [/\bkr\b|\bSEK\b/i, 'SEK'],
  [/د\.إ|درهم/, 'AED'],
  [/ر\.س|ريال/, 'SAR'],
  [/ج\.م|جنيه/, 'EGP'],
  [/R(?=\s?\d)/, 'ZAR'],
];

/**
 * ISO currency mentioned in a price string, or null when it has no marker.
 * A bare "$" or "¥" is resolved with the marketplace (CA "$" is CAD, MX "$" is MXN).
 */
export function detectCurrency(text: string, marketplace: string): string | null {
  const def = currencyForMarketplace(marketplace);
  for (const [re, code] of CURRENCY_MARKERS) {
    const m = re.exec(text);
    if (m) {
      if (code === 'ZAR' && def !== 'ZAR') continue; // a bare "R" is only a currency on amazon.co.za
      return code ?? m[1]!.toUpperCase();
    }
  }
  if (/[¥￥円]|元/.test(text)) return def === 'CNY' ? 'CNY' : 'JPY';
  if (text.includes('$')) return DOLLAR_CURRENCIES.has(def) ? def : 'USD';
  return null;
}

/** Compact multipliers seen in review counts: "84.7K", "1,2 mil", "1,2 Mio.", "1.2万", "3 tys.". */
const COMPACT_RE = /^\s?(k|K|mil|Mil|M|Mio\.?|mln\.?|tys\.?|B|万|千|L|lakh|Lakh|Cr|crore)(?![A-Za-zÀ-ÿ])/;
const COMPACT_FACTOR: Record<string, number> = {
  k: 1e3,
  mil: 1e3,
  tys: 1e3,
  千: 1e3,
  M: 1e6,
  mio: 1e6,
  mln: 1e6,
  B: 1e9,
  万: 1e4,
  L: 1e5,
  lakh: 1e5,
  cr: 1e7,
  crore: 1e7,
};

function compactFactor(suffix: string): number {
  const s = suffix.replace(/\.$/, '');
  if (s === 'M' || s === 'B' || s === 'L') return COMPACT_FACTOR[s]!;
  return COMPACT_FACTOR[s.toLowerCase()] ?? COMPACT_FACTOR[s] ?? 1;
}

// Digits with inner grouping/decimal marks: "1.234,56", "1 234,56", "1’234.50", "84.7".
const NUMBER_TOKEN_RE = /\d+(?:[.,'’\u00a0\u202f\u2009 ]\d+)*/;

/**
 * Converts the digits of one token with "." / "," marks to a number.
 * Rules: both marks present -> the last one is the decimal mark; one mark
 * repeated -> thousands; one mark once -> decimal unless followed by exactly
 * 3 digits after a non-zero integer part of at most 3 digits (then it is a
 * thousands mark: no price, rating or count on Amazon has 3 decimals).
 */
function tokenToNumber(token: string): number | null {
  let t = token;
  // Space-like and apostrophe groupings are only valid with 3-digit groups ("1 234"); cut the
  // token at the first invalid group so "4 5" does not become 45.
  const groups = t.split(/[\u00a0\u202f\u2009 '’]/);
  if (groups.length > 1) {
    // split() always yields at least one element; `i < length` bounds the rest.
    let keep = groups[0]!;
    for (let i = 1; i < groups.length; i++) {
      const group = groups[i]!;
      if (/^\d{3}(?:[.,]\d+)*$/.test(group) && /\d$/.test(keep)) keep += group;
      else break;
    }
    t = keep;
  }
  const dots = (t.match(/\./g) || []).length;
  const commas = (t.match(/,/g) || []).length;
  let normalized: string;
  if (dots && commas) {
    const dec = t.lastIndexOf('.') > t.lastIndexOf(',') ? '.' : ',';
    const thou = dec === '.' ? ',' : '.';
    normalized = t.split(thou).join('').replace(dec, '.');
  } else if (dots + commas === 0) {
    normalized = t;
  } else {
    const mark = dots ? '.' : ',';
    const count = dots || commas;
    if (count > 1) {
      normalized = t.split(mark).join('');
    } else {
      // `mark` occurs exactly once here, so split() gives exactly two parts.
      const [intPart, frac] = t.split(mark) as [string, string];
      const thousands = frac.length === 3 && intPart !== '0' && intPart.length <= 3;
      normalized = thousands ? intPart + frac : intPart + '.' + frac;
    }
  }
  const n = Number(normalized);
  return Number.isFinite(n) ? n : null;
}

/**
 * Parses the first number in a localized string: '1.234,56 €' -> 1234.56, '$1,234.56' -> 1234.56,
 * '1 234,56 zł' -> 1234.56, 'CHF 1’234.50' -> 1234.5, '5.182 valoraciones' -> 5182,
 * '4,1 de 5 estrellas' -> 4.1, '84.7K' -> 84700, '1,2 mil' -> 1200.
 * `marketplace` is accepted for API symmetry; the separators are decided by the string (see tokenToNumber).
 */
export function parseLocaleNumber(text: string, marketplace?: string): number | null {
  void marketplace;
  return parseNumberText(text, true);
}

function parseNumberText(text: string, allowCompact: boolean): number | null {
  if (!text) return null;
  const s = String(text).replace(/[\u200b-\u200f\ufeff]/g, '');
  const m = NUMBER_TOKEN_RE.exec(s);
  if (!m) return null;
  let token = m[0].replace(/[\s\u00a0\u202f\u2009]+$/, '');
  // A trailing mark belongs to the sentence, not the number ("3.", "12,").
  token = token.replace(/[.,]$/, '');
  const n = tokenToNumber(token);
  if (n === null) return null;
  if (!allowCompact) return n;
  const rest = s.slice(m.index + m[0].length);
  const c = COMPACT_RE.exec(rest);
  return c ? Math.round(n * compactFactor(c[1]!)) : n;
}

/** Integer count ("82,602 ratings", "(84.7K)", "1,2 mil valoraciones", "226 Reviews"). */
export function parseCount(text: string | null | undefined): number | null {
  if (!text) return null;
  const n = parseNumberText(text, true);
  return n === null ? null : Math.round(n);
}

/**
 * Star rating out of 5 from texts like "4.5 out of 5 stars", "4,1 de 5 estrellas",
 * "5つ星のうち4.3", "5 von 5 Sternen". When two numbers are present and one of
 * them is the scale (5), the other one is the rating.
 */
export function parseRating(text: string | null | undefined): number | null {
  if (!text) return null;
  const nums: number[] = [];
  const re = /\d+(?:[.,]\d+)?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && nums.length < 3) {
    const n = Number(m[0].replace(',', '.'));
    if (Number.isFinite(n)) nums.push(n);
  }
  if (nums.length === 0) return null;
  let r = nums[0]!;
  if (nums.length >= 2 && nums[0] === 5 && nums[1]! <= 5 && !/^\s*5\s*(?:out of|von|de|sur|su|van|av|z|na|из)\s/i.test(text)) {
    r = nums[1]!; // "5つ星のうち4.3": scale first
  }
  return r >= 0 && r <= 5 ? r : null;
}

const RANGE_SPLIT_RE = /\s[-–—]\s|\s[-–—]|[-–—]\s/;

/**
 * Parses a displayed price ('EUR 4,79', '39,99€', 'R$ 169,00', '¥1,980', 'CDN$ 154.71').
 * For a range ('EUR 8,99 - EUR 16,99') the lower bound is returned.
 */
export function parseMoney(text: string, marketplace: string): Money | null {
  if (!text) return null;
  const s = String(text)
    .replace(/[\u200b-\u200f\ufeff]/g, '')
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .trim();
  if (!/\d/.test(s)) return null;
  const first = s.split(RANGE_SPLIT_RE)[0]!; // split() never returns an empty array
  const amount = parseNumberText(/\d/.test(first) ? first : s, false);
  if (amount === null) return null;
  const currency = detectCurrency(s, marketplace) ?? currencyForMarketplace(marketplace);
  return { amount: Math.round(amount * 100) / 100, currency };
}
