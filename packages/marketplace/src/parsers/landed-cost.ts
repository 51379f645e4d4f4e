/**
 * What a buyer pays and gets beyond the price, read from the texts a page shows them
 * (docs/results.md, "The landed cost"): the shipping charge, the delivery promise with its dates,
 * the unit price, a coupon's value and how many are left. Each reads one text in any marketplace
 * language and gives null when the text does not say it; which element holds the text is the
 * page parsers' business.
 */
import { MARKETPLACES, type MarketplaceCode } from '@crawl/core';
import { parseMoney } from './numbers';
import { clean } from './text';
import type { Money } from './types';

/** "Free" as delivery messages write it, in the marketplaces' languages. */
const FREE_RE = /\b(?:free|kostenlose?r?|gratuite?s?|gratuita|gratis|grátis|gratuito|fri|darmowa|bezpłatna|ücretsiz)\b|無料|مجاني|مجانًا/iu;

/**
 * The charge of a delivery message: 0 for free delivery ("FREE delivery Tuesday", "Livraison
 * GRATUITE", "配送料無料"), else the amount it names ("$5.99 delivery", "Lieferung für 3,99 €");
 * null when it names neither.
 */
export function shippingCharge(text: string, marketplace: MarketplaceCode): Money | null {
  const s = clean(text);
  if (!s) return null;
  const currency = MARKETPLACES[marketplace].currency;
  if (FREE_RE.test(s)) return { amount: 0, currency };
  // the charge comes before any date in the message: take the money of the text up to its first date-like part
  const charge =
    /(?:[$€£¥₹]|R\$|CDN\$|A\$|S\$|zł|kr|TL|₺|SAR|AED|EGP|MXN|\bEUR\b)\s?\d|\d[\d.,\s]*\s?(?:€|zł|kr|TL|₺|ريال|درهم|جنيه)/u.exec(s);
  return charge ? parseMoney(s.slice(Math.max(0, charge.index - 4)), marketplace) : null;
}

/** "($0.45 / Ounce)", "(6,24 € / kg)", "(₹2.50/count)", "(¥12/100 g)": the price per unit. */
export function unitPriceOf(text: string, marketplace: MarketplaceCode): (Money & { unit: string }) | null {
  const m = /([^()/]*\d[^()/]*)\/\s*([^()]+?)\s*\)?\s*$/u.exec(clean(text).replace(/^\(/, ''));
  if (!m) return null;
  const money = parseMoney(m[1]!, marketplace);
  const unit = m[2]!.replace(/\)$/, '').trim();
  return money && /\p{L}/u.test(unit) ? { ...money, unit } : null;
}

/**
 * "Only 3 left in stock", "Nur noch 3 auf Lager", "Il ne reste plus que 3 exemplaire(s) en
 * stock", "Solo 3", "Apenas 3 em estoque", "残り3点", "Nog maar 3 op voorraad", "Endast 3 kvar",
 * "Zostało tylko 3 szt.", "Stokta sadece 3 adet kaldı", "متبقي 3 فقط": how many are left.
 */
const LEFT_RE = new RegExp(
  [
    String.raw`only (\d+) left`,
    String.raw`nur noch (\d+)`,
    String.raw`plus que (\d+)`,
    String.raw`(?:^|\s)solo (?:quedan )?(\d+)`,
    String.raw`(?:^|\s)sólo (?:quedan )?(\d+)`,
    String.raw`(?:^|\s)apenas (\d+)`,
    String.raw`残り(\d+)`,
    String.raw`nog (?:maar )?(\d+)`,
    String.raw`(?:^|\s)endast (\d+)`,
    String.raw`(?:^|\s)bara (\d+)`,
    String.raw`tylko (\d+)`,
    String.raw`sadece (\d+)`,
    String.raw`متبقي (\d+)`,
    String.raw`(?:^|\s)(\d+) left in stock`,
  ].join('|'),
  'iu',
);

export function stockQuantityOf(text: string): number | null {
  const m = LEFT_RE.exec(clean(text));
  if (!m) return null;
  const n = Number(m.slice(1).find((g) => g !== undefined));
  return Number.isInteger(n) && n > 0 ? n : null;
}

export interface CouponValue {
  type: 'percent' | 'amount';
  value: number;
}

/** "Save 20%", "Apply $5 coupon", "5 % Rabatt", "Économisez 10 €", "10%OFF": the coupon's value. */
export function couponValueOf(text: string, marketplace: MarketplaceCode): CouponValue | null {
  const s = clean(text);
  const percent = /(\d+(?:[.,]\d+)?)\s?%/.exec(s);
  if (percent) {
    const value = Number(percent[1]!.replace(',', '.'));
    return value > 0 && value <= 100 ? { type: 'percent', value } : null;
  }
  const money = /\d/.test(s) ? parseMoney(s, marketplace) : null;
  return money && money.amount > 0 ? { type: 'amount', value: money.amount } : null;
}

export interface DeliveryPromise {
  /** The date part as the page shows it ("Tuesday, December 9", "Dec 9 - 12"). */
  text: string;
  /** ISO dates, resolved against when the page was fetched. */
  earliest: string | null;
  latest: string | null;
}

