import { PAGE_STYLES } from './domain';
import { orNull, z } from './openapi-zod';
import { moneySchema } from './money';
import { deliveryLocationSchema, fetchProvenanceSchema } from './item-provenance';

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
    position: z
      .number()
      .int()
      .describe(
        "1-based rank in the listing, continued across its pages (page 2's first offer follows page 1's last); the pinned (buy-box) offer of the 2021+ layout is 1",
      ),
    price: orNull(moneySchema).describe("The offer's item price"),
    shipping: orNull(moneySchema).describe('The shipping charge; amount 0 when the page says it is free, null when it does not say'),
    condition: z.string().nullable().describe('As shown: "New", "Used - Like New", "Rental", ...'),
    seller: orNull(offerSellerSchema).describe('{name, id} of the seller; null when the offer names none'),
    fulfilledByAmazon: z
      .boolean()
      .nullable()
      .describe('true: Amazon ships it (FBA or Amazon itself); false: the seller ships; null: not said'),
    shipsFrom: z.string().nullable().describe('Who ships it, as shown'),
    isBuyBox: z.boolean().nullable().describe('null on layouts that mark no buy-box offer (legacy offer listings)'),
    deliveryText: z.string().nullable().describe('The delivery promise as shown ("FREE delivery March 3 - 5")'),
    missingFields: z.array(z.string()).describe('The main fields the page did not show, of: price, condition, seller'),
    parserVersion: z
      .string()
      .describe('The parser release that read the page (items of an older parser may lack later fields: they read as null)'),
  })
  .strict();

/**
 * What the offers parser returns for one page; `hasNextPage` lets the crawler stop early, and
 * `layout` (the legacy rows or the AOD panel) says how the listing's next page is requested.
 */
export const parsedOffersPageSchema = z
  .object({
    layout: z.enum(PAGE_STYLES),
    asin: z.string().nullable(),
    title: z.string().nullable(),
    totalOffers: z.number().int().nullable().describe('Offer count the page announces, when it does'),
    deliveryLocation: orNull(deliveryLocationSchema).describe('The place its deliver-to block names; null without one (the panel pages)'),
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
  .extend({
    deliveryLocation: orNull(deliveryLocationSchema).describe(
      "Where the listing said it delivers to (a panel page without a deliver-to block: the place the listing's first page named); null when no page named one",
    ),
  })
  .merge(fetchProvenanceSchema)
  .strict()
  .openapi('OfferResultItem');
export type OfferResultItem = z.infer<typeof offerResultItemSchema>;
