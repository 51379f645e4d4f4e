/**
 * Shapes of the API's requests and responses, as the gateway sends them (README "API
 * conventions", DESIGN sections 4 and 6). Declared here rather than imported from the
 * service packages so that the SDK has no server-side dependencies.
 */
import type { WebhookEventName } from './webhook-signature';

export type JobType = 'search' | 'details';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type ExportFormat = 'json' | 'csv' | 'llm';
/** Webhook event names, from @crawl/webhook-signature (a dependency-free copy of the server's list). */
export type EventName = WebhookEventName;
/** Per-target failure codes in a job's `errors` (DESIGN section 3). */
export type TargetErrorCode = 'NOT_FOUND' | 'BLOCKED' | 'UPSTREAM_ERROR' | 'PARSE_ERROR' | 'INTERNAL_ERROR' | 'CANCELLED';

export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/** Body of `POST /projects/{id}/jobs`, also a schedule's `crawlConfig` (spec 2.1). */
export interface CreateJobBody {
  type: JobType;
  /** Keywords for `search`; ASINs or Amazon product URLs for `details`. At most 1,000 after de-duplication. */
  targets: string[];
  config?: {
    /** Marketplace code such as `US`, `UK`, `DE`. */
    marketplace?: string;
    /** Locale such as `en-US`. */
    lang?: string;
  };
}

export interface JobTargetError {
  target: string;
  code: TargetErrorCode | (string & {});
  message: string;
}

