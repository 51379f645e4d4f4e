/**
 * How a marketplace writes what the generated pages show: its currency in its locale's format
 * ("$1,234.56", "1.234,56 €", "￥1,999"), dates in its language ("5. März 2023"), and the page
 * texts the parsers read (stock lines, "4,5 von 5 Sternen", review date lines, "FREE Shipping").
 * Texts exist in English, German, French, Italian, Spanish and Japanese; the other marketplaces
 * get English texts with their own currency, number and date formats, as Amazon's English UI
 * on those marketplaces shows them. Formats come from Intl (Node's full ICU), so they are
 * stable for a Node version.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DE, EN, ES, FR, IT, JA, type PageTexts } from './locale-texts';
import { marketplaceOrigin } from './marketplace-hosts';

export type { PageTexts } from './locale-texts';

interface MarketDef {
  /** BCP 47 locale for Intl. */
  intl: string;
  currency: string;
  /** As the review date line names it ("the United States", "Deutschland"). */
  country: string;
  texts: PageTexts;
  /** Amazon's own retail seller on that marketplace. */
  amazonSeller: { name: string; id: string };
  /** US dollars -> this currency, so a product costs about the same everywhere. */
  perDollar: number;
}

const MARKETS: Record<string, MarketDef> = {
  US: {
    intl: 'en-US',
    currency: 'USD',
    country: 'the United States',
    texts: EN,
    amazonSeller: { name: 'Amazon.com', id: 'ATVPDKIKX0DER' },
    perDollar: 1,
  },
  UK: {
    intl: 'en-GB',
    currency: 'GBP',
    country: 'the United Kingdom',
    texts: EN,
    amazonSeller: { name: 'Amazon', id: 'A3P5ROKL5A1OLE' },
    perDollar: 0.8,
  },
  DE: {
    intl: 'de-DE',
    currency: 'EUR',
    country: 'Deutschland',
    texts: DE,
    amazonSeller: { name: 'Amazon.de', id: 'A3JWKAKR8XB7XF' },
    perDollar: 0.92,
  },
  FR: {
    intl: 'fr-FR',
    currency: 'EUR',
    country: 'France',
    texts: FR,
    amazonSeller: { name: 'Amazon.fr', id: 'A1X6FK5RDHNB96' },
    perDollar: 0.92,
  },
  IT: {
    intl: 'it-IT',
    currency: 'EUR',
    country: 'Italia',
    texts: IT,
    amazonSeller: { name: 'Amazon.it', id: 'A11IL2PNWYJU7H' },
    perDollar: 0.92,
  },
  ES: {
    intl: 'es-ES',
    currency: 'EUR',
    country: 'España',
    texts: ES,
    amazonSeller: { name: 'Amazon.es', id: 'A1AT7YVPFBWXBL' },
    perDollar: 0.92,
  },
  CA: {
    intl: 'en-CA',
    currency: 'CAD',
    country: 'Canada',
    texts: EN,
    amazonSeller: { name: 'Amazon.ca', id: 'A3DWYIK6Y9EEQB' },
    perDollar: 1.35,
  },
  MX: {
    intl: 'es-MX',
    currency: 'MXN',
    country: 'México',
    texts: ES,
    amazonSeller: { name: 'Amazon México', id: 'AVDBXBAVVSXLQ' },
    perDollar: 17,
  },
  BR: {
    intl: 'pt-BR',
    currency: 'BRL',
    country: 'Brazil',
    texts: EN,
    amazonSeller: { name: 'Amazon.com.br', id: 'A1ZZFT5FULY4LN' },
    perDollar: 5,
  },
  JP: {
    intl: 'ja-JP',
    currency: 'JPY',
    country: '日本',
    texts: JA,
    amazonSeller: { name: 'Amazon.co.jp', id: 'AN1VRQENFRJN5' },
    perDollar: 150,
  },
  IN: {
    intl: 'en-IN',
    currency: 'INR',
    country: 'India',
    texts: EN,
    amazonSeller: { name: 'Amazon.in', id: 'AT95IG9ONZD7S' },
    perDollar: 83,
  },
  AU: {
    intl: 'en-AU',
    currency: 'AUD',
    country: 'Australia',
    texts: EN,
    amazonSeller: { name: 'Amazon AU', id: 'ANEGB3WVEVKZB' },
    perDollar: 1.5,
  },
  NL: {
    intl: 'nl-NL',
    currency: 'EUR',
    country: 'Nederland',
    texts: EN,
    amazonSeller: { name: 'Amazon.nl', id: 'A17D2BRD4YMT0X' },
    perDollar: 0.92,
  },
  SE: {
    intl: 'sv-SE',
    currency: 'SEK',
    country: 'Sverige',
    texts: EN,
    amazonSeller: { name: 'Amazon.se', id: 'ANU9KP01APNAG' },
    perDollar: 10.5,
  },
  PL: {
    intl: 'pl-PL',
    currency: 'PLN',
    country: 'Polska',
    texts: EN,
    amazonSeller: { name: 'Amazon.pl', id: 'A3WKEDD3TPAHCW' },
    perDollar: 4,
  },
  TR: {
    intl: 'tr-TR',
    currency: 'TRY',
    country: 'Türkiye',
    texts: EN,
    amazonSeller: { name: 'Amazon.com.tr', id: 'A1UNQM1SR2CHM' },
    perDollar: 32,
  },
  AE: {
    intl: 'en-AE',
    currency: 'AED',
    country: 'the United Arab Emirates',
    texts: EN,
    amazonSeller: { name: 'Amazon.ae', id: 'A2KKU8J8O8784X' },
    perDollar: 3.67,
  },
  SA: {
    intl: 'en-SA',
    currency: 'SAR',
    country: 'Saudi Arabia',
    texts: EN,
    amazonSeller: { name: 'Amazon.sa', id: 'A2XPWB6MYN7ZDK' },
    perDollar: 3.75,
  },
  SG: {
    intl: 'en-SG',
    currency: 'SGD',
    country: 'Singapore',
    texts: EN,
    amazonSeller: { name: 'Amazon.sg', id: 'ALN2BDR2I5WRL' },
    perDollar: 1.35,
  },
  BE: {
    intl: 'fr-BE',
    currency: 'EUR',
    country: 'Belgique',
    texts: FR,
    amazonSeller: { name: 'Amazon.com.be', id: 'A3Q3FYJVX702M2' },
    perDollar: 0.92,
  },
  EG: {
    intl: 'en-EG',
    currency: 'EGP',
    country: 'Egypt',
    texts: EN,
    amazonSeller: { name: 'Amazon.eg', id: 'A1ZVRGNO5AYLOV' },
    perDollar: 48,
  },
};

