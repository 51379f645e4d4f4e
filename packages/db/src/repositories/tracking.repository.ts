import { type JobType, readStoredFields } from '@crawl/core';
import { type Selectable, sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database, ProductSnapshotTable, TrackedTargetTable } from '../schema';

/** What a reader of tracked targets gets (explicit columns: a new column is not returned by accident). */
const trackedTargetColumns = [
  'asin',
  'marketplace',
  'postal_code',
  'latest_snapshot',
  'change_count',
  'last_changed_at',
  'first_seen_at',
  'last_seen_at',
] as const;
const snapshotColumns = ['job_id', 'source', 'postal_code', 'captured_at', 'snapshot', 'changes'] as const;

/** The columns behind each sort field of the tracked products' list. */
const TRACKED_SORT_KEYS = {
  lastSeenAt: sql`last_seen_at`,
  lastChangedAt: sql`last_changed_at`,
  firstSeenAt: sql`first_seen_at`,
  changeCount: sql`change_count`,
  asin: sql`asin`,
  title: sql`lower(latest_snapshot->>'title')`,
  price: sql`(latest_snapshot->>'price')::numeric`,
} as const;

export interface TrackedTargetFilter {
  projectId: string;
  /** ASIN prefix or title substring, case-insensitive. */
  q?: string;
  sort?: { field: keyof typeof TRACKED_SORT_KEYS; direction: 'asc' | 'desc' };
  marketplace?: string;
  /** '' for the series of jobs without a postal code. */
  postalCode?: string;
  changedSince?: Date;
  limit: number;
  offset: number;
}

/**
 * One product's series: a (project, marketplace, ASIN) observed for one delivery location,
 * `postalCode` the one its jobs asked for ('' for jobs that asked for none; docs/schedules-and-tracking.md, "Locations").
 */
export interface SeriesScope {
  projectId: string;
  marketplace: string;
  postalCode: string;
}

export type TrackedTargetRow = Pick<Selectable<TrackedTargetTable>, (typeof trackedTargetColumns)[number]>;
export type ProductSnapshotRow = Pick<Selectable<ProductSnapshotTable>, (typeof snapshotColumns)[number]>;

export interface SnapshotWrite {
  asin: string;
  snapshot: Record<string, unknown>;
  merged: Record<string, unknown>;
  changes: { field: string; from: unknown; to: unknown }[];
  /**
   * A product page's observation (details, offers, reviews): the product's last known state as
   * product pages showed it, which alert rules read (docs/alerts.md); absent for a search card.
   */
  page?: Record<string, unknown>;
  /** The price a details or offers crawl saw (the alert rules' medians); null or absent otherwise. */
  pagePrice?: number | null;
}

/** A tracked product's last known states, locked: all observations merged, and product pages' only. */
export interface LockedTarget {
  latest: Record<string, unknown> | null;
  page: Record<string, unknown> | null;
}

/** Tracked targets (latest known state per product) and their snapshot history. */
export class TrackingRepository {
  constructor(private readonly db: Db) {}

  /**
   * Locks the tracked targets of `asins` (creating empty ones first), in ASIN order so that
   * concurrent jobs crawling the same products never deadlock, and returns their latest
   * known snapshots (null for products never seen before).
   */
  async lockTargets(trx: Transaction<Database>, scope: SeriesScope, asins: string[]): Promise<Map<string, Record<string, unknown> | null>> {
    const locked = await this.lockSeries(trx, scope, asins);
    return new Map([...locked].map(([asin, t]) => [asin, t.latest]));
  }

  /** `lockTargets`, with each product's state as product pages showed it (`page_state`). */
  async lockSeries(trx: Transaction<Database>, scope: SeriesScope, asins: string[]): Promise<Map<string, LockedTarget>> {
    const sorted = [...new Set(asins)].sort();
    if (!sorted.length) return new Map();
    const { projectId, marketplace, postalCode } = scope;
    await trx
      .insertInto('tracked_target')
      .values(sorted.map((asin) => ({ project_id: projectId, marketplace, asin, postal_code: postalCode })))
      .onConflict((oc) => oc.columns(['project_id', 'marketplace', 'asin', 'postal_code']).doNothing())
      .execute();
    const rows = await trx
      .selectFrom('tracked_target')
      .select(['asin', 'latest_snapshot', 'page_state'])
      .where('project_id', '=', projectId)
      .where('marketplace', '=', marketplace)
      .where('postal_code', '=', postalCode)
      .where('asin', 'in', sorted)
      .orderBy('asin')
      .forUpdate()
      .execute();
    return new Map(rows.map((r) => [r.asin, { latest: r.latest_snapshot, page: r.page_state }]));
  }

