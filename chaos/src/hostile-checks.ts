/** The checks of the hostile tenants (hostile.ts): each returns rows of the final table. */
import { type Db, sql } from '@crawl/db';
import type { CheckResult } from './checks';
import type { Canary, HostileStats, HostileTenants } from './hostile';

const BUCKET_S = 2;

/** The formats of an export, and how many items a whole body of each holds (-1: not a whole body). */
const EXPORT_FORMATS: Record<string, (body: string) => number> = {
  json: (body) => (JSON.parse(body) as unknown[]).length,
  csv: (body) => body.split('\r\n').filter(Boolean).length - 1, // the seeded rows have no line breaks in cells
  llm: (body) => (JSON.parse(body) as { items: unknown[] }).items.length,
};

function itemsOf(format: string, body: string): number {
  try {
    return EXPORT_FORMATS[format]!(body);
  } catch {
    return -1; // a truncated or error body: reported by the caller
  }
}

/**
 * The aborted downloads left nothing behind: no backend of the run is stuck mid-query, every
 * gateway is ready, and a full export of the large job completes on each gateway, in every format.
 */
async function poolRecovered(db: Db, hostile: HostileTenants, stats: HostileStats, gateways: string[]): Promise<CheckResult> {
  const stuck = await sql<{ n: number; sample: string | null }>`
    select count(*)::int as n, min(left(query, 80)) as sample from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query_start < now() - interval '30 seconds'`.execute(
    db,
  );
  const problems: string[] = [];
  if (stuck.rows[0]!.n) problems.push(`${stuck.rows[0]!.n} connections busy for over 30 s (${stuck.rows[0]!.sample})`);
  for (const url of gateways) {
    const ready = await fetch(`${url}/readyz`)
      .then((r) => r.status)
      .catch(() => 0);
    if (ready !== 200) problems.push(`${url}/readyz answered ${ready}`);
    for (const format of Object.keys(EXPORT_FORMATS)) {
      const started = Date.now();
      const res = await fetch(`${url}/v1/key/jobs/${hostile.exportJobId}/export?format=${format}`, {
        headers: { Authorization: `Bearer ${hostile.exporter.apiKey}` },
        signal: AbortSignal.timeout(60_000),
      }).catch((err: Error) => ({ status: 0, text: async () => err.message }));
      const body = await res.text();
      const rows = res.status === 200 ? itemsOf(format, body) : -1;
      if (res.status !== 200 || rows !== hostile.exportRows)
        problems.push(
          `full ${format} export on ${url}: ${res.status}, ${rows} rows of ${hostile.exportRows}${res.status >= 500 ? ` (${body.slice(0, 160)})` : ''}`,
        );
      else if (Date.now() - started > 30_000) problems.push(`full ${format} export on ${url} took ${Date.now() - started} ms`);
    }
  }
  const other = Object.entries(stats.exportOther)
    .map(([s, n]) => `${s} x${n}`)
    .join(', ');
  return {
    check: 'pool recovers after aborted exports',
    ok: problems.length === 0 && stats.exportsAborted > 0,
    details: `${stats.exportsAborted} downloads aborted mid-stream, ${stats.exportsCapped} refused by the per-project cap (429)${other ? `, other ${other}` : ''}; ${problems.length ? problems.join('; ') : `then a full ${hostile.exportRows}-row export in every format (${Object.keys(EXPORT_FORMATS).join(', ')}) and /readyz answered on every gateway, no stuck connection`}`,
  };
}

/**
 * The exporter's downloads were only ever answered 200, 429 (its cap) or 503 UNAVAILABLE (a
 * gateway shutting down or out of export capacity, docs/http-api.md): any other 5xx is a server
 * error, e.g. a stored row of an older shape that an export format could not read.
 */
function exportsAnswered(stats: HostileStats): CheckResult {
  const errors = Object.entries(stats.exportOther).filter(([status]) => Number(status) >= 500 && Number(status) !== 503);
  const answered = stats.exportsStarted + stats.exportsCapped + Object.values(stats.exportOther).reduce((a, n) => a + n, 0);
  return {
    check: 'exports: no 5xx but 503',
    ok: errors.length === 0 && answered > 0,
    details: `${answered} export requests answered: ${stats.exportsStarted} x 200, ${stats.exportsCapped} x 429${Object.entries(
      stats.exportOther,
    )
      .map(([s, n]) => `, ${n} x ${s}`)
      .join('')}${errors.length ? `; server errors: ${errors.map(([s, n]) => `${s} x${n}`).join(', ')}` : ''}`,
  };
}

