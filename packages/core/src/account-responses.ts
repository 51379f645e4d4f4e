import { z } from './openapi-zod';
import { PLANS } from './domain';

/**
 * Response bodies of the account endpoints: usage and balance, and
 * the cost estimate of a job body. Strict like every response schema (api-responses.ts).
 */

const isoTimestamp = z.string().datetime();
const count = z.number().int().nonnegative();

export const LEDGER_KINDS = ['grant', 'reserve', 'refund', 'consume'] as const;

export const ledgerEntrySchema = z
  .object({
    jobId: z.string().nullable().describe('null for grants (organization-wide)'),
    kind: z.enum(LEDGER_KINDS),
    amount: count,
    balanceAfter: z.number().int().describe("The organization's balance right after this entry"),
    createdAt: isoTimestamp,
  })
  .strict()
  .openapi('LedgerEntry');
export type LedgerEntryResource = z.infer<typeof ledgerEntrySchema>;

export const rateLimitInForceSchema = z
  .object({ limit: count, windowSeconds: z.number().int().positive().describe('1 (starter, growth) or 60 (enterprise)') })
  .strict()
  .describe("Requests per window per user, from the organization's plan");

export const usageSchema = z
  .object({
    organizationId: z.string(),
    plan: z.enum(PLANS),
    balance: z.number().int().describe("The organization's credit balance now (shared by its projects)"),
    rateLimit: rateLimitInForceSchema,
    range: z.object({ from: isoTimestamp, to: isoTimestamp }).strict(),
    credits: z
      .object({ granted: count, reserved: count, consumed: count, refunded: count })
      .strict()
      .describe("Ledger totals over the range: this project's jobs, plus the organization's grants"),
    ledger: z
      .array(ledgerEntrySchema)
      .describe('Entries of the range behind the totals, newest first; paged by `pagination` (limit, offset)'),
  })
  .strict()
  .openapi('Usage');
export type UsageResource = z.infer<typeof usageSchema>;

export const ESTIMATE_REFUSALS = ['INSUFFICIENT_CREDITS'] as const;

export const costEstimateSchema = z
  .object({
    targets: count.describe('Targets after normalization and de-duplication (what would be crawled and charged)'),
    pages: count
      .nullable()
      .describe(
        'Search, reviews and offers: pages per target (`config.pages`; default 1, offers 10); null for other job types (one page per target), as on the job',
      ),
    creditsPerTarget: count.describe('What one target reserves: 5 per result page for search, 2 for details'),
    cost: count,
    balance: z.number().int(),
    accepted: z.boolean().describe('Whether a create with this body would be accepted now (202)'),
    refusal: z
      .object({ code: z.enum(ESTIMATE_REFUSALS), message: z.string() })
      .strict()
      .nullable()
      .describe('Why a create would be refused (the error code it would answer); null when accepted'),
  })
  .strict()
  .openapi('CostEstimate');
export type CostEstimateResource = z.infer<typeof costEstimateSchema>;
