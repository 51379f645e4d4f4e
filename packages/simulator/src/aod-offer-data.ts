/**
 * The offers of a generated 2021+ offer listing (aod-offers-page.ts), derived from the ASIN
 * alone: the same ASIN always lists the same sellers, conditions, prices and delivery promises,
 * another ASIN other ones. Kept apart from the markup so tests and the page share one model.
 */
import { productTitle } from './asin-template';
import { marketLocale, type MarketLocale } from './locale';
import { postalKey } from './delivery-location';
import { createPrng, fnv1a } from './prng';

export interface AodSeller {
  name: string;
  /** Merchant id, as the seller link's `seller=` parameter carries it. */
  id: string;
}

export interface AodOffer {
  /** 'New', or 'Used - <grade>' as the offer heading shows it (in the marketplace's language). */
  condition: string;
  /** In the marketplace's minor units (cents; yen). */
  priceCents: number;
  /** 0 = free delivery. Minor units as the price. */
  shippingCents: number;
  seller: AodSeller;
  /** Ships from Amazon (Amazon's own offer or fulfilled by Amazon); else from the seller. */
  fulfilledByAmazon: boolean;
  /** The delivery promise's date ('Tuesday, June 3', 'June 9 - 13'). */
  deliveryDate: string;
}

export interface AodListing {
  asin: string;
  locale: MarketLocale;
  title: string;
  /** The featured (buy-box) offer: always New. */
  pinned: AodOffer;
  /** The other offers, cheapest (price + delivery) first, as the panel sorts them. */
  listed: AodOffer[];
}

/** Listed offers per page of the panel: the first page shows ten, each "See more" ten more. */
export const AOD_OFFERS_PER_PAGE = 10;

/** Amazon's US retail offer: the seller the buy box most often names. */
export const AMAZON_US: AodSeller = { name: 'Amazon.com', id: 'ATVPDKIKX0DER' };

/**
 * Third-party sellers. No name contains another (nor "Amazon"), so a test can rewrite one
 * seller's name without touching the others; no HTML-special characters, so the name is the
 * same in the page's bytes as in the parsed offer.
 */
const SELLERS = [
  'Brightwave Goods',
  'Cedar Lane Outlet',
  'Harbor Point Supply',
  'Northgate Deals',
  'Quiet Owl Trading',
  'Redstone Retail',
  'Silver Birch Market',
  'Summit Direct US',
  'Tri-County Liquidators',
  'Blue Heron Books',
  'Velvet Fox Store',
  'Oakridge Electronics',
  'Prairie Wind Sales',
  'Kingfisher Wholesale',
  'Lakeside Returns',
  'Copperfield Traders',
];
/** Delivery promises are dated from a fixed day (pages must not change with the clock): 1-5 days for Amazon's, a range later for a merchant's. */
const FAST_DAYS = [3, 4, 5, 6, 7];
const SLOW_RANGES: [number, number][] = [
  [9, 13],
  [10, 16],
  [11, 18],
  [12, 20],
];
const SHIPPING_CHARGES = [399, 449, 549, 599, 649];

const dayFormats = new Map<string, { fast: Intl.DateTimeFormat; slow: Intl.DateTimeFormat }>();
/** Day `day` of June 2025 in the marketplace's words, with its weekday when `fast` (the fixed day delivery promises are dated from). */
export function promiseDay(locale: MarketLocale, day: number, fast: boolean): string {
  let f = dayFormats.get(locale.intl);
  if (!f) {
    f = {
      fast: new Intl.DateTimeFormat(locale.intl, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }),
      slow: new Intl.DateTimeFormat(locale.intl, { month: 'long', day: 'numeric', timeZone: 'UTC' }),
    };
    dayFormats.set(locale.intl, f);
  }
  return (fast ? f.fast : f.slow).format(new Date(Date.UTC(2025, 5, day)));
}
const CENTS = [99, 49, 95, 0, 89, 79, 29, 19];

/** A stable merchant id per seller name ('A' + 13 of [0-9A-Z]), the same on every listing. */
export function sellerId(name: string): string {
  return `A${(fnv1a(name).toString(36) + fnv1a(`${name}#merchant`).toString(36)).toUpperCase().padEnd(13, '7').slice(0, 13)}`;
}

type Random = () => number;

/** What the shopper's place changes about a listing: its prices' factor, later deliveries, no free delivery in remote places. */
interface Where {
  factor: number;
  days: number;
  remote: boolean;
}
const HERE: Where = { factor: 1, days: 0, remote: false };

