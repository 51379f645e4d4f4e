import { orNull, z } from './openapi-zod';
import { JOB_TYPES } from './domain';
import { moneySchema } from './money';
import { deliveryLocationSchema, fetchProvenanceSchema } from './item-provenance';

/**
 * The stored result items of details and search jobs (what `GET /jobs/{id}/results` and the
 * json export return; the other types' are in offer-items.ts, bestseller-items.ts and
 * review-items.ts, and their union `resultItemSchema` in kinds/index.ts) and the `llm` export. The parsers' output types are inferred from these
 * schemas (packages/marketplace parsers/types.ts), the OpenAPI document registers them, and the
 * SDK's types are generated from that document.
 *
 * Stored items carry no tag of their kind: the job's type says which schema an item has
 * (JOB_KINDS in kinds/index.ts maps each type to its item schema), and every response and
 * export reads it from the job, never from the item's keys.
 */

export { moneySchema, type Money } from './money';
export { deliveryLocationSchema, fetchProvenanceSchema, type DeliveryLocation, type FetchProvenance } from './item-provenance';

export const AVAILABILITY_STATUSES = ['in_stock', 'out_of_stock', 'preorder', 'unknown'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

const rankSchema = z.object({ category: z.string(), rank: z.number().int() }).strict();

/** The badges a details page can show for its product (docs/results.md). */
export const DETAILS_BADGES = ['amazons_choice', 'best_seller', 'climate_pledge_friendly', 'limited_time_deal'] as const;
export type DetailsBadge = (typeof DETAILS_BADGES)[number];

const percent = z.number().int().min(0).max(100);
/** Share of the product's ratings per star count, in whole percent, as the page shows them. */
export const ratingPercentagesSchema = z
  .object({ '5': percent, '4': percent, '3': percent, '2': percent, '1': percent })
  .strict()
  .describe('Percent of ratings per star ("5" ... "1") as shown; all zeros when the page shows the histogram without ratings')
  .openapi('RatingPercentages');
export type RatingPercentages = z.infer<typeof ratingPercentagesSchema>;

/** The product fields a details page yields (the parser's output, before the worker adds `target`). */
/** A delivery promise as shown, with its dates. */
export const deliveryPromiseSchema = z
  .object({
    text: z.string().describe('The date part as shown ("Tuesday, December 9", "Dec 9 - 12")'),
    earliest: z.string().nullable().describe('ISO date (YYYY-MM-DD), resolved against when the page was fetched'),
    latest: z.string().nullable().describe('ISO date (YYYY-MM-DD); the same as `earliest` for one day'),
  })
  .strict()
  .openapi('DeliveryPromise');

export const unitPriceSchema = z
  .object({
    amount: z.number().describe('In major units'),
    currency: z.string().describe('ISO 4217 code'),
    unit: z.string().describe('The unit as shown ("Ounce", "kg", "100 ml", "count")'),
  })
  .strict()
  .openapi('UnitPrice');

export const couponValueSchema = z
  .object({
    type: z.enum(['percent', 'amount']),
    value: z.number().describe("Percent off, or the amount off in the price's currency"),
  })
  .strict()
  .openapi('CouponValue');

/**
 * The fields a product page nearly always shows, in item order: a details item's `missingFields`
 * names those its page did not show (null, an empty list or map, availability `unknown`).
 * Optional things (a coupon, a list price, variants, badges, a subscription) are not among them.
 * (The details parser reads them as keys of the item, so a name that is not one fails its build.)
 */
export const DETAILS_MAIN_FIELDS = [
  'title',
  'brand',
  'price',
  'rating',
  'reviewsCount',
  'availability',
  'mainImage',
  'images',
  'features',
  'categories',
  'bestSellersRank',
  'seller',
  'specifications',
  'deliveryLocation',
  'deliveryPromise',
] as const;

export const parsedDetailsSchema = z
  .object({
    asin: z.string().describe("The page's own ASIN (a variant page's child ASIN); empty when the page names none"),
    url: z.string().nullable().describe('The canonical product URL, {origin}/dp/{asin}; null without an ASIN'),
    title: z.string().nullable().describe('The product title; null when the page shows none'),
    brand: z
      .string()
      .nullable()
      .describe(
        'The byline brand ("Visit the X Store" -> X), else the brand row of the tables; null for books and media, whose byline names contributors',
      ),
    price: orNull(moneySchema).describe('The buy-box price; null when the product has no buy box (unavailable, no offer)'),
    listPrice: orNull(moneySchema).describe('The struck-through list or recommended price shown beside the price; null when none is shown'),
    rating: z.number().nullable().describe('Average rating, 0-5; null without ratings'),
    reviewsCount: z.number().int().nullable().describe('Number of ratings; null without ratings'),
    availability: z
      .object({
        status: z.enum(AVAILABILITY_STATUSES).describe('The availability message classified; unknown when the page shows none'),
        text: z.string().nullable().describe('The message as shown'),
      })
      .strict()
      .describe('status `in_stock`, `out_of_stock`, `preorder` or `unknown` (no message), and the message as shown'),
    mainImage: z.string().nullable().describe('The large main image URL; null when the page shows no image'),
    images: z.array(z.string()).describe("The gallery's image URLs, main image first"),
    features: z.array(z.string()).describe('The "About this item" bullets'),
    description: z.string().nullable().describe('The product description (a book: its blurb), paragraphs separated by newlines'),
    categories: z.array(z.string()).describe('The breadcrumb, broadest category first'),
    bestSellersRank: z.array(rankSchema).describe('Each best-sellers rank the page shows: {category, rank}'),
    seller: z
      .object({ name: z.string(), id: z.string().nullable().describe('Amazon merchant id, when the seller links to it') })
      .strict()
      .nullable()
      .describe('The buy-box seller {name, id}; null when the page names none'),
    isPrime: z
      .boolean()
      .nullable()
      .describe(
        'true: the buy box shows a Prime badge for the offer; false: the page says the offer is not Prime; null: the page does not say (no badge is not a no)',
      ),
    variants: z
      .array(z.object({ asin: z.string(), dimensions: z.record(z.string()) }).strict())
      .describe('The variation family: {asin, dimensions} per variant, dimensions by name (e.g. {"Size": "Queen"})'),
    specifications: z
      .record(z.string())
      .describe('Every row of the product-details, technical-details and summary tables, by label as shown'),
    parentAsin: z
      .string()
      .nullable()
      .describe(
        "The variation family's parent ASIN as the page's own data states it; a standalone product that names itself gets its own ASIN",
      ),
    manufacturer: z
      .string()
      .nullable()
      .describe('The Manufacturer row of the product tables (Hersteller, Fabricant, メーカー, ...); null without one'),
    modelNumber: z
      .string()
      .nullable()
      .describe('The item model number row (Modellnummer, 型番, ...; else the part number); null without one'),
    weight: z.string().nullable().describe('The item weight as shown, e.g. "1.2 pounds"; null without a weight row'),
    dimensions: z
      .string()
      .nullable()
      .describe('The product (else package) dimensions as shown, e.g. "10 x 5 x 2 inches"; null without one'),
    firstAvailable: z.string().nullable().describe('ISO date (YYYY-MM-DD) of the localized "Date First Available" row; null without one'),
    ratingHistogram: orNull(ratingPercentagesSchema),
    badges: z
      .array(z.enum(DETAILS_BADGES))
      .describe(
        'The badges the page shows for this product (not for others on the page); `limited_time_deal` is any deal badge on the buy-box price, a sustainability badge is `climate_pledge_friendly`; empty when none',
      ),
    coupon: z
      .string()
      .nullable()
      .describe(
        'The buy box\'s coupon text as shown (subscription first-order coupons included); promotions such as "Buy 4, save 5%" are not coupons; null without a coupon',
      ),
    boughtPastMonth: z
      .number()
      .int()
      .nullable()
      .describe(
        'The "bought in past month" figure as a number ("10K+ bought in past month" -> 10000, "1 mil+" -> 1000); null when not shown',
      ),
    shipsFrom: z
      .string()
      .nullable()
      .describe(
        'Who ships the buy-box offer, as shown; "Amazon" when the buy box says "Fulfilled by Amazon" (any language) without a separate ships-from; null when not said',
      ),
    soldBy: z.string().nullable().describe("The buy-box offer's seller name as shown (seller.name); null when the page names none"),
    fulfilledByAmazon: z
      .boolean()
      .nullable()
      .describe('true: Amazon ships the buy-box offer; false: the page names another shipper; null: the page does not say'),
    newOffersCount: z
      .number()
      .int()
      .nullable()
      .describe(
        'New offers of the product ("New (12) from ..." -> 12, "14 neufs", the own format\'s "21 New from"); null for a mixed used & new count',
      ),
    lowestNewPrice: orNull(moneySchema).describe(
      'The lowest price of a new offer as the page sums it up ("New (12) from $9.99" -> 9.99), else the lowest new offer of its "Other sellers on Amazon" box; null without either (a mixed "New & Used (7) from" is not new)',
    ),
    isbn13: z.string().nullable().describe('Books: the ISBN-13 without hyphens; null for other products'),
    gtin: z
      .string()
      .nullable()
      .describe(
        'The GTIN, EAN or UPC row of the product tables (any marketplace language: "EAN-Code", "Código de barras", "JAN"), digits only; null without one',
      ),
    deliveryLocation: orNull(deliveryLocationSchema).describe(
      'Where the page said it delivers to, so where its price, availability and delivery promise hold; null when the page names no place',
    ),
    shipping: orNull(moneySchema).describe(
      "The charge of the buy box's primary delivery message: amount 0 for free delivery (any marketplace language); null when it names neither",
    ),
    deliveryPromise: orNull(deliveryPromiseSchema).describe("The primary delivery message's date; null when it names none"),
    unitPrice: orNull(unitPriceSchema).describe('The price per unit shown beside the price ("($0.45 / Ounce)"); null when not shown'),
    subscribeAndSave: orNull(moneySchema).describe(
      'The price of the buy box\'s Subscribe & Save option ("Subscribe & Save: $54.00", "Spar-Abo", "定期おトク便"), selected or not; null when the buy box offers none',
    ),
    couponValue: orNull(couponValueSchema).describe('What `coupon` is worth ("Save 20%" -> percent 20); null without a coupon or a value'),
    stockQuantity: z
      .number()
      .int()
      .nullable()
      .describe('How many are left when the availability message says so ("Only 3 left in stock" in any language); null otherwise'),
    missingFields: z
      .array(z.string())
      .describe(`The main fields the page did not show (null, empty, availability unknown), of: ${DETAILS_MAIN_FIELDS.join(', ')}`),
    parserVersion: z
      .string()
      .describe('The parser release that read the page (items of an older parser may lack later fields: they read as null)'),
  })
  .strict();

/** The fields of one search result card (the parser's output, before the worker adds `keyword`). */
export const parsedSearchCardSchema = z
  .object({
    position: z
      .number()
      .int()
      .describe(
        "1-based among all cards of the keyword's result pages, sponsored included; continues across pages (page 2's first card follows page 1's last)",
      ),
    organicPosition: z
      .number()
      .int()
      .nullable()
      .describe('1-based among cards known to be organic (isSponsored false), continuing across pages; null for the others'),
    asin: z.string().describe("The card's product"),
    title: z.string().nullable().describe("The card's title; null when it shows none"),
    url: z.string().nullable().describe('The product URL ({origin}/dp/{asin}, ad redirects unwrapped); null without a product link'),
    image: z.string().nullable().describe("The card's image URL"),
    price: orNull(moneySchema).describe('The card\'s price; null when it shows none (no offer, "see options")'),
    listPrice: orNull(moneySchema).describe('The struck-through price beside it; null when none is shown'),
    unitPrice: orNull(unitPriceSchema).describe(
      'The price per unit the card shows beside its price ("($0.45/Ounce)", "(6,24 €/kg)"); null when not shown',
    ),
    rating: z.number().nullable().describe('Average rating, 0-5; null without ratings'),
    reviewsCount: z.number().int().nullable().describe('Number of ratings ("(84.7K)" -> 84700); null without ratings'),
    isSponsored: z
      .boolean()
      .nullable()
      .describe(
        'true: the card carries an ad label or ad link; false: no ad marker and a direct product link; null: the card has neither, so the page does not say',
      ),
    isPrime: z
      .boolean()
      .nullable()
      .describe(
        'true: the card shows a Prime badge; false: no badge while other cards of the page show one; null: no card of the page shows Prime badges, so the page does not say',
      ),
    badges: z.array(z.string()).describe('The badge labels of the card as shown ("Best Seller", "Amazon\'s Choice", deal labels)'),
    brand: z.string().nullable().describe('The brand line of the card (or "by X"); null without one, and for an author byline on a book'),
    boughtPastMonth: z.number().int().nullable().describe('"2K+ bought in past month" -> 2000; null when the card does not show it'),
    coupon: z.string().nullable().describe('The card\'s coupon text as shown ("Save 5% with coupon"); null without a coupon'),
    deliveryText: z
      .string()
      .nullable()
      .describe(
        'The card\'s delivery line as shown ("FREE delivery Tue, Dec 9", "Lieferung Mittwoch, 10. Dezember"; a 2023+ card\'s primary delivery message); null when it shows none',
      ),
    deliveryLocation: orNull(deliveryLocationSchema).describe(
      "Where the result page said it delivers to (the page's, the same on each of its cards); null when it names no place",
    ),
    missingFields: z
      .array(z.string())
      .describe('The main fields the page did not show, of: title, url, image, price, rating, reviewsCount'),
    parserVersion: z
      .string()
      .describe('The parser release that read the page (items of an older parser may lack later fields: they read as null)'),
  })
  .strict();

export type ParsedDetails = z.infer<typeof parsedDetailsSchema>;
export type ParsedSearchCard = z.infer<typeof parsedSearchCardSchema>;

/**
 * A result item of a `details` job: one per product. The shape's key order is the documented
 * order of the fields (docs/results.md, "Key order, and what null means"): `target` first, then the parsed product.
 */
export const detailsResultItemSchema = z
  .object({ target: z.string().describe('The target as submitted (ASIN or product URL)') })
  .merge(parsedDetailsSchema)
  .merge(fetchProvenanceSchema)
  .strict()
  .openapi('DetailsResultItem');
/**
 * A result item of a `search` job: one per result card, in page order; `keyword` and the result
 * `page` first, then the card. A product shown on two pages (or twice on one) is two items.
 */
export const searchResultItemSchema = z
  .object({
    keyword: z.string().describe('The keyword as submitted'),
    page: z.number().int().min(1).describe('The result page (1-based) the card was on; see config.pages'),
    totalResults: z
      .number()
      .int()
      .nullable()
      .describe('The result count the page announces ("1-48 of over 30,000 results" -> 30000); null when it does not'),
  })
  .merge(parsedSearchCardSchema)
  .merge(fetchProvenanceSchema)
  .strict()
  .openapi('SearchResultItem');

/** The object schema inside wrappers (nullable, optional, `orNull` unions); undefined for anything else. */
export function objectSchemaOf(schema: z.ZodTypeAny): z.AnyZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return objectSchemaOf(schema.unwrap());
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodTypeAny[]).map(objectSchemaOf).find(Boolean);
  return undefined;
}

