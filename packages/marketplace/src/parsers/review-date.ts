/**
 * Localized review date lines -> ISO date and country:
 *   "Reviewed in the United States on January 6, 2024"  -> 2024-01-06, "United States"
 *   "Recensito in Italia il 12 novembre 2018"            -> 2018-11-12, "Italia"
 *   "Rezension aus Deutschland vom 5. März 2023"         -> 2023-03-05, "Deutschland"
 *   "2023年6月3日に日本でレビュー済み"                      -> 2023-06-03, "日本"
 *   "14 novembre 2018" (2019 layout, no country)         -> 2018-11-14, null
 * The month is found by name in any supported language, so the parser needs no locale and
 * handles a page that mixes languages (review pages list reviews from other countries).
 */

const MONTH_NAMES: Record<number, string[]> = {
  1: [
    'january',
    'jan',
    'januar',
    'janvier',
    'janv',
    'gennaio',
    'enero',
    'janeiro',
    'januari',
    'stycznia',
    'styczen',
    'ocak',
    'يناير',
    'جانفي',
    'كانون الثاني',
  ],
  2: [
    'february',
    'feb',
    'februar',
    'fevrier',
    'fevr',
    'febbraio',
    'febrero',
    'fevereiro',
    'februari',
    'lutego',
    'luty',
    'subat',
    'فبراير',
    'فيفري',
    'شباط',
  ],
  3: ['march', 'mar', 'marz', 'maerz', 'mars', 'marzo', 'marco', 'maart', 'marca', 'marzec', 'mart', 'مارس', 'آذار'],
  4: ['april', 'apr', 'avril', 'avr', 'aprile', 'abril', 'kwietnia', 'kwiecien', 'nisan', 'أبريل', 'ابريل', 'أفريل', 'نيسان'],
  5: ['may', 'mai', 'maggio', 'mayo', 'maio', 'mei', 'maj', 'maja', 'mayis', 'مايو', 'ماي', 'أيار'],
  6: ['june', 'jun', 'juni', 'juin', 'giugno', 'junio', 'junho', 'czerwca', 'czerwiec', 'haziran', 'يونيو', 'جوان', 'حزيران'],
  7: ['july', 'jul', 'juli', 'juillet', 'juil', 'luglio', 'julio', 'julho', 'lipca', 'lipiec', 'temmuz', 'يوليو', 'جويلية', 'تموز'],
  8: ['august', 'aug', 'aout', 'agosto', 'augustus', 'augusti', 'sierpnia', 'sierpien', 'agustos', 'أغسطس', 'اغسطس', 'أوت', 'آب'],
  9: [
    'september',
    'sep',
    'sept',
    'septembre',
    'settembre',
    'septiembre',
    'setiembre',
    'setembro',
    'wrzesnia',
    'wrzesien',
    'eylul',
    'سبتمبر',
    'سپتمبر',
    'أيلول',
  ],
  10: [
    'october',
    'oct',
    'oktober',
    'okt',
    'octobre',
    'ottobre',
    'octubre',
    'outubro',
    'pazdziernika',
    'pazdziernik',
    'ekim',
    'أكتوبر',
    'اكتوبر',
    'تشرين الأول',
  ],
  11: ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopad', 'kasim', 'نوفمبر', 'تشرين الثاني'],
  12: [
    'december',
    'dec',
    'dezember',
    'dez',
    'decembre',
    'dicembre',
    'diciembre',
    'dezembro',
    'grudnia',
    'grudzien',
    'aralik',
    'ديسمبر',
    'دجنبر',
    'كانون الأول',
  ],
};

/** Arabic-Indic, Persian and full-width digits as ASCII digits (amazon.ae/.sa/.eg, amazon.co.jp). */
export function asciiDigits(s: string): string {
  return s
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) - 0xff10))
    .replace(/\u066b/g, '.') // Arabic decimal separator
    .replace(/\u066c/g, ','); // Arabic thousands separator
}

/** Lowercase, no diacritics, Turkish dotless i and Polish ł folded, ASCII digits. */
function fold(s: string): string {
  return asciiDigits(
    s
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/ı/g, 'i')
      .replace(/ł/g, 'l'),
  );
}

