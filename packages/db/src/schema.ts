import type { ColumnType, Generated, Selectable } from 'kysely';
import type {
  AlertCondition,
  AlertStatus,
  AlertValue,
  AuditAction,
  EventType,
  ExportFormat,
  KeyScope,
  Role,
  FieldChangeData,
  JobStatus,
  JobType,
  MarketplaceCode,
  Plan,
  ProductSnapshotData,
  ResultItem,
  ReviewSort,
  RunStatus,
  TargetErrorCode,
  PageStyle,
  TargetNoteCode,
  StoredJobSpec,
} from '@crawl/core';
import type * as G from './generated/db';

/**
 * Row types: the generated ones (`generated/db.ts`, from the migrated schema) narrowed where
 * the database is looser than the code. Text columns under a check constraint become the
 * domain unions, jsonb columns their shapes; jsonb is written as a JSON string (the
 * repositories stringify, because node-postgres would send a JS array as a Postgres array).
 *
 * `Narrow` only replaces columns the generated table has: an override of a dropped or renamed
 * column is a compile error rather than a silently re-added property.
 */
type Narrow<T, O extends { [K in keyof O]: K extends keyof T ? unknown : never }> = Omit<T, keyof O> & O;

type Json<T> = ColumnType<T, string, string>;
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** Mirrors `credit_ledger.kind`'s check constraint. */
export type LedgerKind = 'grant' | 'reserve' | 'refund' | 'consume';
/** Mirrors `job_target.status`'s check constraint. */
export type JobTargetStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
/** Mirrors `webhook_delivery.status`'s check constraint. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface JobErrorRow {
  target: string;
  code: TargetErrorCode;
  message: string;
}

/** A note on a target that succeeded (`job.notes`). */
export interface JobNoteRow {
  target: string;
  code: TargetNoteCode;
  message: string;
}

/**
 * The pages a pending multi-page target crawled so far (`job_target.page_checkpoint`): its
 * items with their final positions, so a retried task goes on from page `pages + 1`, requested
 * the way the pages before said (`pageStyle`; absent: the type's own way, as before it existed).
 */
export interface PageCheckpoint {
  pages: number;
  items: ResultItem[];
  pageStyle?: PageStyle;
}

export type OrganizationTable = Narrow<G.Organization, { plan: Plan }>;
export type CreditLedgerTable = Narrow<G.CreditLedger, { kind: LedgerKind }>;
export type JobTable = Narrow<
  G.Job,
  {
    type: JobType;
    status: JobStatus;
    // written only from a JobSpec, whose marketplace the job body's schema resolved to a code
    marketplace: MarketplaceCode;
    sort: ReviewSort | null;
    targets: Json<string[]>;
    errors: JsonWithDefault<JobErrorRow[]>;
    notes: JsonWithDefault<JobNoteRow[]>;
  }
>;

/**
 * The retention state a job row carries: when its results were deleted or purged (null while
 * they are kept). Only RetentionRepository writes it, in SQL of its own.
 */
export type JobRetentionState = Pick<Selectable<JobTable>, 'results_purged_at'>;
export type JobTargetTable = Narrow<G.JobTarget, { status: Generated<JobTargetStatus>; page_checkpoint: NullableJson<PageCheckpoint> }>;
export type ResultItemTable = Narrow<G.ResultItem, { data: Json<ResultItem> }>;
export type EventTable = Narrow<G.Event, { type: EventType; data: Json<Record<string, unknown>> }>;
export type IdempotencyKeyTable = Narrow<G.IdempotencyKey, { response_body: ColumnType<unknown, string | null, string | null> }>;
export type WebhookDeliveryTable = Narrow<G.WebhookDelivery, { status: Generated<DeliveryStatus> }>;
export type ScheduleTable = Narrow<G.Schedule, { crawl_config: Json<StoredJobSpec>; last_run_status: RunStatus | null }>;
export type TrackedTargetTable = Narrow<
  G.TrackedTarget,
  { latest_snapshot: NullableJson<ProductSnapshotData>; page_state: NullableJson<ProductSnapshotData> }
>;
export type ProductSnapshotTable = Narrow<
  G.ProductSnapshot,
  { source: JobType; snapshot: Json<ProductSnapshotData>; changes: Json<FieldChangeData[]> }
>;
export type AlertRuleTable = Narrow<G.AlertRule, { condition: Json<AlertCondition>; marketplace: MarketplaceCode | null }>;
export type AlertTable = Narrow<
  G.Alert,
  {
    status: AlertStatus;
    condition: Json<AlertCondition>;
    value: Json<AlertValue>;
    previous: Json<AlertValue>;
    snapshot: Json<ProductSnapshotData>;
  }
>;
export type AlertRuleDayTable = G.AlertRuleDay;
export type AlertMailTable = Narrow<G.AlertMail, { status: Generated<'pending' | 'sent' | 'skipped' | 'failed'> }>;
export type DestinationTable = Narrow<G.Destination, { type: 's3'; format: ExportFormat }>;
/** Mirrors `destination_delivery.status`'s check constraint. */
export type DestinationDeliveryStatus = 'pending' | 'delivered' | 'failed';
export type DestinationDeliveryTable = Narrow<
  G.DestinationDelivery,
  { status: Generated<DestinationDeliveryStatus>; bytes: ColumnType<string | null, number | null | undefined, number | null> }
>;
export type WebhookConfigTable = Narrow<G.WebhookConfig, { trigger_action: EventType }>;
export type WebhookAttemptTable = Narrow<G.WebhookAttempt, { event_type: EventType }>;

export interface Database {
  organization: OrganizationTable;
  app_user: G.AppUser;
  project: G.Project;
  api_key: Narrow<G.ApiKey, { scope: ColumnType<KeyScope, KeyScope | undefined, KeyScope> }>;
  membership: Narrow<G.Membership, { role: ColumnType<Role, Role, Role> }>;
  user_session: G.UserSession;
  account_token: Narrow<
    G.AccountToken,
    { purpose: ColumnType<'verify_email' | 'password_reset', 'verify_email' | 'password_reset', never> }
  >;
  invitation: Narrow<G.Invitation, { role: ColumnType<Role, Role, never> }>;
  audit_log: Narrow<G.AuditLog, { action: ColumnType<AuditAction, AuditAction, never>; details: JsonWithDefault<Record<string, unknown>> }>;
  credit_ledger: CreditLedgerTable;
  job: JobTable;
  job_target: JobTargetTable;
  organization_crawl_share: G.OrganizationCrawlShare;
  result_item: ResultItemTable;
  event: EventTable;
  idempotency_key: IdempotencyKeyTable;
  webhook_config: WebhookConfigTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
  webhook_replay: G.WebhookReplay;
  webhook_claimant: G.WebhookClaimant;
  schedule: ScheduleTable;
  schedule_run: G.ScheduleRun;
  tracked_target: TrackedTargetTable;
  product_snapshot: ProductSnapshotTable;
  alert_rule: AlertRuleTable;
  alert_rule_state: G.AlertRuleState;
  alert_rule_day: AlertRuleDayTable;
  alert: AlertTable;
  alert_mail: AlertMailTable;
  destination: DestinationTable;
  destination_delivery: DestinationDeliveryTable;
}

/** The generated schema and ours cover the same tables: a new table must be listed above. */
type Assert<T extends true> = T;
type _SameTables = Assert<[keyof G.DB] extends [keyof Database] ? ([keyof Database] extends [keyof G.DB] ? true : false) : false>;
