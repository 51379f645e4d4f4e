import { z } from '../openapi-zod';
import type { JobType } from '../domain';
import { inSchemaOrder } from '../schema-order';
import { bestsellers } from './bestsellers';
import { details } from './details';
import { offers } from './offers';
import { reviews } from './reviews';
import { search } from './search';
import type { JobKind } from './types';

export type { JobKind } from './types';

/**
 * The job types, one module each. Typed by JobType: a type without its module is a compile
 * error here (and in every per-layer registry: marketplace, jobs, the gateway's exports).
 */
export const JOB_KINDS = {
  details,
  search,
  offers,
  bestsellers,
  reviews,
} satisfies { [T in JobType]: JobKind };

/**
 * Any stored result item (`GET /jobs/{id}/results` in the OpenAPI document): one member per job
 * type, in the registry's order. Which member an item is, is the job's type, never its keys.
 */
export const resultItemSchema = z
  .union([
    JOB_KINDS.details.itemSchema,
    JOB_KINDS.search.itemSchema,
    JOB_KINDS.offers.itemSchema,
    JOB_KINDS.bestsellers.itemSchema,
    JOB_KINDS.reviews.itemSchema,
  ])
  .openapi('ResultItem');
export type ResultItem = z.infer<typeof resultItemSchema>;

/** The stored result item of a job type (what its results and exports return). */
export type ResultItemOf<T extends JobType> = z.infer<(typeof JOB_KINDS)[T]['itemSchema']>;

/**
 * Credits per target (docs/tenancy-and-credits.md), charged per page crawled: a search keyword costs 5
 * for each result page (`config.pages`), a reviews or offers target 2 for each review or
 * offer-listing page; details and best-seller targets have one page.
 */
export const CREDITS_PER_TARGET = Object.fromEntries(
  Object.entries(JOB_KINDS).map(([type, kind]) => [type, kind.creditsPerPage]),
) as Record<JobType, number>;

/** The job types that crawl several pages per target (`config.pages`), and their maximum. */
export const MAX_PAGES: Partial<Record<JobType, number>> = Object.fromEntries(
  Object.entries(JOB_KINDS).flatMap(([type, kind]) => (kind.maxPages === null ? [] : [[type, kind.maxPages]])),
);
/** The largest `config.pages` of any job type. */
export const MAX_PAGES_ANY_TYPE = Math.max(...Object.values(MAX_PAGES));

export function isMultiPage(type: JobType): boolean {
  return JOB_KINDS[type].maxPages !== null;
}

/** Pages per target of a new job of `type` that does not set `config.pages` (1 for single-page types). */
export function defaultPages(type: JobType): number {
  const kind: JobKind = JOB_KINDS[type];
  return kind.maxPages === null ? 1 : (kind.defaultPages ?? 1);
}

/** What a job reserves: every page of every target (pages not crawled are refunded at the end). */
export function creditCost(type: JobType, targetCount: number, pages = 1): number {
  return CREDITS_PER_TARGET[type] * targetCount * pages;
}

/**
 * A stored item of a job of `type` with its keys in the documented order (the type's item
 * schema). Postgres `jsonb` keeps keys in its own order (shorter keys first), so every response
 * and export serialises items through this, never as read from the database. The job's type
 * says which schema applies: items are never told apart by their keys.
 */
export function inDocumentedOrder<T extends object>(type: JobType, item: T): T {
  return inSchemaOrder(JOB_KINDS[type].itemSchema as z.AnyZodObject, item) as T;
}
