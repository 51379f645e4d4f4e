/**
 * Counts that Amazon shows as sentences: "10K+ bought in past month" on details pages and
 * search cards, and "New (12) from $9.99" offer-listing links. The number formats differ by
 * marketplace ("1 mil+", "10.000+", "Plus de 1 k", "1000点以上"); parseLocaleNumber reads the
 * digits and the compact multipliers, these functions decide whether a sentence is one of
 * ours and which number in it is the count.
 */
import { parseLocaleNumber } from './numbers';
import { clean } from './text';

/**
 * "In the past month" in the marketplaces' languages. A "past week" figure is another
 * measure, so it is not read as a monthly one.
 */
const PAST_MONTH_RE =
  /past month|last month|letzten monat|vormonat|mois dernier|dernier mois|mes pasado|último mes|ultimo mes|mês passado|último mês|mese scorso|ultimo mese|mese precedente|afgelopen maand|vorige maand|senaste månaden|förra månaden|ostatniego miesiąca|ostatnim miesiącu|zeszłym miesiącu|geçen ay|son bir ay|過去1か月|過去1ヶ月|過去1カ月|先月|上个月|الشهر الماضي/i;

/** A purchase verb, so that "visited in past month"-style lines are not read as sales. */
const BOUGHT_RE =
  /bought|purchased|gekauft|achet|comprad|compras|comprou|acquist|gekocht|köpt|kupion|kupiono|zakupion|satın|購入|شراء|اشتر/i;

/** The period phrase that carries its own digit ("過去1か月で"), removed before the count is read. */
const PERIOD_WITH_DIGIT_RE = /過去\s*1\s*(?:か|ヶ|カ|ケ)?月(?:間)?(?:で|に)?/g;

/**
 * Thousands abbreviations that numbers.ts does not know because they clash elsewhere: Swedish
 * "tn" (tusen), German "Tsd.", Turkish "bin" and, on Turkish pages only, "B" (bin, not billion).
 */
const THOUSAND_WORD_RE = /(\d)\s*(?:tn|tsd\.?|bin)(?=[+\s]|$)/gi;
const TURKISH_THOUSAND_RE = /(\d)\s*B(?=[+\s]|$)/g;
const TURKISH_RE = /geçen ay|satın/i;

function normalizeThousands(t: string): string {
  const s = t.replace(THOUSAND_WORD_RE, '$1K');
  return TURKISH_RE.test(s) ? s.replace(TURKISH_THOUSAND_RE, '$1K') : s;
}

/** True when the text has the wording of a "bought in past month" line (a cheap pre-check). */
export function mentionsPastMonthSales(text: string): boolean {
  return PAST_MONTH_RE.test(text) || BOUGHT_RE.test(text);
}

/**
 * The "bought in past month" figure of a sentence ("10K+ bought in past month" -> 10000,
 * "Mehr als 1.000 Mal im letzten Monat gekauft" -> 1000, "1 mil+ compras no mês passado" ->
 * 1000, "過去1か月で1000点以上購入されました" -> 1000); null when the sentence is not one.
 * Amazon shows a lower bound ("10K+"), which is the number reported.
 */
export function parseBoughtPastMonth(text: string | null | undefined): number | null {
  const t = clean(text);
  if (!t || t.length > 120 || !PAST_MONTH_RE.test(t) || !BOUGHT_RE.test(t)) return null;
  const n = parseLocaleNumber(normalizeThousands(t.replace(PERIOD_WITH_DIGIT_RE, ' ')));
  return n !== null && n > 0 && Number.isInteger(n) ? n : null;
}

/** "New" as offer-listing links say it (singular and plural forms). */
const NEW_WORD_RE =
  /\b(?:new|neu|neue|neuf|neufs|neuve|neuves|nuevo|nuevos|nueva|nuevas|novo|novos|nova|novas|nuovo|nuovi|nuova|nuove|nieuw|nieuwe|nya|ny|nowy|nowe|nowych|yeni)\b|新品|جديد/i;

/** Used, refurbished or collectible offers: a count that includes them is not a count of new offers. */
const NOT_NEW_WORD_RE =
  /used|gebraucht|occasion|segunda mano|usado|usada|usados|usadas|usato|usati|usata|usate|gebruikt|tweedehands|begagnad|używan|ikinci el|kullanılmış|中古|مستعمل|collectible|sammlerstück|de collection|coleccionable|colecionável|da collezione|refurbished|reconditionné|generalüberholt|reacondicionado|ricondizionato|recondicionado/i;

/** True when the text speaks of used, refurbished or collectible offers. */
export function mentionsNotNewOffers(text: string): boolean {
  return NOT_NEW_WORD_RE.test(text);
}

/** Where a line's count of new offers is: "(12)", "(3点)", a leading "14" ("14 neufs"), "新品の出品：3". */
const NEW_COUNT_RES = [/\((\d[\d.,]*)\s*(?:点|件)?\)/, /^(\d[\d.,]*)\s*(?=\D)/, /新品(?:の出品)?\s*[：:]?\s*(\d[\d.,]*)\s*(?:点|件)?/];

/** What an offer-listing line says about the product's new offers. */
export interface NewOffersLine {
  /** The count of new offers; null when the line names none ("New from $9.99"). */
  count: number | null;
  /** The line without its count, where its price is ("New  from $9.99"). */
  rest: string;
}

/**
 * An offer-listing line about new offers only ("New (12) from $9.99", "14 neufs à partir de EUR
 * 9,99", "Neu (3) ab 12,99 €", "Nuevo (3) desde", "Novo (3) a partir de", "新品 (3点) ￥1,980より",
 * "新品の出品：3"); null when the line is not about new offers or also counts used ones ("New &
 * Used (7) from", "Neu und gebraucht (7)").
 */
export function readNewOffersLine(text: string | null | undefined): NewOffersLine | null {
  const t = clean(text);
  if (!t || t.length > 160 || !NEW_WORD_RE.test(t) || NOT_NEW_WORD_RE.test(t)) return null;
  for (const re of NEW_COUNT_RES) {
    const m = re.exec(t);
    if (!m) continue;
    const n = parseLocaleNumber(m[1]!);
    if (n === null || !Number.isInteger(n)) continue;
    return { count: n, rest: t.slice(0, m.index) + ' ' + t.slice(m.index + m[0].length) };
  }
  return { count: null, rest: t };
}

/** The count of new offers in one offer-listing line (readNewOffersLine); null without one. */
export function parseNewOffersCount(text: string | null | undefined): number | null {
  return readNewOffersLine(text)?.count ?? null;
}
