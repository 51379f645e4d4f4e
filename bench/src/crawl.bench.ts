import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDb, sql } from '@crawl/db';
import { parseBestsellersPage, parseDetailsPage, parseOffersPage, parseReviewsPage, parseSearchPage } from '@crawl/marketplace';
import { createTenant, freePort, REPO_ROOT as ROOT, ServiceProcess, waitForHttp } from '@crawl/testing';
import { postBigRun, timeSmallJob, waitForJobs } from './jobs';
import { histogramQuantile, parseRate } from './measure';
import { deleteRedisPrefix, table, openBenchStore } from './processes';

const FIXTURES = path.resolve(ROOT, '../shared/fixtures/amazon');
const TEMPLATE = 'details-US-B0DR8G428S.html';
const TARGETS = Number(process.env.BENCH_TARGETS ?? 2000);

interface RunFigures {
  workers: number;
  seconds: number;
  targetsPerSec: number;
  p50: number;
  p99: number;
  smallJobSeconds: number | null;
}

async function endToEnd(workers: number, env: Record<string, string>, db: ReturnType<typeof createDb>, gw: string): Promise<RunFigures> {
  const big = await createTenant(db, { plan: 'enterprise', credits: 10_000_000, name: `bench big ${workers}` });
  const small = await createTenant(db, { plan: 'enterprise', credits: 1_000, name: `bench small ${workers}` });
  const metricsPorts = await Promise.all(Array.from({ length: workers }, () => freePort()));
  const procs = metricsPorts.map((port) =>
    ServiceProcess.start('worker', 'services/worker/dist/main.js', { ...env, METRICS_PORT: String(port) }),
  );
  try {
    await Promise.all(metricsPorts.map((p) => waitForHttp(`http://127.0.0.1:${p}/healthz`)));
    const run = randomBytes(1).toString('hex').toUpperCase();
    const targets = Array.from({ length: TARGETS }, (_, i) => `B0${run}${String(i).padStart(6, '0')}`);
    const started = Date.now();
    const bigJobs = await postBigRun(gw, big, targets);
    const small3s = timeSmallJob(db, gw, small, `B0${run}SMALL1`, 3_000);
    await waitForJobs(db, bigJobs, true);
    const seconds = (Date.now() - started) / 1000;
    const smallJobSeconds = await small3s;
    const metrics = (await Promise.all(metricsPorts.map((p) => fetch(`http://127.0.0.1:${p}/metrics`).then((r) => r.text())))).join('\n');
    return {
      workers,
      seconds,
      targetsPerSec: TARGETS / seconds,
      p50: histogramQuantile(metrics, 'crawl_target_duration_seconds', 0.5) * 1000,
      p99: histogramQuantile(metrics, 'crawl_target_duration_seconds', 0.99) * 1000,
      smallJobSeconds,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

/**
 * `pnpm bench crawl`: (a) parser-only pages/s on one core (details, search, offers, best-seller
 * and review pages), (b) end-to-end targets/s of a
 * 2,000-target details job through gateway, queue, workers and the simulator (real fixture
 * page served on loopback) with 1 and 2 worker processes, and the latency of a 1-target job of
 * another project created while the big one runs.
 */
export async function benchCrawl(): Promise<void> {
  if (!fs.existsSync(FIXTURES)) throw new Error(`fixtures not found at ${FIXTURES}`);
  const files = fs.readdirSync(FIXTURES);
  // A page's bytes, as a worker's parser thread gets them.
  const read = (f: string) => fs.readFileSync(path.join(FIXTURES, f));
  const details = files.filter((f) => f.startsWith('details-')).map(read);
  const search = files.filter((f) => f.startsWith('search-')).map(read);
  const ctx = { marketplace: 'US', origin: 'https://www.amazon.com' };
  const parserDetails = parseRate(details, (h) => parseDetailsPage(h, ctx));
  const parserSearch = parseRate(search, (h) => parseSearchPage(h, ctx));
  const parserTemplate = parseRate([read(TEMPLATE)], (h) => parseDetailsPage(h, ctx));
  // The offers, bestsellers and reviews job types: one line each (a page of each kind is one target or one review page).
  const listings = (['offers', 'bestsellers', 'reviews'] as const).map((kind) => {
    const pages = files.filter((f) => f.startsWith(`${kind}-`)).map(read);
    const parse = { offers: parseOffersPage, bestsellers: parseBestsellersPage, reviews: parseReviewsPage }[kind];
    return { pages: `${kind}, all ${pages.length} fixtures`, 'pages/s': parseRate(pages, (h) => parse(h, ctx)).toFixed(1) };
  });
  console.log(
    `\n(a) parser only, one core:\n${table([
      { pages: `details, all ${details.length} fixtures`, 'pages/s': parserDetails.toFixed(1) },
      { pages: `search, all ${search.length} fixtures`, 'pages/s': parserSearch.toFixed(1) },
      { pages: `details, ${TEMPLATE} (served in (b))`, 'pages/s': parserTemplate.toFixed(1) },
      ...listings,
    ])}`,
  );

  const { dbUrl, redisUrl, prefix, db } = await openBenchStore();
  const simPort = await freePort();
  const gwPort = await freePort();
  const simulator = ServiceProcess.start('simulator', 'packages/simulator/dist/main.js', {}, [
    '--port',
    String(simPort),
    '--details-template',
    TEMPLATE,
  ]);
  const common = { DATABASE_URL: dbUrl, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
  const gateway = ServiceProcess.start('gateway', 'services/gateway/dist/main.js', {
    ...common,
    PORT: String(gwPort),
    RATE_LIMIT_ENABLED: 'false',
  });
  const workerEnv = {
    ...common,
    MARKETPLACE_ORIGIN_OVERRIDE: `http://127.0.0.1:${simPort}`,
    CRAWL_EXIT_RPS: '100000',
    CRAWL_CONCURRENCY: process.env.BENCH_WORKER_CONCURRENCY ?? '4',
    DATABASE_POOL_SIZE: '4',
  };
  const runs: RunFigures[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${simPort}/__sim/health`);
    await waitForHttp(`http://127.0.0.1:${gwPort}/healthz`);
    for (const workers of [1, 2]) runs.push(await endToEnd(workers, workerEnv, db, `http://127.0.0.1:${gwPort}`));
  } finally {
    await Promise.all([simulator.stop(), gateway.stop()]);
    await sql`delete from job where project_id in (select id from project where name like 'bench %')`.execute(db);
    await deleteRedisPrefix(redisUrl, prefix);
    await db.destroy();
  }
  console.log(
    `\n(b) end to end, ${TARGETS} details targets (jobs of at most 1,000; gateway + Redis + Postgres + simulator on the same 2 cores):\n${table(
      runs.map((r) => {
        const ceiling = parserTemplate * r.workers;
        return {
          workers: r.workers,
          'wall s': r.seconds.toFixed(1),
          'targets/s': r.targetsPerSec.toFixed(1),
          'x parser ceiling': `${(r.targetsPerSec / ceiling).toFixed(2)} (of ${ceiling.toFixed(0)}/s)`,
          'crawl p50 ms': r.p50.toFixed(0),
          'crawl p99 ms': r.p99.toFixed(0),
          '1-target job of another project, s': r.smallJobSeconds?.toFixed(2) ?? 'did not finish',
        };
      }),
    )}`,
  );
  const two = runs.find((r) => r.workers === 2)!;
  const ratio = two.targetsPerSec / (parserTemplate * 2);
  console.log(
    `\ntargets: 2 workers >= 0.6x parser ceiling: ${ratio >= 0.6 ? 'met' : 'MISSED'} (${ratio.toFixed(2)}); small job <= 5 s: ${two.smallJobSeconds !== null && two.smallJobSeconds <= 5 ? 'met' : 'MISSED'}`,
  );
}
