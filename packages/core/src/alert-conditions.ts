import { z } from './openapi-zod';
import type { ProductSnapshotData } from './webhook-events';

/**
 * What an alert rule watches (docs/alerts.md). Defined here, apart from the rules' bodies and
 * responses, because the `product.alert` event (webhook-events.ts) carries a rule's condition.
 */

export const ALERT_CONDITION_TYPES = [
  'price_below',
  'price_above',
  'price_drop_pct',
  'price_rise_pct',
  'back_in_stock',
  'out_of_stock',
  'seller_changed',
  'rating_below',
  'field_changed',
] as const;
export type AlertConditionType = (typeof ALERT_CONDITION_TYPES)[number];

/** What a percentage rule compares the new price with: the one before, or the median of the product's own prices over 7 or 30 days. */
export const ALERT_BASELINES = ['previous', 'median_7d', 'median_30d'] as const;
export type AlertBaseline = (typeof ALERT_BASELINES)[number];

/** Every field of a snapshot (productSnapshotSchema), which a `field_changed` rule may watch. */
export const ALERT_FIELDS = [
  'price',
  'listPrice',
  'currency',
  'availability',
  'rating',
  'reviewsCount',
  'title',
  'seller',
  'bestSellersRank',
  'isPrime',
  'mainImage',
  'lowestNewPrice',
] as const satisfies readonly (keyof ProductSnapshotData)[];
export type AlertField = (typeof ALERT_FIELDS)[number];

const price = z
  .number({ invalid_type_error: 'must be a number (a price in the product currency)' })
  .positive('must be a price above 0')
  .max(1_000_000_000, 'must be at most 1000000000');
const percent = (max: number) =>
  z
    .number({ invalid_type_error: 'must be a number of percent' })
    .gt(0, 'must be above 0 percent')
    .max(max, `must be at most ${max} percent`);
const baseline = z.enum(ALERT_BASELINES, {
  errorMap: () => ({ message: `must be one of ${ALERT_BASELINES.join(', ')}` }),
});

const withValue = <T extends AlertConditionType, V extends z.ZodTypeAny>(type: T, value: V) =>
  z.object({ type: z.literal(type), value }).strict();
const bare = <T extends AlertConditionType>(type: T) => z.object({ type: z.literal(type) }).strict();

/**
 * One rule's condition. Strict: a `value` sent to `back_in_stock`, or a `field` to `price_below`,
 * is a 400 rather than a setting silently ignored. Prices are in the product's currency.
 */
export const alertConditionSchema = z
  .discriminatedUnion(
    'type',
    [
      withValue('price_below', price).describe('Fires when the price falls below `value`'),
      withValue('price_above', price).describe('Fires when the price rises above `value`'),
      z
        .object({ type: z.literal('price_drop_pct'), value: percent(100).refine((v) => v < 100, 'must be below 100 percent'), baseline })
        .strict()
        .describe('Fires when the price is at least `value` percent under `baseline`'),
      z
        .object({ type: z.literal('price_rise_pct'), value: percent(10_000), baseline })
        .strict()
        .describe('Fires when the price is at least `value` percent over `baseline`'),
      bare('back_in_stock').describe('Fires when the product page shows it in stock after it was not'),
      bare('out_of_stock').describe('Fires when the product page shows it out of stock after it was not'),
      bare('seller_changed').describe('Fires when the buy box goes to another seller'),
      withValue(
        'rating_below',
        z.number({ invalid_type_error: 'must be a number of stars' }).gt(0, 'must be above 0').max(5, 'must be at most 5'),
      ).describe('Fires when the rating falls below `value` stars'),
      z
        .object({
          type: z.literal('field_changed'),
          field: z.enum(ALERT_FIELDS, { errorMap: () => ({ message: `must be one of ${ALERT_FIELDS.join(', ')}` }) }),
        })
        .strict()
        .describe('Fires when the snapshot field `field` changes'),
    ],
    {
      errorMap: (issue, ctx) => ({
        message: issue.code === 'invalid_union_discriminator' ? `must be one of ${ALERT_CONDITION_TYPES.join(', ')}` : ctx.defaultError,
      }),
    },
  )
  .openapi('AlertCondition');
export type AlertCondition = z.infer<typeof alertConditionSchema>;

/**
 * A value a condition looked at (a price, an availability status, a seller, a rating, or any
 * snapshot field's value for `field_changed`); null when it was not observed.
 */
export const alertValueSchema = z
  .union([z.number(), z.string(), z.boolean(), z.object({ category: z.string(), rank: z.number().int() }).strict()])
  .nullable();
export type AlertValue = z.infer<typeof alertValueSchema>;
