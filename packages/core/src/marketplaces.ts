import { z } from './openapi-zod';

/**
 * Amazon marketplaces we crawl: code -> public host and default currency. Codes are the
 * ones docs/fetch-contract.md lists; the default marketplace is US.
 */
export const MARKETPLACES = {
  US: { host: 'www.amazon.com', currency: 'USD', lang: 'en-US' },
  UK: { host: 'www.amazon.co.uk', currency: 'GBP', lang: 'en-GB' },
  DE: { host: 'www.amazon.de', currency: 'EUR', lang: 'de-DE' },
  FR: { host: 'www.amazon.fr', currency: 'EUR', lang: 'fr-FR' },
  IT: { host: 'www.amazon.it', currency: 'EUR', lang: 'it-IT' },
  ES: { host: 'www.amazon.es', currency: 'EUR', lang: 'es-ES' },
  CA: { host: 'www.amazon.ca', currency: 'CAD', lang: 'en-CA' },
  MX: { host: 'www.amazon.com.mx', currency: 'MXN', lang: 'es-MX' },
  BR: { host: 'www.amazon.com.br', currency: 'BRL', lang: 'pt-BR' },
  JP: { host: 'www.amazon.co.jp', currency: 'JPY', lang: 'ja-JP' },
  IN: { host: 'www.amazon.in', currency: 'INR', lang: 'en-IN' },
  AU: { host: 'www.amazon.com.au', currency: 'AUD', lang: 'en-AU' },
  NL: { host: 'www.amazon.nl', currency: 'EUR', lang: 'nl-NL' },
  SE: { host: 'www.amazon.se', currency: 'SEK', lang: 'sv-SE' },
  PL: { host: 'www.amazon.pl', currency: 'PLN', lang: 'pl-PL' },
  TR: { host: 'www.amazon.com.tr', currency: 'TRY', lang: 'tr-TR' },
  AE: { host: 'www.amazon.ae', currency: 'AED', lang: 'en-AE' },
  SA: { host: 'www.amazon.sa', currency: 'SAR', lang: 'ar-SA' },
  SG: { host: 'www.amazon.sg', currency: 'SGD', lang: 'en-SG' },
  BE: { host: 'www.amazon.com.be', currency: 'EUR', lang: 'fr-BE' },
  EG: { host: 'www.amazon.eg', currency: 'EGP', lang: 'ar-EG' },
} as const;

export type MarketplaceCode = keyof typeof MARKETPLACES;
export const MARKETPLACE_CODES = Object.keys(MARKETPLACES) as MarketplaceCode[];
export const DEFAULT_MARKETPLACE: MarketplaceCode = 'US';

/**
 * A marketplace code as the API answers it: the `MarketplaceCode` enum of the OpenAPI document,
 * so that clients (the console among them) take the list from the generated types instead of
 * keeping a copy.
 */
export const marketplaceCodeSchema = z.enum(MARKETPLACE_CODES as [MarketplaceCode, ...MarketplaceCode[]]).openapi('MarketplaceCode');

export function isMarketplaceCode(code: string): code is MarketplaceCode {
  return Object.prototype.hasOwnProperty.call(MARKETPLACES, code);
}

/** The marketplace a host belongs to, accepting the bare domain and `www.`/`smile.` subdomains. */
export function marketplaceOfHost(hostname: string): MarketplaceCode | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const code of MARKETPLACE_CODES) {
    const bare = MARKETPLACES[code].host.replace(/^www\./, '');
    if (host === bare || host === `www.${bare}` || host === `smile.${bare}` || host === `m.${bare}`) return code;
  }
  return null;
}

export interface MarketplaceOrigins {
  override: string | null;
  perCode: Record<string, string>;
}

/** Where requests for a marketplace go: the override, a per-code origin, else the real site. */
export function originFor(code: MarketplaceCode, origins: MarketplaceOrigins): string {
  return origins.override ?? origins.perCode[code] ?? `https://${MARKETPLACES[code].host}`;
}