/** Single-word month names by folded spelling; multi-word (Levantine Arabic) names kept apart. */
const MONTH_BY_WORD = new Map<string, number>();
const MULTI_WORD_MONTHS: [string, number][] = [];
for (const [month, names] of Object.entries(MONTH_NAMES)) {
  for (const name of names) {
    const folded = fold(name);
    if (folded.includes(' ')) MULTI_WORD_MONTHS.push([folded, Number(month)]);
    else MONTH_BY_WORD.set(folded, Number(month));
  }
}

/** Languages whose own month words a caller can name (the language of a label, not of the marketplace). */
export type DateLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'sv' | 'pl' | 'tr';

/**
 * Short month words, January first, that are only months in their own language: Portuguese
 * "set." and "out." are September and October, words that in other languages are none.
 */
const SHORT_MONTHS: Record<DateLanguage, readonly string[]> = {
  en: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  de: ['jan', 'feb', 'mär', 'apr', 'mai', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dez'],
  fr: ['janv', 'févr', 'mars', 'avr', 'mai', 'juin', 'juil', 'août', 'sept', 'oct', 'nov', 'déc'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
  it: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
  pt: ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'],
  nl: ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
  sv: ['jan', 'feb', 'mar', 'apr', 'maj', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
  pl: ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paz', 'lis', 'gru'],
  tr: ['oca', 'sub', 'mar', 'nis', 'may', 'haz', 'tem', 'agu', 'eyl', 'eki', 'kas', 'ara'],
};
const SHORT_MONTH_BY_WORD = new Map<DateLanguage, Map<string, number>>(
  Object.entries(SHORT_MONTHS).map(([lang, words]) => [lang as DateLanguage, new Map(words.map((w, i) => [fold(w), i + 1]))]),
);
/** Languages that write a numeric date day first ("27/11/2020"); English is left out (the US writes month first). */
const DAY_FIRST: ReadonlySet<DateLanguage> = new Set(['de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'tr']);

function iso(year: number, month: number, day: number): string | null {
  if (year < 1995 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1) return null; // 31 June and the like
  return d.toISOString().slice(0, 10);
}

interface DateMatch {
  date: string;
  start: number;
  end: number;
}

/** "2023年6月3日", "2023년 6월 3일", "2023/06/03", "2023-06-03". */
const YMD_RE = /(\d{4})\s*(?:年|년|[./-])\s*(\d{1,2})\s*(?:月|월|[./-])\s*(\d{1,2})\s*(?:日|일)?/;
/** "03.06.2023" (day first: the only numeric order Amazon's European locales use). */
const DMY_DOTTED_RE = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/;
const WORD_RE = /\p{L}+/gu;

const DMY_SLASHED_RE = /(?<!\d)(\d{1,2})\/(\d{1,2})\/(\d{4})(?!\d)/;

function findNumericDate(s: string, lang?: DateLanguage): DateMatch | null {
  const ymd = YMD_RE.exec(s);
  if (ymd) {
    const date = iso(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
    if (date) return { date, start: ymd.index, end: ymd.index + ymd[0].length };
  }
  const dmy = DMY_DOTTED_RE.exec(s) ?? (lang && DAY_FIRST.has(lang) ? DMY_SLASHED_RE.exec(s) : null);
  if (dmy) {
    const date = iso(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]));
    if (date) return { date, start: dmy.index, end: dmy.index + dmy[0].length };
  }
  return null;
}

function findMonth(s: string, lang?: DateLanguage): { month: number; start: number; end: number } | null {
  for (const [name, month] of MULTI_WORD_MONTHS) {
    const at = s.indexOf(name);
    if (at >= 0) return { month, start: at, end: at + name.length };
  }
  const short = lang ? SHORT_MONTH_BY_WORD.get(lang) : undefined;
  for (const m of s.matchAll(WORD_RE)) {
    const month = short?.get(m[0]) ?? MONTH_BY_WORD.get(m[0]);
    if (month) return { month, start: m.index!, end: m.index! + m[0].length };
  }
  return null;
}

const YEAR_RE = /(?<!\d)(\d{4})(?!\d)/;

/** Day and year around a month name: "January 6, 2024", "5. März 2023", "3 de junio de 2023", "1er juin 2023". */
function findNamedDate(s: string, lang?: DateLanguage): DateMatch | null {
  const month = findMonth(s, lang);
  if (!month) return null;
  const yearAfter = YEAR_RE.exec(s.slice(month.end));
  const yearBefore = yearAfter ? null : YEAR_RE.exec(s.slice(0, month.start));
  const year = yearAfter ?? yearBefore;
  if (!year) return null;
  const yearEnd = yearAfter ? month.end + yearAfter.index + yearAfter[0].length : month.end;
  // The day is the 1-2 digit number right before the month ("12 novembre", "3 de junio"), else right after it ("January 6").
  const before = /(?<!\d)(\d{1,2})(?:er|st|nd|rd|th|º|ª|\.)?(?:\s|de|del)*$/.exec(s.slice(Math.max(0, month.start - 12), month.start));
  const after = before ? null : /^\s*(\d{1,2})(?!\d)/.exec(s.slice(month.end));
  const dayText = before?.[1] ?? after?.[1];
  if (!dayText) return null;
  const date = iso(Number(year[1]), month.month, Number(dayText));
  if (!date) return null;
  return { date, start: before ? month.start - before[0].length : month.start, end: yearEnd };
}

/** Words that join "Reviewed in <country>" to the date ("on", "il", "vom", "le", "el", "em", "op", "den", "dnia", "في"). */
const TRAILING_JOINERS = /(?:\s+|^)(?:on|il|l'|lo|vom|am|le|el|em|op|den|dnia|في|の)\s*$/iu;
/** "Reviewed in", "Recensito negli", "Rezension aus", "Commenté aux", "Avaliado no", "Oceniono w", "تمت المراجعة في". */
const LEADING_PHRASE = /^.*?(?:\s|^)(?:in|en|aus|au|aux|i|w|we|no|nos|na|nas|em|negli|nel|nella|nei|nell'|in der|im|في)\s+/iu;
const LEADING_ARTICLE = /^(?:the|den|dem|der|die|de|los|las|la|le|les|l'|het|o|a|os|as)\s+/iu;

function countryBefore(prefix: string): string | null {
  let s = prefix.trim();
  // "Türkiye'de 3 Haziran 2023 tarihinde değerlendirildi": locative suffix on the country.
  const turkish = /^(.+?)['’](?:de|da|te|ta)$/u.exec(s);
  if (turkish) return turkish[1]!.trim() || null;
  s = s.replace(TRAILING_JOINERS, '').trim();
  if (!s) return null;
  const lead = LEADING_PHRASE.exec(s);
  if (!lead) return null; // a bare connector ("am") or an unknown phrase: no country named
  // Some locales add the country's flag emoji ("Deutschland 🇩🇪").
  s = s
    .slice(lead[0].length)
    .replace(LEADING_ARTICLE, '')
    .replace(/[\u{1F1E6}-\u{1F1FF}]/gu, '')
    .trim();
  return s || null;
}

/** "に日本でレビュー済み" after a Japanese date. */
function countryAfter(suffix: string): string | null {
  const ja = /^\s*に\s*(.+?)\s*で/.exec(suffix);
  return ja ? ja[1]!.trim() || null : null;
}

export interface ReviewDate {
  date: string | null;
  country: string | null;
}

/**
 * `lang` is the language the text is written in when the caller knows it (a product-details
 * label's, docs/parsing.md): its short month words and its numeric order then count too.
 */
export function parseReviewDate(text: string | null | undefined, lang?: DateLanguage): ReviewDate {
  const raw = (text ?? '')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
  if (!raw) return { date: null, country: null };
  // Dates are found on the folded text; the country is cut from the raw text at the same place.
  const folded = fold(raw);
  const match = findNumericDate(folded, lang) ?? findNamedDate(folded, lang);
  if (!match) return { date: null, country: null };
  const rawPrefix = sliceRawByFolded(raw, match.start);
  const country = countryBefore(rawPrefix) ?? countryAfter(raw.slice(rawIndexOfFolded(raw, match.end)));
  return { date: match.date, country };
}

/** Index in `raw` that corresponds to index `at` of fold(raw) (folding may shorten accented letters). */
function rawIndexOfFolded(raw: string, at: number): number {
  let consumed = 0;
  for (let i = 0; i < raw.length; i++) {
    if (consumed >= at) return i;
    consumed += fold(raw[i]!).length;
  }
  return raw.length;
}

function sliceRawByFolded(raw: string, at: number): string {
  return raw.slice(0, rawIndexOfFolded(raw, at));
}
