import type { Schemas } from '../../api/client';

export type MarketplaceCode = Schemas['MarketplaceCode'];

/**
 * Every marketplace of the API (its `MarketplaceCode` enum) with the name people know it by. A
 * `Record` of the generated enum: a marketplace the API adds fails the type-check here until it
 * has its name, and the list the form offers is this table's keys.
 */
const MARKETPLACE_NAMES: Record<MarketplaceCode, string> = {
  US: 'United States (amazon.com)',
  UK: 'United Kingdom (amazon.co.uk)',
  DE: 'Germany (amazon.de)',
  FR: 'France (amazon.fr)',
  IT: 'Italy (amazon.it)',
  ES: 'Spain (amazon.es)',
  CA: 'Canada (amazon.ca)',
  MX: 'Mexico (amazon.com.mx)',
  BR: 'Brazil (amazon.com.br)',
  JP: 'Japan (amazon.co.jp)',
  IN: 'India (amazon.in)',
  AU: 'Australia (amazon.com.au)',
  NL: 'Netherlands (amazon.nl)',
  SE: 'Sweden (amazon.se)',
  PL: 'Poland (amazon.pl)',
  TR: 'Türkiye (amazon.com.tr)',
  AE: 'United Arab Emirates (amazon.ae)',
  SA: 'Saudi Arabia (amazon.sa)',
  SG: 'Singapore (amazon.sg)',
  BE: 'Belgium (amazon.com.be)',
  EG: 'Egypt (amazon.eg)',
};

export const MARKETPLACE_CODES = Object.keys(MARKETPLACE_NAMES) as MarketplaceCode[];

/** The name of a marketplace (its code, should an answer ever carry one this build does not know). */
export const marketplaceName = (code: MarketplaceCode) => MARKETPLACE_NAMES[code] ?? code;
