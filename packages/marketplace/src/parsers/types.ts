/**
 * Output contract of the Amazon HTML parsers. Bump PARSER_VERSION whenever the
 * output for the same input HTML changes, so stored rows can be re-parsed.
 */
export const PARSER_VERSION = 'amazon-2026.11.1';

/** ISO 4217 code, amount as a number in major units. */
export interface Money {
  amount: number;
  currency: string;
}

export type AvailabilityStatus = 'in_stock' | 'out_of_stock' | 'preorder' | 'unknown';

export interface DetailsItem {
  asin: string;
  url: string | null;
  title: string | null;
  brand: string | null;
  price: Money | null;
  listPrice: Money | null;
  rating: number | null;
  reviewsCount: number | null;
  availability: { status: AvailabilityStatus; text: string | null };
  mainImage: string | null;
  images: string[];
  features: string[];
  description: string | null;
  categories: string[];
  bestSellersRank: { category: string; rank: number }[];
  seller: { name: string; id: string | null } | null;
  isPrime: boolean;
  variants: { asin: string; dimensions: Record<string, string> }[];
  specifications: Record<string, string>;
  /** Main fields not found: title, price, rating, reviewsCount, availability (status 'unknown'), brand, mainImage. */
  missingFields: string[];
  parserVersion: string;
}

export interface SearchItem {
  /** 1-based position among all result cards on the page, sponsored included. */
  position: number;
  /** 1-based position counting only non-sponsored cards; null for sponsored cards. */
  organicPosition: number | null;
  asin: string;
  title: string | null;
  url: string | null;
  image: string | null;
  price: Money | null;
  listPrice: Money | null;
  rating: number | null;
  reviewsCount: number | null;
  isSponsored: boolean;
  isPrime: boolean;
  badges: string[];
  /** Of: title, url, image, price, rating, reviewsCount. */
  missingFields: string[];
  parserVersion: string;
}

/** marketplace: 'US', 'UK', 'DE', ...; origin: 'https://www.amazon.de' (base for relative URLs). */
export interface PageContext {
  marketplace: string;
  origin: string;
}

export type PageKind = 'captcha' | 'details' | 'search' | 'unknown';
