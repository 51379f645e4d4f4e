/** Domain rules shared by the gateway, workers and CLI. Pure: no I/O. */

export const JOB_TYPES = ['search', 'details', 'offers', 'bestsellers', 'reviews'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** `config.pages` of a search job: result pages crawled per keyword. */
export const MAX_SEARCH_PAGES = 7;
/** `config.pages` of a reviews job: review pages crawled per product. */
export const MAX_REVIEW_PAGES = 10;
/**
 * `config.pages` of an offers job: offer-listing pages crawled per product (10 offers a page).
 * Also the default: an offers job asks for every offer of a product, up to this cap.
 */
export const MAX_OFFER_PAGES = 10;

/**
 * How page n > 1 of a target is requested when its first page decides it. An offer listing in
 * the legacy "Buying Choices" layout pages by `startIndex` (`offer-listing`); one showing the
 * 2021+ All Offers Display panel loads further offers from the panel's own pages (`aod`).
 * Carried from page to page of a crawl, and kept in the page checkpoint of a retried task.
 */
export const PAGE_STYLES = ['offer-listing', 'aod'] as const;
export type PageStyle = (typeof PAGE_STYLES)[number];

/** `config.sort` of a reviews job: the review page's `sortBy` (Amazon's own default when absent). */
export const REVIEW_SORTS = ['recent', 'helpful'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const MAX_TARGETS_PER_JOB = 1000;

/** A completed job's export formats, for a download and for a storage destination (docs/exports.md). */
export const EXPORT_FORMAT_NAMES = ['json', 'jsonl', 'csv', 'llm'] as const;
export type ExportFormat = (typeof EXPORT_FORMAT_NAMES)[number];

export const PLANS = ['starter', 'growth', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

/** Rate limits (docs/tenancy-and-credits.md): per-second windows for starter and growth; enterprise has a per-minute limit per organization. */
export function rateLimitPolicy(plan: Plan, perMinuteLimit: number | null): RateLimitPolicy {
  switch (plan) {
    case 'starter':
      return { limit: 20, windowSeconds: 1 };
    case 'growth':
      return { limit: 100, windowSeconds: 1 };
    case 'enterprise':
      return { limit: perMinuteLimit ?? DEFAULT_ENTERPRISE_PER_MINUTE, windowSeconds: 60 };
  }
}

/**
 * Schedules a project may hold and how often one may fire: a schedule firing
 * every second costs its tenant credits but costs every tenant queue and scheduler time, so
 * the floor is one minute on every plan; an operator can change both per organization
 * (`admin set-schedule-limits`). The caps grow with the plan.
 */
export interface SchedulePolicy {
  minIntervalSeconds: number;
  maxPerProject: number;
}

const PLAN_SCHEDULES: Record<Plan, SchedulePolicy> = {
  starter: { minIntervalSeconds: 60, maxPerProject: 25 },
  growth: { minIntervalSeconds: 60, maxPerProject: 100 },
  enterprise: { minIntervalSeconds: 60, maxPerProject: 500 },
};

export function schedulePolicy(
  plan: Plan,
  overrides: { minIntervalSeconds?: number | null; maxPerProject?: number | null } = {},
): SchedulePolicy {
  const base = PLAN_SCHEDULES[plan];
  return {
    minIntervalSeconds: overrides.minIntervalSeconds ?? base.minIntervalSeconds,
    maxPerProject: overrides.maxPerProject ?? base.maxPerProject,
  };
}

/**
 * Live (not archived) projects an organization may hold. Every per-project cap (keys, schedules,
 * exports) multiplies by it, so it grows with the plan; an operator can raise it per organization
 * (`admin set-project-limit`).
 */
const PLAN_PROJECTS: Record<Plan, number> = { starter: 10, growth: 50, enterprise: 200 };

/** The organization's live-project limit: its own (set by an operator) or its plan's. */
export function projectLimit(plan: Plan, override: number | null = null): number {
  return override ?? PLAN_PROJECTS[plan];
}

/** The plans' limits as documents state them: "10 starter, 50 growth, 200 enterprise". */
export const PLAN_PROJECT_LIMITS_TEXT = PLANS.map((plan) => `${PLAN_PROJECTS[plan]} ${plan}`).join(', ');

/**
 * Only for enterprise rows made before the admin CLI required `--per-minute` (it refuses the
 * plan without one now): the growth plan's sustained rate (100/s), so a missing setting never
 * lets an organization send more than the next plan down.
 */
export const DEFAULT_ENTERPRISE_PER_MINUTE = 6_000;

/**
 * `LOCATION_MISMATCH`: a job with `config.postalCode` whose page kept showing another delivery
 * location (docs/crawling.md, "Delivery location").
 */
export const TARGET_ERROR_CODES = [
  'NOT_FOUND',
  'BLOCKED',
  'UPSTREAM_ERROR',
  'PARSE_ERROR',
  'LOCATION_MISMATCH',
  'INTERNAL_ERROR',
  'CANCELLED',
] as const;
export type TargetErrorCode = (typeof TARGET_ERROR_CODES)[number];

/**
 * Notes on targets that succeeded but deserve a word (the job's `notes`): `NO_RESULTS`, the
 * marketplace found nothing for the keyword (zero rows, nothing charged); `TRUNCATED`, the
 * listing has more pages than were crawled (`config.pages` or the type's cap), so the rows
 * are not all of it (an offers job's "every offer").
 */
export const TARGET_NOTE_CODES = ['NO_RESULTS', 'TRUNCATED'] as const;
export type TargetNoteCode = (typeof TARGET_NOTE_CODES)[number];

/** At most 5 automatic delivery attempts (a resend or a replay adds one each). */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** Each retry waits this many times longer than the one before. */
export const WEBHOOK_BACKOFF_FACTOR = 10;

/**
 * Delay before attempt `attempt + 1`: base x10 per attempt, +/-20% jitter. With the default base
 * (80 s) the retries come after ~1.3 min, 13 min, 2.2 h and 22 h: the fifth attempt is about a
 * day after the first, so a receiver down for most of a day still gets the delivery, and a
 * blip costs a minute.
 */
export function webhookRetryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return Math.round(baseMs * WEBHOOK_BACKOFF_FACTOR ** (attempt - 1) * (0.8 + 0.4 * random()));
}
