import type { MarketplaceCode } from './marketplaces';

/**
 * Postal codes per marketplace (docs/crawling.md, "Delivery location"): the form a job's
 * `config.postalCode` must have, how it is written once normalised, and how a code is found in
 * the place a page's "Deliver to" block names. A marketplace without a rule takes 3-10 letters,
 * digits, spaces or hyphens.
 */
interface PostalCodeRule {
  /** The whole code as a client may send it, upper-cased and with runs of spaces made one. */
  accept: RegExp;
  /** The code written the one way it is stored and compared. */
  normalise(code: string): string;
  /** A code, whole or its leading part, inside the text of a deliver-to block. */
  find: RegExp;
  /** Shown in the 400's message. */
  example: string;
}

const asIs = (code: string) => code;
const compact = (code: string) => code.replace(/[\s-]/g, '');
/** `12345678` -> `12345-678` for a code whose hyphen sits after `at` digits. */
const hyphenAt = (at: number) => (code: string) => `${compact(code).slice(0, at)}-${compact(code).slice(at)}`;
/** `K1A0B1` -> `K1A 0B1`: a space before the last `tail` characters. */
const spaceBeforeLast = (tail: number) => (code: string) => {
  const c = compact(code);
  return `${c.slice(0, -tail)} ${c.slice(-tail)}`;
};

const digits = (n: number, example: string): PostalCodeRule => ({
  accept: new RegExp(`^\\d{${n}}$`),
  normalise: asIs,
  find: new RegExp(`(?<![\\d])\\d{${n}}(?![\\d])`, 'g'),
  example,
});

const RULES: Partial<Record<MarketplaceCode, PostalCodeRule>> = {
  US: { accept: /^\d{5}(?:-\d{4})?$/, normalise: asIs, find: /(?<!\d)\d{5}(?:-\d{4})?(?!\d)/g, example: '10001 or 10001-1234' },
  // whole postcodes only; a page may show just the outward part ("W12"), which then matches
  UK: {
    accept: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
    normalise: spaceBeforeLast(3),
    find: /(?<![A-Z\d])[A-Z]{1,2}\d[A-Z\d]?(?: \d[A-Z]{0,2})?(?![A-Z\d])/g,
    example: 'SW1A 1AA',
  },
  CA: {
    accept: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/,
    normalise: spaceBeforeLast(3),
    find: /(?<![A-Z\d])[A-Z]\d[A-Z](?: ?\d[A-Z]\d)?(?![A-Z\d])/g,
    example: 'K1A 0B1',
  },
  JP: { accept: /^\d{3}-?\d{4}$/, normalise: hyphenAt(3), find: /(?<!\d)\d{3}-?\d{4}(?!\d)/g, example: '100-0001' },
  BR: { accept: /^\d{5}-?\d{3}$/, normalise: hyphenAt(5), find: /(?<!\d)\d{5}-?\d{3}(?!\d)/g, example: '01310-100' },
  NL: { accept: /^\d{4} ?[A-Z]{2}$/, normalise: spaceBeforeLast(2), find: /(?<!\d)\d{4}(?: ?[A-Z]{2})?(?![A-Z\d])/g, example: '1012 AB' },
  PL: { accept: /^\d{2}-?\d{3}$/, normalise: hyphenAt(2), find: /(?<!\d)\d{2}-\d{3}(?!\d)/g, example: '00-950' },
  SE: { accept: /^\d{3} ?\d{2}$/, normalise: spaceBeforeLast(2), find: /(?<!\d)\d{3} ?\d{2}(?!\d)/g, example: '111 22' },
  IN: digits(6, '110001'),
  SG: digits(6, '018956'),
  AU: digits(4, '2000'),
  BE: digits(4, '1000'),
  DE: digits(5, '10115'),
  FR: digits(5, '75001'),
  IT: digits(5, '00118'),
  ES: digits(5, '28001'),
  MX: digits(5, '06000'),
  TR: digits(5, '34000'),
  SA: digits(5, '11564'),
  EG: digits(5, '11511'),
};

const FALLBACK: PostalCodeRule = {
  accept: /^[A-Z\d][A-Z\d -]{1,8}[A-Z\d]$/,
  normalise: asIs,
  find: /(?<![A-Z\d])\d[A-Z\d-]{2,9}(?![A-Z\d])/g,
  example: '3-10 letters, digits, spaces or hyphens',
};

const ruleOf = (marketplace: MarketplaceCode): PostalCodeRule => RULES[marketplace] ?? FALLBACK;

/** Upper case, invisible marks dropped, runs of whitespace one space, trimmed. */
function tidy(text: string): string {
  return text
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '')
    .replace(/[\s\u00a0\u2007\u202f]+/g, ' ')
    .trim()
    .toUpperCase();
}

export type PostalCodeCheck = { ok: true; postalCode: string } | { ok: false; message: string };

/** A job's postal code for `marketplace`, normalised, or the reason it is not one. */
export function checkPostalCode(marketplace: MarketplaceCode, raw: string): PostalCodeCheck {
  const rule = ruleOf(marketplace);
  const code = tidy(raw);
  if (!rule.accept.test(code))
    return { ok: false, message: `not a postal code of marketplace ${marketplace} (for example ${rule.example})` };
  return { ok: true, postalCode: rule.normalise(code) };
}

/**
 * The postal code a deliver-to place names ("Chicago 60601", "Fulham W12", "〒100-0001"), whole
 * or in part as the page shows it, or null. The last code in the text: place names come first.
 */
export function postalCodeIn(marketplace: MarketplaceCode, place: string): string | null {
  const found = tidy(place).match(ruleOf(marketplace).find);
  return found?.length ? found[found.length - 1]! : null;
}

/**
 * True when the code a page shows is the job's, or its leading part at least up to the job's
 * first space or hyphen (pages show "W12" or "SW1A 1" for a whole UK postcode, five digits for
 * `10001-1234`); case, spaces and hyphens ignored. "W1" is another district than `W12 7RJ`.
 */
export function postalCodeMatches(shown: string, wanted: string): boolean {
  const a = compact(tidy(shown));
  const b = compact(tidy(wanted));
  const head = compact(tidy(wanted).split(/[\s-]/)[0]!);
  return a.length >= Math.max(2, head.length) && b.startsWith(a);
}