interface MonthWords {
  /** Lower-case month names and abbreviations (with and without their dot) -> 0..11. */
  byName: Map<string, number>;
  pattern: RegExp;
}

const monthWordsCache = new Map<string, MonthWords>();

/**
 * The month names of a language as its dates write them, from the runtime's own locale data
 * (long, short, and the forms used next to a day number, such as Polish "grudnia").
 */
function monthWords(lang: string): MonthWords {
  const cached = monthWordsCache.get(lang);
  if (cached) return cached;
  const byName = new Map<string, number>();
  const add = (name: string, month: number) => {
    const word = name
      .toLowerCase()
      .replace(/[.\u200f\u200e]/g, '')
      .trim();
    if (word && !/\d/.test(word)) byName.set(word, month);
  };
  for (let month = 0; month < 12; month++) {
    const date = new Date(Date.UTC(2026, month, 9));
    for (const style of ['long', 'short'] as const) {
      add(new Intl.DateTimeFormat(lang, { month: style, timeZone: 'UTC' }).format(date), month);
      for (const part of new Intl.DateTimeFormat(lang, { month: style, day: 'numeric', timeZone: 'UTC' }).formatToParts(date))
        if (part.type === 'month') add(part.value, month);
    }
    // English pages abbreviate September as "Sept" as well as "Sep"
    if (lang.startsWith('en') && month === 8) add('sept', 8);
  }
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // a language whose months are numbers (Japanese "12月") has no month words: the pattern matches nothing
  const words = { byName, pattern: new RegExp(names.length ? `(${names.join('|')})\\.?` : '(?!)()', 'giu') };
  monthWordsCache.set(lang, words);
  return words;
}

interface DayMonth {
  day: number;
  month: number | null;
  at: number;
  end: number;
}

/** Day numbers and month names in order of appearance, a month attached to its nearest day. */
function dayMonthsIn(s: string, lang: string): DayMonth[] {
  const numeric = /^ja|^zh/.test(lang) ? /(\d{1,2})月(\d{1,2})日/gu : null;
  if (numeric)
    return [...s.matchAll(numeric)].map((m) => ({ day: Number(m[2]), month: Number(m[1]) - 1, at: m.index!, end: m.index! + m[0].length }));
  const months = [...s.matchAll(monthWords(lang).pattern)].map((m) => ({
    month: monthWords(lang).byName.get(m[1]!.toLowerCase().replace(/\./g, ''))!,
    at: m.index!,
    end: m.index! + m[0].length,
  }));
  const days = [...s.matchAll(/(?<![\d:.,])(\d{1,2})(?:\.|º|er)?(?![\d:,]|\.\d)/gu)]
    .map((m) => ({ day: Number(m[1]), at: m.index!, end: m.index! + m[0].length }))
    .filter((d) => d.day >= 1 && d.day <= 31);
  return days.map((d) => {
    let best: { month: number; distance: number } | null = null;
    for (const m of months) {
      const distance = m.at >= d.end ? m.at - d.end : d.at - m.end;
      if (distance >= 0 && distance <= 5 && (!best || distance < best.distance)) best = { month: m.month, distance };
    }
    return { day: d.day, month: best?.month ?? null, at: d.at, end: d.end };
  });
}

/** What joins the two dates of a range, with at most a month and a weekday between: "-" (not a word's hyphen), "to", "au", "bis", "a", "から", ... */
const RANGE_JOIN =
  /^[^\d]{0,24}?(?:(?<!\p{L})[-–—~〜](?!\p{L})|\b(?:to|and|au|et|bis|und|al|a|y|e|tot|en|do|ile|till|och)\b|から|至)[^\d]{0,24}$/iu;