/** The job object (DESIGN section 4). */
export interface Job {
  id: string;
  projectId: string;
  type: JobType;
  status: JobStatus;
  marketplace: string;
  lang: string | null;
  targets: string[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { total: number; succeeded: number; failed: number };
  credits: { reserved: number; consumed: number; refunded: number };
  resultsCount: number;
  retryOf: string | null;
  scheduleId: string | null;
  errors: JobTargetError[];
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** One page of a list endpoint: `{data, pagination}`. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface PageQuery {
  /** Page size (1..100 for most lists, 1..1000 for results). */
  limit?: number;
  offset?: number;
}

/** Timestamps accept an ISO string (`2026-11-01`, `2026-11-01T10:00:00Z`) or a Date. */
export type DateInput = string | Date;

export interface ListJobsQuery extends PageQuery {
  status?: JobStatus;
  /** Search by keyword, ASIN, target or job id. */
  q?: string;
  from?: DateInput;
  /** A bare date covers that whole day. */
  to?: DateInput;
}

export interface Money {
  /** In major units (19.99). */
  amount: number;
  /** ISO 4217 code. */
  currency: string;
}

export type AvailabilityStatus = 'in_stock' | 'out_of_stock' | 'preorder' | 'unknown';

/** A result item of a `details` job: one per product. Fields a page did not have are null or empty. */
export interface DetailsResultItem {
  /** The target as it was submitted (ASIN or URL). */
  target: string;
  asin: string;
  url: string | null;
  title: string | null;
  brand: string | null;
  price: Money | null;
  listPrice: Money | null;
  rating: number | null;
  reviewsCount: number | null;
  availability: { status: AvailabilityStatus; text: string | null };
  mainImage: string | null;
  images: string[];
  features: string[];
  description: string | null;
  categories: string[];
  bestSellersRank: { category: string; rank: number }[];
  seller: { name: string; id: string | null } | null;
  isPrime: boolean;
  variants: { asin: string; dimensions: Record<string, string> }[];
  specifications: Record<string, string>;
  /** Main fields the parser did not find on the page. */
  missingFields: string[];
  parserVersion: string;
}

/** A result item of a `search` job: one per result card, in page order. */
export interface SearchResultItem {
  keyword: string;
  /** 1-based among all cards, sponsored included. */
  position: number;
  /** 1-based among non-sponsored cards; null for sponsored ones. */
  organicPosition: number | null;
  asin: string;
  title: string | null;
  url: string | null;
  image: string | null;
  price: Money | null;
  listPrice: Money | null;
  rating: number | null;
  reviewsCount: number | null;
  isSponsored: boolean;
  isPrime: boolean;
  badges: string[];
  missingFields: string[];
  parserVersion: string;
}

export type ResultItem = DetailsResultItem | SearchResultItem;

export interface Schedule {
  id: string;
  projectId: string;
  cron: string;
  crawlConfig: { type: JobType; targets: string[]; config: { marketplace: string; lang: string | null } };
  enabled: boolean;
  /** null while disabled. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastRunStatus: 'created' | 'skipped_insufficient_credits' | null;
  lastJobId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreateScheduleBody {
  /** 5 fields (`0 9 * * 1`) or 6 with seconds first, evaluated in UTC. */
  cron: string;
  crawlConfig: CreateJobBody;
  enabled?: boolean;
}

/** At least one field. */
export interface UpdateScheduleBody {
  enabled?: boolean;
  cron?: string;
  crawlConfig?: CreateJobBody;
}

export interface WebhookConfig {
  id: string;
  name: string | null;
  url: string;
  triggerAction: EventName;
  enabled: boolean;
  /** The signing secret; keep it confidential. */
  secret: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * One configuration of a `webhooks.replace` call. Without `id` it is created; with an `id` it is
 * kept. Without `secret` (or with `""`) a NEW secret is generated, also for a kept id: send the
 * current secret back to keep it.
 */
export interface WebhookConfigInput {
  id?: string;
  name?: string | null;
  url: string;
  triggerAction: EventName;
  enabled?: boolean;
  secret?: string;
}

/** One delivery attempt (`data.logs`), newest first. */
export interface WebhookLogEntry {
  deliveryId: string;
  webhookId: string;
  event: EventName;
  attempt: number;
  success: boolean;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  test: boolean;
  createdAt: string;
}

export interface Webhooks {
  configs: WebhookConfig[];
  logs: WebhookLogEntry[];
}

/** A failed test delivery is a result (`success: false`), not an API error. */
export interface WebhookTestResult {
  success: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  deliveryId: string;
  event: EventName;
}

/** Monitored fields of one product as one crawl saw them; null = not observed. */
export interface ProductSnapshot {
  price: number | null;
  listPrice: number | null;
  currency: string | null;
  availability: string | null;
  rating: number | null;
  reviewsCount: number | null;
  title: string | null;
  seller: string | null;
  bestSellersRank: { category: string; rank: number } | null;
  isPrime: boolean | null;
  mainImage: string | null;
}

export type MonitoredField = keyof ProductSnapshot;

export interface FieldChange {
  field: MonitoredField;
  from: unknown;
  to: unknown;
}

export interface TrackedTarget {
  asin: string;
  marketplace: string;
  snapshot: ProductSnapshot;
  changeCount: number;
  lastChangedAt: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
}

export interface ListTrackedTargetsQuery extends PageQuery {
  marketplace?: string;
  changedSince?: DateInput;
}

export interface TimelineEntry {
  jobId: string;
  /** The job type that captured the snapshot. */
  source: JobType;
  capturedAt: string;
  snapshot: ProductSnapshot;
  /** Changes against the entry before; empty for the baseline. */
  changes: FieldChange[];
}

/** Snapshots newest first, with the target they belong to. */
export interface Timeline {
  data: TimelineEntry[];
  target: { asin: string; marketplace: string; changeCount: number; firstSeenAt: string; lastSeenAt: string };
}

export interface ComparedJob {
  id: string;
  type: JobType;
  marketplace: string;
  status: JobStatus;
  createdAt: string;
}

export interface Comparison {
  from: ComparedJob;
  to: ComparedJob;
  fieldsCompared: MonitoredField[];
  /** Present when a details set is compared with a search set. */
  note?: string;
  summary: { onlyInFrom: number; onlyInTo: number; inBoth: number; changed: number; moved: number };
  onlyInFrom: string[];
  onlyInTo: string[];
  changed: { asin: string; changes: FieldChange[] }[];
  /** Search vs search: position per keyword. */
  moved: { asin: string; keyword: string; from: number; to: number; delta: number }[];
}

export interface AnalyticsQuery {
  /** Default: 30 days before `to`. */
  from?: DateInput;
  /** Default: now. A bare date means the end of that UTC day. */
  to?: DateInput;
}

export interface CreditTotals {
  reserved: number;
  consumed: number;
  refunded: number;
}

export interface Analytics {
  range: { from: string; to: string };
  jobs: {
    total: number;
    byStatus: Record<JobStatus, number>;
    byType: Record<JobType, number>;
    bySource: { api: number; schedule: number; retry: number };
  };
  targets: { crawled: number; succeeded: number; failed: number; successRate: number | null };
  failuresByCode: Record<string, number>;
  credits: CreditTotals;
  results: number;
  jobDurationSeconds: { p50: number | null; p95: number | null };
  changesDetected: number;
  webhookDeliveries: { succeeded: number; failed: number; pending: number };
  /** Zero-filled, one entry per UTC day. */
  daily: { date: string; jobs: number; targets: number; credits: CreditTotals }[];
}

/** Error codes the API documents (DESIGN section 4); other strings are possible from proxies. */
export type ApiErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_CREDITS'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'JOB_NOT_COMPLETE'
  | 'INVALID_STATE'
  | 'IDEMPOTENCY_IN_PROGRESS'
  | 'PAYLOAD_TOO_LARGE'
  | 'IDEMPOTENCY_MISMATCH'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

/** `details` of a VALIDATION_ERROR: every field path and problem. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode | (string & {}); message: string; requestId: string; details?: unknown };
}
