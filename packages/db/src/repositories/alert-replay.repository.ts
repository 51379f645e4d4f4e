import { sql } from 'kysely';
import type { Db } from '../connection';

/** One stored observation, as a rule preview replays it. */
export interface StoredSeriesObservation {
  source: string;
  capturedAt: Date;
  snapshot: unknown;
}

/** One product series of a project with what a preview reads of it (docs/alerts.md, "Preview"). */
export interface StoredSeries {
  asin: string;
  marketplace: string;
  postalCode: string;
  seed: StoredSeriesObservation[];
  observations: StoredSeriesObservation[];
  prices: { capturedAt: Date; price: number }[];
}

export interface ReplayScope {
  projectId: string;
  marketplace: string | null;
  postalCode: string | null;
  asins: string[] | null;
  from: Date;
  to: Date;
  /** The job types that observe a product page: only their snapshots move what rules read. */
  sources: readonly string[];
  /** Whether to read the page prices of the 30 days before each observation (the medians). */
  prices: boolean;
  maxSeries: number;
  maxSnapshots: number;
}

type SeriesKey = { asin: string; marketplace: string; postal_code: string };
const keyOf = (r: SeriesKey) => `${r.marketplace} ${r.asin} ${r.postal_code}`;

/**
 * Reads a project's stored snapshots for a rule preview, bounded: at most `maxSeries` series
 * seen in the period and `maxSnapshots` of their observations in it (a series that would pass
 * the second is left out whole, so none is replayed in part); `truncated` says so. Every read is
 * a range of a per-series index of one project.
 */
export class AlertReplayRepository {
  constructor(private readonly db: Db) {}

  async read(scope: ReplayScope): Promise<{ series: StoredSeries[]; truncated: boolean }> {
    let q = this.db
      .selectFrom('tracked_target')
      .select(['asin', 'marketplace', 'postal_code'])
      .where('project_id', '=', scope.projectId)
      .where('last_seen_at', '>=', scope.from);
    if (scope.marketplace) q = q.where('marketplace', '=', scope.marketplace);
    if (scope.postalCode !== null) q = q.where('postal_code', '=', scope.postalCode);
    if (scope.asins) q = q.where('asin', '=', sql<string>`any(${scope.asins}::text[])`);
    const found = await q
      .orderBy('marketplace')
      .orderBy('asin')
      .orderBy('postal_code')
      .limit(scope.maxSeries + 1)
      .execute();
    let truncated = found.length > scope.maxSeries;
    const keys = found.slice(0, scope.maxSeries);
    if (!keys.length) return { series: [], truncated };

    const list = sql`unnest(${keys.map((k) => k.marketplace)}::text[], ${keys.map((k) => k.asin)}::text[], ${keys.map((k) => k.postal_code)}::text[]) as s(marketplace, asin, postal_code)`;
    const sources = sql`${[...scope.sources]}::text[]`;
    const { rows: observed } = await sql<SeriesKey & { source: string; captured_at: Date; snapshot: unknown }>`
      select p.asin, p.marketplace, p.postal_code, p.source, p.captured_at, p.snapshot
      from ${list}
      join product_snapshot p on p.project_id = ${scope.projectId} and p.marketplace = s.marketplace
        and p.asin = s.asin and p.postal_code = s.postal_code
      where p.source = any(${sources}) and p.captured_at >= ${scope.from} and p.captured_at <= ${scope.to}
      order by p.marketplace, p.asin, p.postal_code, p.id
      limit ${scope.maxSnapshots + 1}`.execute(this.db);
    let kept = keys;
    if (observed.length > scope.maxSnapshots) {
      // the last series read may be incomplete: leave it out
      truncated = true;
      const last = keyOf(observed[scope.maxSnapshots]!);
      while (observed.length && keyOf(observed.at(-1)!) === last) observed.pop();
      const reached = new Set(observed.map(keyOf));
      kept = keys.filter((k) => reached.has(keyOf(k)));
    }
    if (!kept.length) return { series: [], truncated };
    const keptList = sql`unnest(${kept.map((k) => k.marketplace)}::text[], ${kept.map((k) => k.asin)}::text[], ${kept.map((k) => k.postal_code)}::text[]) as s(marketplace, asin, postal_code)`;

    // each series' last observation of each page source before the period: its page state then
    const { rows: seeds } = await sql<SeriesKey & { source: string; captured_at: Date; snapshot: unknown }>`
      select s.asin, s.marketplace, s.postal_code, p.source, p.captured_at, p.snapshot
      from ${keptList}
      cross join unnest(${sources}) as src(source)
      cross join lateral (
        select source, captured_at, snapshot from product_snapshot
        where project_id = ${scope.projectId} and marketplace = s.marketplace and asin = s.asin
          and postal_code = s.postal_code and source = src.source and captured_at < ${scope.from}
        order by id desc limit 1) p
      order by p.captured_at`.execute(this.db);

    const prices = scope.prices
      ? (
          await sql<SeriesKey & { captured_at: Date; page_price: number }>`
            select p.asin, p.marketplace, p.postal_code, p.captured_at, p.page_price
            from ${keptList}
            join product_snapshot p on p.project_id = ${scope.projectId} and p.marketplace = s.marketplace
              and p.asin = s.asin and p.postal_code = s.postal_code
            where p.page_price is not null and p.captured_at >= ${new Date(scope.from.getTime() - 30 * 86_400_000)}
              and p.captured_at <= ${scope.to}
            order by p.captured_at`.execute(this.db)
        ).rows
      : [];

    const byKey = new Map<string, StoredSeries>(
      kept.map((k) => [
        keyOf(k),
        { asin: k.asin, marketplace: k.marketplace, postalCode: k.postal_code, seed: [], observations: [], prices: [] },
      ]),
    );
    for (const r of seeds) byKey.get(keyOf(r))!.seed.push({ source: r.source, capturedAt: r.captured_at, snapshot: r.snapshot });
    for (const r of observed) byKey.get(keyOf(r))!.observations.push({ source: r.source, capturedAt: r.captured_at, snapshot: r.snapshot });
    for (const r of prices) byKey.get(keyOf(r))!.prices.push({ capturedAt: r.captured_at, price: r.page_price });
    return { series: [...byKey.values()], truncated };
  }
}