/** The date `day`/`month` falls on next, from `from` (a promise never lies more than a month back). */
function resolve(day: number, month: number, from: Date): string {
  let year = from.getUTCFullYear();
  if (month < from.getUTCMonth() - 1 || (from.getUTCMonth() === 11 && month === 0)) year += 1;
  if (from.getUTCMonth() === 0 && month === 11) year -= 1;
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The dates of a delivery message ("FREE delivery Tuesday, December 9", "Arrives Dec 9 - 12",
 * "Lieferung Dienstag, 9. Dezember", "livraison entre le 9 et le 12 décembre", "12月9日 - 12日"),
 * resolved against the fetch time; null when the message names no date.
 */
export function deliveryPromiseOf(text: string, fetchedAt: Date, marketplace: MarketplaceCode): DeliveryPromise | null {
  const s = clean(text);
  const lang = MARKETPLACES[marketplace].lang;
  const found = dayMonthsIn(s, lang);
  if (!found.length) return relativeDay(s, fetchedAt, lang);
  // a day without its own month takes the month of the next day that has one ("9 - 12 Dec"), or of the one before ("Dec 9 - 12")
  const months = found.map(
    (d, i) =>
      d.month ??
      found.slice(i + 1).find((n) => n.month !== null)?.month ??
      found
        .slice(0, i)
        .reverse()
        .find((n) => n.month !== null)?.month ??
      null,
  );
  const dated = found.map((d, i) => ({ ...d, month: months[i] })).filter((d): d is DayMonth & { month: number } => d.month !== null);
  if (!dated.length) return null;
  const first = dated[0]!;
  // a second date is the range's end only when a range word joins them ("9 - 12", "9 au 12",
  // "9. bis 12."): "vendredi 26 avr. Commandez-le dans les 8 h" is one date, then a countdown
  const second = dated[1];
  const last = second && RANGE_JOIN.test(s.slice(first.end, second.at)) ? second : first;
  const earliest = resolve(first.day, first.month, fetchedAt);
  let latest = resolve(last.day, last.month, new Date(`${earliest}T00:00:00Z`));
  if (latest < earliest) latest = earliest;
  const start = startOfDate(s, lang, found[0]!.at);
  const end = Math.max(last.end, ...monthEnds(s, lang, last.end));
  return { text: shownDate(s, start, end), earliest, latest };
}

/** Where the date that has its first day at `at` begins: a month word just before it, and a weekday before that. */
function startOfDate(s: string, lang: string, at: number): number {
  let start = at;
  const before = s.slice(Math.max(0, at - 20), at);
  const month = new RegExp(`${monthWords(lang).pattern.source}\\s?$`, 'iu').exec(before);
  if (month) start = at - before.length + month.index;
  const weekday = weekdayAt(s.slice(0, start), lang);
  return weekday ?? start;
}

function monthEnds(s: string, lang: string, end: number): number[] {
  const after = s.slice(end, end + 20);
  const m = new RegExp(`^\\s?(?:de\\s)?${monthWords(lang).pattern.source}`, 'iu').exec(after);
  return m ? [end + m[0].length] : [];
}

/** A day named without its date, in a language: its words, and how many days after the fetch it is. */
interface DayWord {
  word: string;
  daysAfter: (fetchedAt: Date) => number;
}
const dayWordCache = new Map<string, { re: RegExp; words: Map<string, DayWord> }>();

/**
 * "today", "tomorrow" and the weekdays' full names in `lang` (Intl's words, so every
 * marketplace language): a weekday is the next one after the fetch day (the fetch day itself
 * would say "today").
 */
function dayWords(lang: string): { re: RegExp; words: Map<string, DayWord> } {
  let cached = dayWordCache.get(lang);
  if (cached) return cached;
  const words = new Map<string, DayWord>();
  const relative = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const n of [0, 1]) {
    const word = relative.format(n, 'day').toLowerCase();
    if (!/\d/.test(word)) words.set(word, { word, daysAfter: () => n });
  }
  for (let d = 0; d < 7; d++) {
    const word = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' })
      .format(new Date(Date.UTC(2026, 0, 4 + d)))
      .toLowerCase();
    words.set(word, { word, daysAfter: (at) => ((d - at.getUTCDay() + 6) % 7) + 1 });
  }
  const alternatives = [...words.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  cached = { re: new RegExp(`(?<!\\p{L})(?:${alternatives.join('|')})(?!\\p{L})`, 'iu'), words };
  dayWordCache.set(lang, cached);
  return cached;
}

/** A message that names a day but no date ("FREE delivery: Thursday", "Arrives tomorrow"): that day, after the fetch. */
function relativeDay(s: string, fetchedAt: Date, lang: string): DeliveryPromise | null {
  const { re, words } = dayWords(lang);
  const m = re.exec(s);
  const day = m ? words.get(m[0].toLowerCase()) : undefined;
  if (!m || !day) return null;
  const at = new Date(Date.UTC(fetchedAt.getUTCFullYear(), fetchedAt.getUTCMonth(), fetchedAt.getUTCDate() + day.daysAfter(fetchedAt)));
  const iso = at.toISOString().slice(0, 10);
  return { text: m[0], earliest: iso, latest: iso };
}

const weekdayCache = new Map<string, RegExp>();

/** Where the last weekday name in `s` starts ("Tuesday, " before "December 9"), or null. */
function weekdayAt(s: string, lang: string): number | null {
  let re = weekdayCache.get(lang);
  if (!re) {
    const names = new Set<string>();
    for (let d = 0; d < 7; d++) {
      const date = new Date(Date.UTC(2026, 0, 4 + d));
      for (const style of ['long', 'short'] as const)
        names.add(new Intl.DateTimeFormat(lang, { weekday: style, timeZone: 'UTC' }).format(date).toLowerCase().replace(/\./g, ''));
    }
    const alternatives = [...names].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    re = new RegExp(`(?:${alternatives.join('|')})\\.?,?\\s*(?:de\\s)?$`, 'iu');
    weekdayCache.set(lang, re);
  }
  const m = re.exec(s);
  return m ? m.index : null;
}

function shownDate(s: string, start: number, end: number): string {
  return s
    .slice(start, end)
    .replace(/^[\s,:\-–]+|[\s,:\-–.]+$/g, '')
    .trim();
}
