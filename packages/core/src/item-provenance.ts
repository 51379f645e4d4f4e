import { z } from './openapi-zod';

/**
 * Where and when a result item was seen: the fields every stored item carries so that a row
 * proves itself (docs/results.md, "Where and when a row was seen"). The parsers read
 * `deliveryLocation` from the page (docs/crawling.md, "Delivery location"); the worker adds
 * `fetchedAt` and `sourceUrl`, which no page says.
 */

/** Where the page says it delivers to. */
export const deliveryLocationSchema = z
  .object({
    text: z.string().describe('The place the deliver-to block names, without its words ("Chicago 60601", "Spain")'),
    postalCode: z
      .string()
      .nullable()
      .describe('The postal code in it, whole or as much as the page shows ("W12"); null when it names none'),
  })
  .strict()
  .openapi('DeliveryLocation');
export type DeliveryLocation = z.infer<typeof deliveryLocationSchema>;

/** The fetch that produced an item: the last keys of every result item. */
export const fetchProvenanceSchema = z
  .object({
    fetchedAt: z
      .string()
      .datetime()
      .nullable()
      .describe('When the page the item was read from arrived (ISO 8601, UTC); null on items stored before it was recorded'),
    sourceUrl: z
      .string()
      .nullable()
      .describe('The URL that page was fetched from (the result page, the offers panel page); null on items stored before it was recorded'),
  })
  .strict();
export type FetchProvenance = z.infer<typeof fetchProvenanceSchema>;
