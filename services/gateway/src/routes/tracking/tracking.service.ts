import { AppError, type ComparisonResource, JOB_TYPES, type JobType, type TimelineResource, type TrackedTargetResource } from '@crawl/core';
import { type JobRepository, type SeriesScope, type TrackedTargetFilter, TrackingRepository } from '@crawl/db';
import { assertResultsAvailable } from '../jobs/job-results.service';
import {
  COMPARED_ITEM_FIELDS,
  type CompareRule,
  completeSnapshot,
  diffSnapshot,
  JOBS_KINDS,
  MONITORED_FIELDS,
  type MonitoredField,
  type ProductSnapshot,
  SEARCH_FIELDS,
} from '@crawl/jobs';
import type { GatewayContext } from '../../context';

/** The job types whose results compare (products field by field, search positions, list ranks): their module says how. */
const COMPARABLE_TYPES = JOB_TYPES.filter((type) => JOBS_KINDS[type].compare);
const COMPARABLE_LIST = `${COMPARABLE_TYPES.slice(0, -1).join(', ')} and ${COMPARABLE_TYPES.at(-1)}`;

export interface TrackingDeps {
  jobs: JobRepository;
  tracking: TrackingRepository;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

interface SetEntry {
  asin: string;
  snapshot: ProductSnapshot;
  positions: Map<string, number>;
}

/** Tracked targets, timelines and result-set comparison. */
export class TrackingService {
  constructor(private readonly deps: TrackingDeps) {}

  async list(filter: TrackedTargetFilter) {
    const { rows, total } = await this.deps.tracking.list(filter);
    return {
      data: rows.map(
        (r) =>
          ({
            asin: r.asin,
            marketplace: r.marketplace,
            postalCode: r.postal_code || null,
            snapshot: r.latest_snapshot && completeSnapshot(r.latest_snapshot),
            changeCount: r.change_count,
            lastChangedAt: iso(r.last_changed_at),
            firstSeenAt: r.first_seen_at.toISOString(),
            lastSeenAt: r.last_seen_at.toISOString(),
          }) satisfies TrackedTargetResource,
      ),
      pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + filter.limit < total },
    };
  }

  async timeline(series: SeriesScope, asin: string, limit: number) {
    const { marketplace, postalCode } = series;
    const target = await this.deps.tracking.findTarget(series, asin);
    if (!target) {
      const where = postalCode ? ` for postal code ${postalCode}` : ' without a postal code';
      throw new AppError('NOT_FOUND', `Product ${asin} on ${marketplace} was never crawled${where} in this project.`);
    }
    const rows = await this.deps.tracking.timeline(series, asin, limit);
    return {
      data: rows.map((r) => ({
        jobId: r.job_id,
        source: r.source,
        capturedAt: r.captured_at.toISOString(),
        snapshot: completeSnapshot(r.snapshot),
        changes: r.changes,
      })),
      target: {
        asin,
        marketplace,
        postalCode: postalCode || null,
        changeCount: target.change_count,
        firstSeenAt: target.first_seen_at.toISOString(),
        lastSeenAt: target.last_seen_at.toISOString(),
      },
    } satisfies TimelineResource;
  }

  /**
   * One entry per ASIN (first occurrence), with its position per keyword for search sets: the
   * first, so best, overall position over the keyword's result pages (a product shown on several
   * pages, or sponsored and organic, moves when its best position does).
   */
  private async resultSet(job: { id: string; type: JobType }, rule: CompareRule): Promise<Map<string, SetEntry>> {
    const rows = await this.deps.tracking.comparableResults(job, COMPARED_ITEM_FIELDS[job.type]);
    const set = new Map<string, SetEntry>();
    for (const data of rows) {
      const asin = data.asin as string | null;
      if (!asin) continue;
      let entry = set.get(asin);
      if (!entry) {
        entry = { asin, snapshot: rule.snapshot(data), positions: new Map() };
        set.set(asin, entry);
      }
      // Positions per keyword (search) or ranks per list URL (best sellers), first (best) one.
      const ranked = rule.position(data);
      if (ranked && typeof ranked.position === 'number' && !entry.positions.has(ranked.list))
        entry.positions.set(ranked.list, ranked.position);
    }
    return set;
  }

