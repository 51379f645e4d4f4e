import { orNull, z } from './openapi-zod';
import { moneySchema } from './money';

/**
 * Items of an offers page (`/gp/offer-listing/{ASIN}`): one per offer, in page order. Two layouts
 * produce them: the legacy "Buying Choices" rows (2019-2020, div.olpOffer) and the All Offers
 * Display panel (2021+, #aod-pinned-offer + #aod-offer-list). Fields a page does not show are null.
 */

/**
 * The word Amazon's offer listings open a new item's condition with, per marketplace language.
 * Only the first word counts: used conditions end in one ("Used - Like New", "Gebraucht - Wie neu").
 */
const NEW_CONDITION_WORDS = new Set([
  'new',
  'neu',
  'neuf',
  'nuevo',
  'nuovo',
  'novo',
  'nieuw',
  'ny',
  'nowy',
  'yeni',
  'новый',
  '新品',
  'جديد',
  'nytt',
  'uusi',
]);

/** Whether an offer's condition (as shown) is new: "New", "Neu", "Neuf", "Nuevo", "新品", ... */
export function isNewCondition(condition: string | null): boolean {
  const first = condition
    ?.trim()
    .split(/[\s\-–:(（]/u)[0]
    ?.toLocaleLowerCase();
  return !!first && NEW_CONDITION_WORDS.has(first);
}

export const offerSellerSchema = z
  .object({
    name: z.string(),
    id: z.string().nullable().describe('Amazon merchant id (the seller= or /shops/ id of its link)'),
  })
  .strict()
  .openapi('OfferSeller');

export const parsedOfferSchema = z
  .object({
    position: z.number().int().describe('1-based on the page; the pinned (buy-box) offer of the 2021+ layout is 1'),
    price: orNull(moneySchema),
    /** Shipping charge; amount 0 when the page says it is free. */
    shipping: orNull(moneySchema),
    condition: z.string().nullable().describe('As shown: "New", "Used - Like New", "Rental", ...'),
    seller: orNull(offerSellerSchema),
    fulfilledByAmazon: z.boolean().nullable(),
    shipsFrom: z.string().nullable(),
    isBuyBox: z.boolean().nullable().describe('null on layouts that mark no buy-box offer (legacy offer listings)'),
    deliveryText: z.string().nullable(),
    missingFields: z.array(z.string()).describe('Of: price, condition, seller'),
    parserVersion: z.string(),
  })
  .strict();

/** What the offers parser returns for one page; `hasNextPage` lets the crawler stop early. */
export const parsedOffersPageSchema = z
  .object({
    asin: z.string().nullable(),
    title: z.string().nullable(),
    totalOffers: z.number().int().nullable().describe('Offer count the page announces, when it does'),
    hasNextPage: z.boolean(),
    offers: z.array(parsedOfferSchema),
  })
  .strict();

export type ParsedOffer = z.infer<typeof parsedOfferSchema>;
export type ParsedOffersPage = z.infer<typeof parsedOffersPageSchema>;

/**
 * A result item of an `offers` job: one per offer, in page order; the submitted `target` and
 * the product's `asin` first, then the offer.
 */
export const offerResultItemSchema = z
  .object({
    target: z.string().describe('The target as submitted (ASIN or product URL)'),
    asin: z.string().describe('The product whose offers these are'),
  })
  .merge(parsedOfferSchema)
  .strict()
  .openapi('OfferResultItem');
export type OfferResultItem = z.infer<typeof offerResultItemSchema>;