function whereOf(asin: string, postalCode: string | null): Where {
  if (!postalCode) return HERE;
  const here = createPrng(fnv1a(`${asin}#aod-at#${postalKey(postalCode)}`));
  return { factor: 1 + (here() < 0.5 ? -1 : 1) * (0.02 + here() * 0.05), days: Math.floor(here() * 4), remote: here() < 0.25 };
}
const pickOf = <T>(list: readonly T[], random: Random): T => list[Math.floor(random() * list.length)]!;

function shuffled<T>(list: readonly T[], random: Random): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `base` scaled by a factor in [low, low + spread), with one of Amazon's usual cent endings;
 * never a price another offer of the listing already has, so every price string on the page
 * belongs to one offer (what lets a test rewrite the buy box's price alone).
 */
function priceNear(base: number, low: number, spread: number, taken: Set<number>, random: Random, locale: MarketLocale): number {
  let minor = locale.convertUsCents(Math.floor((base * (low + random() * spread)) / 100) * 100 + pickOf(CENTS, random));
  while (taken.has(minor)) minor += 10;
  taken.add(minor);
  return minor;
}

function offer(
  condition: string,
  priceCents: number,
  seller: AodSeller,
  fulfilledByAmazon: boolean,
  random: Random,
  locale: MarketLocale,
  where: Where = HERE,
): AodOffer {
  // Amazon ships its own and fulfilled offers for free and soon; a merchant half of the time charges, and ships later.
  const free = (fulfilledByAmazon || random() < 0.4) && !where.remote;
  const shipping = pickOf(SHIPPING_CHARGES, random);
  const fast = pickOf(FAST_DAYS, random) + where.days;
  const [from, to] = pickOf(SLOW_RANGES, random).map((d) => d + where.days) as [number, number];
  return {
    condition,
    priceCents,
    shippingCents: free ? 0 : locale.convertUsCents(shipping),
    seller,
    fulfilledByAmazon,
    deliveryDate: fulfilledByAmazon
      ? promiseDay(locale, fast, true)
      : `${promiseDay(locale, from, false)} - ${promiseDay(locale, to, false)}`,
  };
}

/**
 * The listing of `asin` over `pages` panel pages: a New buy-box offer (Amazon.com's in about 2
 * of 5 listings, else a third-party seller's) and further offers, at least one New and one
 * Used: 3-8 on a one-page listing, each from its own seller; a longer listing fills its pages
 * but the last with ten each, its sellers then listing several offers (as on Amazon). New
 * offers cost 90-125% of the buy box's price (so the buy box is not always the cheapest new
 * offer, as on Amazon), used ones 50-90%. The one-page listing of an ASIN is the same whatever
 * its page count was before: the extra offers are drawn after it.
 */
export function aodListing(
  asin: string,
  pages = 1,
  locale: MarketLocale = marketLocale('US'),
  epoch = 0,
  postalCode: string | null = null,
): AodListing {
  const random = createPrng(fnv1a(`${asin}#aod-offers`));
  const where = whereOf(asin, postalCode);
  let base = Math.round((1500 + Math.floor(random() * 15000)) * where.factor);
  // A drift epoch (drift.ts) moves every price of the listing by one factor; sellers stay.
  if (epoch > 0) base = Math.round(base * (0.8 + createPrng(fnv1a(`${asin}#aod-offers#${epoch}`))() * 0.35));
  const taken = new Set<number>();
  const sellers = shuffled(SELLERS, random).map((name) => ({ name, id: sellerId(name) }));
  const amazonWins = random() < 0.4;
  const pinnedSeller = amazonWins ? locale.amazonSeller : sellers.shift()!;
  const conditionNew = locale.texts.conditionNew;
  const pinned = offer(
    conditionNew,
    priceNear(base, 1, 0, taken, random, locale),
    pinnedSeller,
    amazonWins || random() < 0.6,
    random,
    locale,
    where,
  );
  const lastPage = 3 + Math.floor(random() * 6);
  const count = (pages - 1) * AOD_OFFERS_PER_PAGE + lastPage;
  const listed: AodOffer[] = [];
  for (let i = 0; i < count; i++) {
    // The first two are one New and one Used offer, so every listing has both conditions.
    const isNew = i === 0 || (i > 1 && random() < 0.45);
    const condition = isNew ? conditionNew : pickOf(locale.texts.usedGrades, random);
    const price = isNew ? priceNear(base, 0.9, 0.35, taken, random, locale) : priceNear(base, 0.5, 0.4, taken, random, locale);
    listed.push(offer(condition, price, sellers[i % sellers.length]!, random() < 0.5, random, locale, where));
  }
  listed.sort((a, b) => a.priceCents + a.shippingCents - (b.priceCents + b.shippingCents));
  return { asin, locale, title: productTitle(asin, 120), pinned, listed };
}