  /**
   * Products only in `from`, only in `to`, and for products in both the monitored fields
   * that differ (same noise rules as change tracking). Search vs search also reports
   * position moves per keyword, bestsellers vs bestsellers rank moves per list URL; a details
   * set against a search or best-seller set compares only the fields a card shows, and says so.
   */
  async compare(projectId: string, fromId: string, toId: string): Promise<ComparisonResource> {
    const [from, to] = await Promise.all([this.deps.jobs.findInProject(fromId, projectId), this.deps.jobs.findInProject(toId, projectId)]);
    if (!from) throw new AppError('NOT_FOUND', `Job ${fromId} not found.`);
    if (!to) throw new AppError('NOT_FOUND', `Job ${toId} not found.`);
    const [fromRule, toRule] = [JOBS_KINDS[from.type].compare, JOBS_KINDS[to.type].compare];
    for (const job of [from, to]) {
      if (!JOBS_KINDS[job.type].compare) {
        const message = `job ${job.id} is a ${job.type} job; compare applies to ${COMPARABLE_LIST} jobs`;
        throw new AppError('VALIDATION_ERROR', `Cannot compare: ${message}.`, { details: [{ path: 'query', message }] });
      }
    }
    // Deleted results (by request or retention) are gone, as for results and export: comparing
    // against the empty set left would report every product as removed.
    for (const job of [from, to]) assertResultsAvailable(job);
    const [a, b] = await Promise.all([this.resultSet(from, fromRule!), this.resultSet(to, toRule!)]);
    const mixed = from.type !== to.type;
    const fields: MonitoredField[] = fromRule!.fields === 'product' && toRule!.fields === 'product' ? MONITORED_FIELDS : SEARCH_FIELDS;
    const changed: ComparisonResource['changed'] = [];
    const moved: ComparisonResource['moved'] = [];
    let inBoth = 0;
    for (const [asin, x] of a) {
      const y = b.get(asin);
      if (!y) continue;
      inBoth += 1;
      const pick = (s: ProductSnapshot) =>
        Object.fromEntries(MONITORED_FIELDS.map((f) => [f, fields.includes(f) ? s[f] : null])) as unknown as ProductSnapshot;
      const { changes } = diffSnapshot(pick(x.snapshot), pick(y.snapshot));
      if (changes.length) changed.push({ asin, changes });
      for (const [keyword, p] of x.positions) {
        const q = y.positions.get(keyword);
        if (q !== undefined && q !== p) moved.push({ asin, keyword, from: p, to: q, delta: q - p });
      }
    }
    const onlyInFrom = [...a.keys()].filter((k) => !b.has(k));
    const onlyInTo = [...b.keys()].filter((k) => !a.has(k));
    const job = (j: typeof from) => ({
      id: j.id,
      type: j.type,
      marketplace: j.marketplace,
      status: j.status,
      createdAt: j.created_at.toISOString(),
    });
    return {
      from: job(from),
      to: job(to),
      fieldsCompared: fields,
      ...(mixed
        ? {
            note: `a ${from.type} result set compared with a ${to.type} result set: only the fields a search card shows are compared, and positions are not`,
          }
        : {}),
      summary: { onlyInFrom: onlyInFrom.length, onlyInTo: onlyInTo.length, inBoth, changed: changed.length, moved: moved.length },
      onlyInFrom,
      onlyInTo,
      changed,
      moved,
    };
  }
}

/** The tracking resource's service, built from the gateway's shared infrastructure. */
export const createTrackingService = (ctx: Pick<GatewayContext, 'db' | 'jobs'>): TrackingService =>
  new TrackingService({ jobs: ctx.jobs, tracking: new TrackingRepository(ctx.db) });