/** No worker request reached the canary, and the submitter's jobs show only generic messages. */
async function egressContained(db: Db, hostile: HostileTenants, stats: HostileStats, canary: Canary): Promise<CheckResult> {
  const messages = await sql<{ message: string }>`
    select distinct coalesce(t.error_message, '') as message from job_target t join job j on j.id = t.job_id
    where j.project_id = ${hostile.submitter.projectId} and t.error_message is not null`.execute(db);
  const revealing = messages.rows
    .map((r) => r.message)
    .filter((m) => /127\.0\.0\.1|localhost|:\d{2,5}\b|ECONN|EAI_|ENOTFOUND|https?:\/\//i.test(m));
  const ok = canary.hits.length === 0 && revealing.length === 0 && stats.offMarketJobs.length + stats.offMarketRefused > 0;
  return {
    check: 'no request leaves the marketplace origin',
    ok,
    details: `${stats.offMarketJobs.length} jobs of crafted targets accepted (crawled as their ASIN), ${stats.offMarketRefused} refused; canary requests ${canary.hits.length}${canary.hits.length ? ` (${canary.hits.slice(0, 3).join(', ')})` : ''}; tenant-visible messages naming an address: ${revealing.length}${revealing.length ? ` (${revealing.slice(0, 2).join(' | ')})` : ''}`,
  };
}

/**
 * Per-organization fairness while the flooder (50 jobs) had a backlog: in each 2 s bucket
 * where the flooder and k other organizations all had targets waiting, a fair share gives the
 * others k/(k+1) of the crawls. They must get at least half of that over the run (per-job
 * fairness gave them about k/(50+k)), or else have been served at once (below).
 */
async function fairShare(db: Db, flooderOrg: string, orgs: string[]): Promise<CheckResult> {
  const rows = await sql<{ b: Date; org: string; backlog: boolean; crawls: number }>`
    with targets as (
      select j.organization_id as org, j.created_at as c, t.finished_at as f, t.status
      from job_target t join job j on j.id = t.job_id where j.organization_id = any(${orgs}::text[])
    ),
    span as (select min(c) as lo, max(coalesce(f, now())) as hi from targets),
    buckets as (select generate_series(date_trunc('second', lo), hi, make_interval(secs => ${BUCKET_S})) as b from span),
    backlog as (
      select b, org from buckets, targets
      where c <= b and (f is null or f >= b + make_interval(secs => ${BUCKET_S})) group by b, org
    ),
    crawls as (
      select b, org, count(*)::int as n from buckets, targets
      where f >= b and f < b + make_interval(secs => ${BUCKET_S}) and status in ('succeeded', 'failed') group by b, org
    )
    select coalesce(k.b, c.b) as b, coalesce(k.org, c.org) as org, k.org is not null as backlog, coalesce(c.n, 0) as crawls
    from backlog k full join crawls c on c.b = k.b and c.org = k.org`.execute(db);
  const buckets = new Map<number, { backlog: Set<string>; crawls: Map<string, number> }>();
  for (const r of rows.rows) {
    const key = new Date(r.b).getTime();
    const bucket = buckets.get(key) ?? { backlog: new Set(), crawls: new Map() };
    if (r.backlog) bucket.backlog.add(r.org);
    bucket.crawls.set(r.org, r.crawls);
    buckets.set(key, bucket);
  }
  let contested = 0;
  let total = 0;
  let others = 0;
  let fair = 0;
  for (const bucket of buckets.values()) {
    const k = [...bucket.backlog].filter((o) => o !== flooderOrg).length;
    if (!bucket.backlog.has(flooderOrg) || k === 0) continue;
    const all = [...bucket.crawls.values()].reduce((a, n) => a + n, 0);
    const theirs = [...bucket.crawls].filter(([o]) => o !== flooderOrg).reduce((a, [, n]) => a + n, 0);
    contested += 1;
    total += all;
    others += theirs;
    fair += (all * k) / (k + 1);
  }
  const pct = (x: number) => (total ? `${((100 * x) / total).toFixed(1)} %` : 'n/a');
  const shared = contested > 0 && total > 0 && others >= 0.5 * fair;
  // The others may also never wait a whole bucket (a fleet fast enough serves their targets at
  // once), or wait in only a few, where a target resting before its retry counts as waiting too.
  // Prompt service during the flooder's backlog is the other evidence: enough of their targets came
  // in meanwhile, and nine in ten were crawled within one bucket of their job's creation (per-job
  // fairness made them wait behind 50 jobs, and gave them about k/(50+k) of each bucket).
  const { rows: served } = await sql<{ n: number; p90: number | null; longest: number | null }>`
    with flood as (
      -- from its first job's creation until its last job ended (finished, or cancelled when the load stopped)
      select min(created_at) as lo, max(coalesce(finished_at, now())) as hi from job where organization_id = ${flooderOrg}
    ),
    waits as (
      select extract(epoch from (t.finished_at - j.created_at))::float8 as wait
      from job_target t join job j on j.id = t.job_id, flood
      where j.organization_id = any(${orgs}::text[]) and j.organization_id <> ${flooderOrg}
        and j.created_at between flood.lo and flood.hi and t.status in ('succeeded', 'failed')
    )
    select count(*)::int as n, percentile_cont(0.9) within group (order by wait) as p90, max(wait) as longest from waits`.execute(db);
  const { n, p90, longest } = served[0] ?? { n: 0, p90: null, longest: null };
  const prompt = n >= 20 && p90 !== null && p90 < BUCKET_S;
  return {
    check: 'fair share per organization',
    ok: shared || prompt,
    details:
      `${contested} buckets of ${BUCKET_S} s with the 50-job flooder and others waiting: others got ${others} of ${total} crawls (${pct(others)}), a fair share is ${pct(fair)} (half of it: ${shared ? 'met' : 'not met'}); ` +
      `${n} of their targets came in during the flooder's backlog, crawled within ${p90 === null ? 'n/a' : p90.toFixed(2)} s of their job (p90; longest ${longest === null ? 'n/a' : longest.toFixed(2)} s; under ${BUCKET_S} s: ${prompt ? 'met' : 'not met'}); either is required`,
  };
}

export async function hostileChecks(input: {
  db: Db;
  hostile: HostileTenants;
  stats: HostileStats;
  canary: Canary;
  gateways: string[];
  /** Every organization that crawled during the run (the flooder's included). */
  orgs: string[];
}): Promise<CheckResult[]> {
  return [
    exportsAnswered(input.stats),
    await poolRecovered(input.db, input.hostile, input.stats, input.gateways),
    await egressContained(input.db, input.hostile, input.stats, input.canary),
    await fairShare(input.db, input.hostile.flooder.organizationId, input.orgs),
  ];
}