/** A formatted price and its parts, as Amazon's `.a-price` markup splits it. */
export interface PriceParts {
  /** The whole text ("1.234,56 €"), what `.a-offscreen` holds. */
  text: string;
  symbol: string;
  /** "1.234" */
  whole: string;
  /** "," or "." ('' for a currency without minor units). */
  decimal: string;
  fraction: string;
  symbolFirst: boolean;
}

export class MarketLocale {
  readonly code: string;
  readonly intl: string;
  readonly currency: string;
  readonly country: string;
  readonly texts: PageTexts;
  readonly amazonSeller: { name: string; id: string };
  /** The marketplace's origin ("https://www.amazon.de"): generated pages link there. */
  readonly origin: string;
  /** Minor units of the currency (2, 0 for JPY). */
  readonly digits: number;
  private readonly perDollar: number;
  private readonly money: Intl.NumberFormat;
  private readonly count: Intl.NumberFormat;
  private readonly rating: Intl.NumberFormat;
  private readonly date: Intl.DateTimeFormat;

  constructor(code: string) {
    const def = MARKETS[code] ?? MARKETS.US!;
    this.code = MARKETS[code] ? code : 'US';
    this.intl = def.intl;
    this.currency = def.currency;
    this.country = def.country;
    this.texts = def.texts;
    this.amazonSeller = def.amazonSeller;
    this.perDollar = def.perDollar;
    this.origin = marketplaceOrigin(this.code);
    this.money = new Intl.NumberFormat(def.intl, { style: 'currency', currency: def.currency });
    this.digits = this.money.resolvedOptions().maximumFractionDigits ?? 2;
    this.count = new Intl.NumberFormat(def.intl, { maximumFractionDigits: 0 });
    this.rating = new Intl.NumberFormat(def.intl, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    this.date = new Intl.DateTimeFormat(def.intl, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  }

  /** "Amazon.com", "Amazon.de": the site name in page titles. */
  get siteName(): string {
    return this.origin.replace('https://www.amazon', 'Amazon');
  }

  /** `<html lang>` as Amazon writes it ("de-de"). */
  get htmlLang(): string {
    return this.intl.toLowerCase();
  }

  /**
   * A US-cent amount in this marketplace's minor units, ending the way prices do there
   * (.99/.49/.95... in decimal currencies, a multiple of 10 minus 0 or 2 in yen).
   */
  fromUsCents(usCents: number, ending: number): number {
    const major = Math.max(1, Math.floor((usCents / 100) * this.perDollar));
    if (this.digits === 0) return Math.max(10, Math.round(major / 10) * 10 - (ending % 2 ? 2 : 0));
    return major * 100 + [99, 49, 95, 0, 89, 79, 29, 19][ending % 8]!;
  }

  /** A US-cent amount as this marketplace's minor units, unrounded to its endings (the identity on US). */
  convertUsCents(usCents: number): number {
    return this.digits === 0 ? Math.max(1, Math.round((usCents / 100) * this.perDollar)) : Math.round(usCents * this.perDollar);
  }

  /** Minor units -> "1.234,56 €" and its parts. */
  price(minor: number): PriceParts {
    const parts = this.money.formatToParts(minor / 10 ** this.digits);
    let whole = '';
    let decimal = '';
    let fraction = '';
    let symbol = '';
    let symbolFirst = false;
    for (const p of parts) {
      if (p.type === 'integer' || p.type === 'group') whole += p.value;
      else if (p.type === 'decimal') decimal = p.value;
      else if (p.type === 'fraction') fraction = p.value;
      else if (p.type === 'currency') {
        symbol = p.value;
        symbolFirst = whole === '';
      }
    }
    return { text: parts.map((p) => p.value).join(''), symbol, whole, decimal, fraction, symbolFirst };
  }

  /** 12345 -> "12,345" / "12.345". */
  countText(n: number): string {
    return this.count.format(n);
  }

  /** 4.5 -> "4.5" / "4,5" (one decimal, as Amazon shows ratings). */
  ratingText(r: number): string {
    return this.rating.format(r);
  }

  /** An ISO date (yyyy-mm-dd) in the marketplace's long form ("January 6, 2024", "6. Januar 2024"). */
  dateText(iso: string): string {
    return this.date.format(new Date(`${iso}T00:00:00Z`));
  }
}

const LOCALES = new Map<string, MarketLocale>();

/** The locale of a marketplace code; an unknown code is US. Built once per code. */
export function marketLocale(code: string): MarketLocale {
  const key = MARKETS[code.toUpperCase()] ? code.toUpperCase() : 'US';
  let locale = LOCALES.get(key);
  if (!locale) {
    locale = new MarketLocale(key);
    LOCALES.set(key, locale);
  }
  return locale;
}

const REGION_ALIASES: Record<string, string> = { GB: 'UK' };
const LANGUAGE_MARKETS: Record<string, string> = {
  de: 'DE',
  fr: 'FR',
  it: 'IT',
  es: 'ES',
  ja: 'JP',
  pt: 'BR',
  nl: 'NL',
  sv: 'SE',
  pl: 'PL',
  tr: 'TR',
  ar: 'SA',
};

/**
 * The marketplace a request is for. Under `pnpm start:sim` every marketplace's origin is the
 * simulator, so the host says nothing; the crawler sends the marketplace's language as
 * `Accept-Language` (`de-DE,de;q=0.9,en;q=0.8`), and `language=` when a job names a display
 * language. The region of the first of those picks the marketplace, else its language; US otherwise.
 */
export function requestMarketplace(query: URLSearchParams, headers: IncomingHttpHeaders): string {
  const locale = query.get('language') ?? headers['accept-language']?.split(',')[0]?.split(';')[0] ?? '';
  const [lang, region] = locale.trim().split(/[-_]/);
  const byRegion = region ? (REGION_ALIASES[region.toUpperCase()] ?? region.toUpperCase()) : '';
  if (MARKETS[byRegion]) return byRegion;
  return LANGUAGE_MARKETS[(lang ?? '').toLowerCase()] ?? 'US';
}