export type DetailsResultItem = z.infer<typeof detailsResultItemSchema>;
export type SearchResultItem = z.infer<typeof searchResultItemSchema>;

/**
 * Version of the `llm` export contract. Bump the major on any breaking change. 1.1 added the
 * offer and review keys (`condition` ... `variant`) for the offers, bestsellers and reviews job
 * types; 1.3 the place, landed cost and provenance keys (`deliveryLocation` ... `sourceUrl`).
 */
export const LLM_SCHEMA_VERSION = '1.3';

/**
 * One item of the `llm` export: the same keys in the same order for every kind of row (null
 * where a kind has no such value), prices as numbers in major units of `currency`. Offers:
 * `rank` is the offer's position, `seller` its seller, `price` its price. Best-seller items:
 * `rank` is the list rank. Reviews: `rank` is the review's position in the export's order of the
 * product, `title`/`description` the review's title and body, `rating` the review's stars.
 */
export const llmExportItemSchema = z
  .object({
    source: z.enum(JOB_TYPES),
    query: z.string().nullable().describe('The keyword (search) or the submitted target (details)'),
    rank: z.number().int().nullable(),
    organicRank: z.number().int().nullable(),
    page: z.number().int().nullable().describe('Search: the result page (1-based) of the card; null for details'),
    asin: z.string().nullable(),
    marketplace: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    brand: z.string().nullable(),
    price: z.number().nullable(),
    listPrice: z.number().nullable(),
    currency: z.string().nullable(),
    rating: z.number().nullable(),
    reviewCount: z.number().int().nullable(),
    availability: z.enum(AVAILABILITY_STATUSES).nullable(),
    isPrime: z.boolean().nullable(),
    isSponsored: z.boolean().nullable(),
    imageUrl: z.string().nullable(),
    images: z.array(z.string()),
    features: z.array(z.string()),
    description: z.string().nullable(),
    categories: z.array(z.string()),
    bestSellersRank: z.array(rankSchema),
    seller: z.string().nullable(),
    badges: z.array(z.string()),
    specifications: z.record(z.string()),
    condition: z.string().nullable().describe('Offers: the offer condition as shown'),
    shipping: z.number().nullable().describe('Offers: shipping charge in `currency` (0 when free)'),
    isBuyBox: z.boolean().nullable().describe('Offers: the offer holds the buy box'),
    fulfilledByAmazon: z.boolean().nullable().describe('Offers'),
    reviewId: z.string().nullable().describe('Reviews: Amazon review id'),
    author: z.string().nullable().describe('Reviews'),
    date: z.string().nullable().describe('Reviews: ISO yyyy-mm-dd'),
    verifiedPurchase: z.boolean().nullable().describe('Reviews'),
    helpfulVotes: z.number().int().nullable().describe('Reviews'),
    variant: z.string().nullable().describe('Reviews: the variant line'),
    parentAsin: z.string().nullable().describe('Details'),
    manufacturer: z.string().nullable().describe('Details'),
    modelNumber: z.string().nullable().describe('Details'),
    weight: z.string().nullable().describe('Details: as shown'),
    dimensions: z.string().nullable().describe('Details: as shown'),
    firstAvailable: z.string().nullable().describe('Details: ISO yyyy-mm-dd'),
    ratingHistogram: orNull(ratingPercentagesSchema).describe('Details: percent of ratings per star'),
    coupon: z.string().nullable().describe('Details and search: the coupon text as shown'),
    boughtPastMonth: z.number().int().nullable().describe('Details and search'),
    shipsFrom: z.string().nullable().describe('Details and offers'),
    newOffersCount: z.number().int().nullable().describe('Details'),
    isbn13: z.string().nullable().describe('Details: books'),
    totalResults: z.number().int().nullable().describe("Search: the result count the card's page announces"),
    deliveryLocation: z.string().nullable().describe('Details, search and offers: the place the page delivers to, as named'),
    postalCode: z.string().nullable().describe('The postal code in `deliveryLocation` (as much as the page shows)'),
    deliveryPromise: z.string().nullable().describe('Details: the delivery date as shown; search and offers: the delivery line'),
    deliveryDate: z.string().nullable().describe('Details: ISO yyyy-mm-dd of the earliest delivery'),
    unitPrice: z.number().nullable().describe('Details and search: the price per `unitPriceUnit`, in `currency`'),
    unitPriceUnit: z.string().nullable().describe('Details and search: the unit as shown ("Ounce", "kg")'),
    stockQuantity: z.number().int().nullable().describe('Details: how many are left, when the page says'),
    lowestNewPrice: z.number().nullable().describe("Details: the lowest new offer's price, in `currency`"),
    subscribeAndSave: z.number().nullable().describe('Details: the Subscribe & Save price, in `currency`'),
    gtin: z.string().nullable().describe('Details: the GTIN / EAN / UPC, digits only'),
    fetchedAt: z.string().nullable().describe('When the page the item was read from arrived (ISO 8601)'),
    sourceUrl: z.string().nullable().describe('The URL that page was fetched from'),
    missingFields: z.array(z.string()),
  })
  .strict()
  .openapi('LlmExportItem');
export type LlmExportItem = z.infer<typeof llmExportItemSchema>;

/** The whole `llm` export document: a versioned object, not an array. */
export const llmExportSchema = z
  .object({
    schemaVersion: z.literal(LLM_SCHEMA_VERSION),
    generatedAt: z.string().datetime(),
    job: z
      .object({
        id: z.string(),
        type: z.enum(JOB_TYPES),
        marketplace: z.string(),
        lang: z.string().nullable(),
        targets: z.array(z.string()),
        createdAt: z.string().datetime(),
        finishedAt: z.string().datetime().nullable(),
        resultsCount: z.number().int(),
      })
      .strict(),
    items: z.array(llmExportItemSchema),
  })
  .strict()
  .openapi('LlmExport');
export type LlmExport = z.infer<typeof llmExportSchema>;
export type LlmExportJob = LlmExport['job'];
