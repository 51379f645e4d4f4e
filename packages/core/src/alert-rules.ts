import { alertConditionSchema, alertValueSchema } from './alert-conditions';
import { marketplaceCodeSchema, isMarketplaceCode, MARKETPLACE_CODES, type MarketplaceCode } from './marketplaces';
import { orNull, z } from './openapi-zod';
import { checkPostalCode } from './postal-codes';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './text';
import { asinFromProductUrl, normalizeAsin, normalizeTargets } from './targets';
import { productSnapshotSchema, seriesPostalCodeSchema } from './webhook-events';

/**
 * Alert rules' bodies and answers (docs/alerts.md), defined once: the gateway parses with the
 * bodies and types its mappers with the answers, the OpenAPI document and the SDK come from
 * them, and the worker reads stored conditions with `alertConditionSchema`.
 */

export const MAX_ALERT_RULES_PER_PROJECT = 100;
export const MAX_ALERT_RULE_ASINS = 1000;
export const MAX_ALERT_NOTIFY_MEMBERS = 20;
export const DEFAULT_ALERT_COOLDOWN_SECONDS = 3600;
export const DEFAULT_ALERT_MAX_PER_DAY = 20;
/** 30 days: a longer quiet time is a disabled rule. */
export const MAX_ALERT_COOLDOWN_SECONDS = 30 * 86_400;
export const MAX_ALERT_MAX_PER_DAY = 10_000;

const isoTimestamp = z.string().datetime();

const ruleName = z
  .string({ invalid_type_error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .refine(isSafeText, UNSAFE_TEXT_MESSAGE);

const marketplace = z
  .string()
  .transform((v) => v.toUpperCase())
  .refine(isMarketplaceCode, { message: `must be one of ${MARKETPLACE_CODES.join(', ')}` })
  .transform((v) => v as MarketplaceCode);

/** ASINs or product URLs, checked and de-duplicated as a details job's targets are (normalizeTargets). */
const asins = z
  .array(z.string().max(2048, 'must be at most 2048 characters').refine(isSafeText, UNSAFE_TEXT_MESSAGE))
  .min(1, 'must name at least one ASIN; leave asins out (or null) for every tracked product')
  .max(MAX_ALERT_RULE_ASINS, `must name at most ${MAX_ALERT_RULE_ASINS} ASINs`)
  .transform((raw, ctx) => {
    const normalized = normalizeTargets('details', raw, undefined);
    for (const issue of normalized.issues)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: issue.index >= 0 ? [issue.index] : [], message: issue.message });
    // a details target is an ASIN or a product URL; a rule keeps the ASIN
    return [...new Set(normalized.targets.map((t) => normalizeAsin(t) ?? asinFromProductUrl(new URL(t))!))];
  });

const notify = z
  .object({
    members: z
      .array(z.string().max(40))
      .max(MAX_ALERT_NOTIFY_MEMBERS, `at most ${MAX_ALERT_NOTIFY_MEMBERS} members`)
      .describe("User ids of the organization's verified members, mailed once per alert (docs/alerts.md)"),
  })
  .strict();

const cooldownSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(0, 'must be at least 0')
  .max(MAX_ALERT_COOLDOWN_SECONDS, `must be at most ${MAX_ALERT_COOLDOWN_SECONDS} (30 days)`);
const maxPerDay = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_ALERT_MAX_PER_DAY, `must be at most ${MAX_ALERT_MAX_PER_DAY}`);

const fields = {
  name: ruleName,
  condition: alertConditionSchema,
  asins: asins.nullable(),
  marketplace: marketplace.nullable(),
  postalCode: z.string().max(20, 'must be at most 20 characters').nullable(),
  cooldownSeconds,
  maxPerDay,
  enabled: z.boolean(),
  notify: notify.nullable(),
};

const createShape = {
  name: fields.name,
  condition: fields.condition,
  asins: fields.asins.optional().describe('ASINs or product URLs (at most 1,000); absent or null: every tracked product of the project'),
  marketplace: fields.marketplace.optional().describe('Only products of this marketplace; absent or null: every marketplace'),
  postalCode: fields.postalCode
    .optional()
    .describe("Only the series crawled for this delivery location (needs `marketplace`); absent or null: every location's"),
  cooldownSeconds: cooldownSeconds.optional().describe(`Quiet time per product after an alert (default ${DEFAULT_ALERT_COOLDOWN_SECONDS})`),
  maxPerDay: maxPerDay
    .optional()
    .describe(`Alerts per UTC day of the rule; past it they are recorded as suppressed (default ${DEFAULT_ALERT_MAX_PER_DAY})`),
  enabled: fields.enabled.optional().describe('default true'),
  notify: fields.notify.optional(),
};

/**
 * `POST …/alert-rules`. Unknown fields are refused. `postalCode` needs `marketplace` and is
 * normalised for it by the service, as a job's is (checkPostalCode).
 */
export const createAlertRuleBody = z.object(createShape).strict().openapi('CreateAlertRuleBody');
export type CreateAlertRuleInput = z.output<typeof createAlertRuleBody>;

/**
 * `POST …/alert-rules/preview`: the creation body, checked the same way, with the name optional
 * (a dialog previews before it is named). `enabled` and `notify` are accepted and change nothing.
 */
export const previewAlertRuleBody = z
  .object({ ...createShape, name: fields.name.optional() })
  .strict()
  .openapi('PreviewAlertRuleBody');