  /** Stores one snapshot per product and moves each tracked target on, in two statements. */
  async recordSnapshots(
    trx: Transaction<Database>,
    scope: SeriesScope & { jobId: string; source: JobType },
    writes: SnapshotWrite[],
  ): Promise<void> {
    if (!writes.length) return;
    await trx
      .insertInto('product_snapshot')
      .values(
        writes.map((w) => ({
          project_id: scope.projectId,
          marketplace: scope.marketplace,
          asin: w.asin,
          postal_code: scope.postalCode,
          job_id: scope.jobId,
          source: scope.source,
          snapshot: JSON.stringify(w.snapshot),
          changes: JSON.stringify(w.changes),
          change_count: w.changes.length,
          page_price: w.pagePrice ?? null,
        })),
      )
      .execute();
    const values = writes.map(
      (w) =>
        sql`(${w.asin}, ${JSON.stringify(w.merged)}::jsonb, ${w.changes.length}::int, ${w.page ? JSON.stringify(w.page) : null}::jsonb)`,
    );
    await sql`
      update tracked_target t
      set latest_snapshot = v.merged,
          page_state = coalesce(v.page, t.page_state),
          change_count = t.change_count + v.changes,
          last_seen_at = now(),
          last_changed_at = case when v.changes > 0 then now() else t.last_changed_at end
      from (values ${sql.join(values)}) as v(asin, merged, changes, page)
      where t.project_id = ${scope.projectId} and t.marketplace = ${scope.marketplace}
        and t.postal_code = ${scope.postalCode} and t.asin = v.asin`.execute(trx);
  }

  async list(filter: TrackedTargetFilter): Promise<{ rows: TrackedTargetRow[]; total: number }> {
    let q = this.db.selectFrom('tracked_target').where('project_id', '=', filter.projectId).where('latest_snapshot', 'is not', null);
    if (filter.marketplace) q = q.where('marketplace', '=', filter.marketplace);
    if (filter.postalCode !== undefined) q = q.where('postal_code', '=', filter.postalCode);
    if (filter.changedSince) q = q.where('last_changed_at', '>=', filter.changedSince);
    if (filter.q) {
      const like = filter.q.replace(/[\\%_]/g, (c) => `\\${c}`);
      q = q.where((eb) => eb.or([eb('asin', 'ilike', `${like}%`), eb(sql<string>`latest_snapshot->>'title'`, 'ilike', `%${like}%`)]));
    }
    const { field, direction } = filter.sort ?? { field: 'lastSeenAt', direction: 'desc' };
    // nulls (never changed, no price) last in either direction; asin and postal code make the order total
    const key = TRACKED_SORT_KEYS[field];
    const [rows, count] = await Promise.all([
      q
        .select(trackedTargetColumns)
        .orderBy(sql`${key} ${sql.raw(direction)} nulls last`)
        .orderBy('asin')
        .orderBy('postal_code')
        .orderBy('marketplace')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async findTarget(scope: SeriesScope, asin: string): Promise<TrackedTargetRow | undefined> {
    return this.db
      .selectFrom('tracked_target')
      .select(trackedTargetColumns)
      .where('project_id', '=', scope.projectId)
      .where('marketplace', '=', scope.marketplace)
      .where('postal_code', '=', scope.postalCode)
      .where('asin', '=', asin)
      .where('latest_snapshot', 'is not', null)
      .executeTakeFirst();
  }

  /**
   * A job's result items reduced to `fields`, those a result-set comparison reads
   * (COMPARED_ITEM_FIELDS in @crawl/jobs: identity, keyword position or best-seller list and
   * rank, and the monitored fields), in result order: target, then position. Each projection is
   * read by the rules of every stored item (readStoredFields in @crawl/core): a field the row
   * lacks, or holds in an older shape, reads as not observed. Pass a constant list: a reader is
   * compiled per list.
   */
  async comparableResults(job: { id: string; type: JobType }, fields: readonly string[]): Promise<Record<string, unknown>[]> {
    const projection = sql.join(fields.map((field) => sql`${sql.lit(field)}, data->${sql.lit(field)}`));
    const { rows } = await sql<{ data: Record<string, unknown> }>`
      select jsonb_build_object(${projection}) as data
      from result_item where job_id = ${job.id} order by target_idx, position`.execute(this.db);
    return rows.map((r) => readStoredFields(job.type, r.data, fields));
  }

  async timeline(scope: SeriesScope, asin: string, limit: number): Promise<ProductSnapshotRow[]> {
    return this.db
      .selectFrom('product_snapshot')
      .select(snapshotColumns)
      .where('project_id', '=', scope.projectId)
      .where('marketplace', '=', scope.marketplace)
      .where('postal_code', '=', scope.postalCode)
      .where('asin', '=', asin)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
