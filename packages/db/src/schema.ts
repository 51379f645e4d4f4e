import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the tables created by `migrations/`. Kept by hand next to the migrations:
 * a change to one without the other fails the repository tests, which run against a freshly
 * migrated database.
 */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** bigint columns are parsed to numbers by the pool (credits stay far below 2^53). */
type BigintCol = ColumnType<number, number, number>;
type Json<T> = ColumnType<T, string, string>;

export interface OrganizationTable {
  id: string;
  name: string;
  plan: 'starter' | 'growth' | 'enterprise';
  per_minute_limit: number | null;
  /** Overrides of the plan's schedule limits; null: the plan's default. */
  max_schedules_per_project: ColumnType<number | null, number | null | undefined, number | null>;
  min_schedule_interval_seconds: ColumnType<number | null, number | null | undefined, number | null>;
  credit_balance: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface AppUserTable {
  id: string;
  organization_id: string;
  created_at: CreatedAt;
}

export interface ProjectTable {
  id: string;
  organization_id: string;
  name: string;
  created_at: CreatedAt;
}

export interface ApiKeyTable {
  id: string;
  project_id: string;
  user_id: string;
  key_prefix: string;
  key_hash: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  organization_id: string;
  job_id: string | null;
  kind: 'grant' | 'reserve' | 'refund' | 'consume';
  amount: BigintCol;
  balance_after: BigintCol;
  created_at: CreatedAt;
}

export interface JobErrorRow {
  target: string;
  code: string;
  message: string;
}

export interface JobTable {
  id: string;
  project_id: string;
  organization_id: string;
  type: 'search' | 'details';
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  marketplace: string;
  lang: string | null;
  targets: Json<string[]>;
  target_count: number;
  succeeded: Generated<number>;
  failed: Generated<number>;
  results_count: Generated<number>;
  errors: ColumnType<JobErrorRow[], string | undefined, string>;
  credits_reserved: number;
  credits_consumed: Generated<number>;
  credits_refunded: Generated<number>;
  retry_of: string | null;
  schedule_id: string | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface JobTargetTable {
  job_id: string;
  idx: number;
  target: string;
  status: ColumnType<'pending' | 'succeeded' | 'failed' | 'cancelled', string | undefined, string>;
  attempts: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  finished_at: Timestamp | null;
  /** When the target's crawl task was put in the queue (the organization's release window); null = not yet. */
  released_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Recent crawl service of an organization: `service` decays exponentially since `service_at`. */
export interface OrganizationCrawlShareTable {
  organization_id: string;
  service: number;
  service_at: Timestamp;
}

export interface ResultItemTable {
  id: Generated<string>;
  job_id: string;
  target_idx: number;
  position: number;
  data: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface EventTable {
  id: string;
  project_id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  dispatched_at: Timestamp | null;
}

export interface IdempotencyKeyTable {
  project_id: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null>;
  job_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Timestamp;
}

export interface WebhookConfigTable {
  id: string;
  project_id: string;
  name: string | null;
  url: string;
  trigger_action: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  secret_encrypted: string;
  position: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  webhook_id: string;
  project_id: string;
  event_type: string;
  body: string;
  status: ColumnType<'pending' | 'delivered' | 'failed', string | undefined, string>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}

export interface WebhookAttemptTable {
  id: Generated<string>;
  delivery_id: string | null;
  webhook_id: string;
  project_id: string;
  event_type: string;
  attempt: number;
  test: ColumnType<boolean, boolean | undefined, boolean>;
  success: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: CreatedAt;
}

export interface StoredCrawlConfig {
  type: 'search' | 'details';
  targets: string[];
  marketplace: string;
  lang: string | null;
}

export interface ScheduleTable {
  id: string;
  project_id: string;
  organization_id: string;
  cron: string;
  crawl_config: ColumnType<StoredCrawlConfig, string, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  next_run_at: Timestamp;
  last_run_at: Timestamp | null;
  last_run_status: string | null;
  last_job_id: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ScheduleRunTable {
  schedule_id: string;
  fire_time: Timestamp;
  status: string;
  job_id: string | null;
  created_at: CreatedAt;
}

export interface TrackedTargetTable {
  project_id: string;
  marketplace: string;
  asin: string;
  latest_snapshot: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  change_count: ColumnType<number, number | undefined, number>;
  first_seen_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_changed_at: Timestamp | null;
}

export interface ProductSnapshotTable {
  id: Generated<string>;
  project_id: string;
  marketplace: string;
  asin: string;
  job_id: string;
  source: string;
  snapshot: Json<Record<string, unknown>>;
  changes: ColumnType<{ field: string; from: unknown; to: unknown }[], string, string>;
  change_count: number;
  captured_at: CreatedAt;
}

export interface Database {
  organization: OrganizationTable;
  app_user: AppUserTable;
  project: ProjectTable;
  api_key: ApiKeyTable;
  credit_ledger: CreditLedgerTable;
  job: JobTable;
  job_target: JobTargetTable;
  organization_crawl_share: OrganizationCrawlShareTable;
  result_item: ResultItemTable;
  event: EventTable;
  idempotency_key: IdempotencyKeyTable;
  webhook_config: WebhookConfigTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
  schedule: ScheduleTable;
  schedule_run: ScheduleRunTable;
  tracked_target: TrackedTargetTable;
  product_snapshot: ProductSnapshotTable;
}