export type PreviewAlertRuleInput = z.output<typeof previewAlertRuleBody>;

/** The days a preview replays, and what it reads at most: the products (series) and their snapshots in that time. */
export const ALERT_PREVIEW_DAYS = 30;
export const MAX_ALERT_PREVIEW_PRODUCTS = 500;
export const MAX_ALERT_PREVIEW_SNAPSHOTS = 20_000;
export const ALERT_PREVIEW_LISTED = 10;

/** `PATCH …/alert-rules/{ruleId}`: any field of the creation body; null clears a scope. */
export const updateAlertRuleBody = z
  .object({
    name: fields.name.optional(),
    // a new condition starts the rule's products afresh (docs/alerts.md); a named schema takes no description
    condition: fields.condition.optional(),
    asins: fields.asins.optional(),
    marketplace: fields.marketplace.optional(),
    postalCode: fields.postalCode.optional(),
    cooldownSeconds: cooldownSeconds.optional(),
    maxPerDay: maxPerDay.optional(),
    enabled: fields.enabled.optional(),
    notify: fields.notify.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'send at least one field to change' })
  .openapi('UpdateAlertRuleBody');
export type UpdateAlertRuleInput = z.output<typeof updateAlertRuleBody>;

/**
 * A rule's location scope, as stored: the postal code normalised for the rule's marketplace, as
 * a job's is, or the reason it cannot be (a postal code belongs to one marketplace).
 */
export function alertRuleLocation(
  marketplace: MarketplaceCode | null,
  postalCode: string | null,
): { ok: true; postalCode: string | null } | { ok: false; message: string } {
  if (postalCode === null) return { ok: true, postalCode: null };
  if (!marketplace) return { ok: false, message: 'needs marketplace: a postal code is one of a marketplace' };
  const check = checkPostalCode(marketplace, postalCode);
  return check.ok ? { ok: true, postalCode: check.postalCode } : check;
}

export const alertRuleSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    condition: alertConditionSchema,
    asins: z.array(z.string()).nullable().describe('null: every tracked product of the project'),
    marketplace: orNull(marketplaceCodeSchema),
    postalCode: z.string().nullable().describe('null: every delivery location'),
    cooldownSeconds: z.number().int(),
    maxPerDay: z.number().int(),
    enabled: z.boolean(),
    notify: z.object({ members: z.array(z.string()) }).strict(),
    state: z
      .object({
        firing: z.number().int().describe('Products whose condition holds now (fired, or true since before the rule saw them)'),
        coolingDown: z.number().int().describe('Products that had an alert less than `cooldownSeconds` ago'),
        lastAlertAt: isoTimestamp.nullable(),
        alertsToday: z.number().int().describe('Alerts sent this UTC day'),
        suppressedToday: z.number().int().describe('Alerts past `maxPerDay` this UTC day, recorded and not sent'),
      })
      .strict()
      .describe('What the rule is doing; every product it watches and that is neither firing nor cooling down is armed'),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .strict()
  .openapi('AlertRule');
export type AlertRuleResource = z.infer<typeof alertRuleSchema>;

export const ALERT_STATUSES = ['sent', 'suppressed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const alertSchema = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    ruleName: z.string().describe('The rule name when the alert fired'),
    status: z.enum(ALERT_STATUSES).describe('`sent`: a product.alert event went out; `suppressed`: past the rule’s maxPerDay, not sent'),
    asin: z.string(),
    marketplace: z.string(),
    postalCode: seriesPostalCodeSchema,
    // the condition when the alert fired
    condition: alertConditionSchema,
    value: alertValueSchema,
    previous: alertValueSchema,
    baseline: z.number().nullable(),
    jobId: z.string(),
    snapshot: productSnapshotSchema,
    createdAt: isoTimestamp,
  })
  .strict()
  .openapi('Alert');
export type AlertResource = z.infer<typeof alertSchema>;

export const alertRulePreviewSchema = z
  .object({
    from: isoTimestamp,
    to: isoTimestamp,
    productsEvaluated: z.number().int().describe('Product series (ASIN, marketplace, delivery location) in scope seen in the period'),
    snapshotsEvaluated: z.number().int().describe('Product-page snapshots of those products replayed'),
    fired: z.number().int().describe('Alerts the rule would have sent'),
    suppressed: z.number().int().describe('Alerts past `maxPerDay` it would have recorded and not sent'),
    truncated: z
      .boolean()
      .describe(
        `true: more than ${MAX_ALERT_PREVIEW_PRODUCTS} products or ${MAX_ALERT_PREVIEW_SNAPSHOTS} snapshots were in scope; the figures cover those read`,
      ),
    firstAlerts: z
      .array(
        z
          .object({
            asin: z.string(),
            marketplace: z.string(),
            postalCode: seriesPostalCodeSchema,
            status: z.enum(ALERT_STATUSES),
            firedAt: isoTimestamp.describe('When the snapshot that would have fired it was recorded'),
            value: alertValueSchema,
            previous: alertValueSchema,
            baseline: z.number().nullable(),
          })
          .strict(),
      )
      .describe(`The first ${ALERT_PREVIEW_LISTED} alerts, oldest first`),
  })
  .strict()
  .openapi('AlertRulePreview');
export type AlertRulePreview = z.infer<typeof alertRulePreviewSchema>;
