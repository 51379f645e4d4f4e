import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import IORedis from 'ioredis';
import { type Db, sql } from '@crawl/db';
import { PARSE_PROCESS_NODE_FLAGS, parseDetailsPage, parsePage } from '@crawl/marketplace';
import { createTenant, freePort, ServiceProcess, waitForHttp } from '@crawl/testing';
import { loadWorkerConfig } from '@crawl/worker';
import { postBigRun, timeSmallJob, waitForJobs } from './jobs';
import { cpuSeconds, metricSum, parseRate, threadCpuSeconds, threadCpuSplit } from './measure';
import { deleteRedisPrefix, openBenchStore, table } from './processes';

/**
 * `pnpm bench crawl-scale`: crawling through proxy exits against a simulator that behaves like
 * the marketplace: p50 800 ms / p99 3 s latency, 50 exits that each serve robot checks to more
 * than 1 request/s or to a crawler that drops its cookies. Worker settings are the defaults.
 * (a) the parse ceiling of one core on the pages served, (b) 1 worker process, (c) 2, (d) 1
 * worker with half the targets in jobs that ask for a delivery location (`config.postalCode`,
 * BENCH_POSTAL_CODES, comma-separated): each (exit, postal code) sets its location once, so (d)
 * must stay within 10 % of (b) in throughput and worker CPU per page.
 */
const TARGETS = Number(process.env.BENCH_TARGETS ?? 1500);
const EXITS = Number(process.env.BENCH_EXITS ?? 50);
/** BENCH_TRACE=1 prints each worker's load gauges every 2 s (to see how the concurrency controller behaves). */
const TRACE = process.env.BENCH_TRACE === '1';
const TRACED = [
  'crawl_concurrency',
  'crawl_in_flight',
  'crawl_exit_waiting',
  'crawl_parse_queue',
  'crawl_parse_waiting',
  'nodejs_eventloop_lag_p99_seconds',
  'process_resident_memory_bytes',
];
const TEMPLATE = 'details-US-B0DR8G428S.html';
/** A worker's parser threads when CRAWL_PARSE_THREADS is not set (the bench leaves it unset). */
const PARSER_THREADS = Math.max(1, availableParallelism() - 1);
/** Worker CPU (all threads) per crawled details page, in CPU seconds: the cost a worker pod is sized by. */
const CPU_PER_PAGE_TARGET = 0.025;
const POSTAL_CODES = (process.env.BENCH_POSTAL_CODES ?? '10001').split(',').filter(Boolean);
/** How far (d), with delivery locations, may fall behind (b) in throughput and CPU per page. */
const LOCATED_TOLERANCE = 0.1;

interface Sample {
  workers: number;
  /** Half the targets crawled for a postal code (run d). */
  located: boolean;
  /** Location setups the workers made (all outcomes), and their sessions' estimated heap at the end. */
  locationSetups: number;
  locationSessionKb: number;
  seconds: number;
  targetsPerSec: number;
  workerCpuPerTarget: number;
  /** Where it went: the workers' main threads (event loops), their parser threads, the rest (V8's GC helpers, libuv). */
  loopCpuPerTarget: number;
  parserCpuPerTarget: number;
  restCpuPerTarget: number;
  allCpuPerTarget: number;
  blockedPct: number;
  peakRssMb: number;
  lagP99Ms: number;
  /** Mean share of the time the workers' parser threads were parsing. */
  parseBusyPct: number;
  smallJobSeconds: number | null;
  postgresCpuPer100: number;
  redisCpuPer100: number;
  redisCommandsPerPage: number;
  postgresCommitsPerPage: number;
}

/** CPU seconds of every process whose command matches `pattern` (Postgres, Redis), summed. */
function cpuOf(pattern: string): number {
  let pids: number[] = [];
  try {
    pids = execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return 0;
  }
  return pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
}

async function redisCommands(redis: IORedis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
}

async function postgresCommits(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select sum(xact_commit)::text as n from pg_stat_database`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The product pages the ceiling is measured on, fetched one at a time: the simulator's anti-bot
 * rules apply to its direct port too, and parallel fetches over 1 request/s would measure the
 * parser on robot-check pages (an early version did, and reported a ceiling 2.7x too high).
 * Each page must parse to its own ASIN.
 */
async function ceilingPages(sim: string, asins: string[]): Promise<Buffer[]> {
  const pages: Buffer[] = [];
  for (const asin of asins) {
    if (pages.length) await new Promise((r) => setTimeout(r, 1_200));
    const page = Buffer.from(await (await fetch(`${sim}/dp/${asin}`)).arrayBuffer());
    const item = parseDetailsPage(page, { marketplace: 'US', origin: 'https://www.amazon.com' });
    if (item?.asin !== asin) throw new Error(`ceiling page for ${asin} is not that product's page (${page.length} bytes)`);
    pages.push(page);
  }
  return pages;
}

async function run(
  workers: number,
  ctx: { db: Db; redis: IORedis; gw: string; env: Record<string, string>; sim: string; others: ServiceProcess[] },
  located = false,
): Promise<Sample> {
  const big = await createTenant(ctx.db, { plan: 'enterprise', credits: 10_000_000, name: `bench scale big ${workers}` });
  const small = await createTenant(ctx.db, { plan: 'enterprise', credits: 1_000, name: `bench scale small ${workers}` });
  await fetch(`${ctx.sim}/__sim/exits`, { method: 'DELETE' });
  const ports = await Promise.all(Array.from({ length: workers }, () => freePort()));
  const procs = ports.map((port) =>
    ServiceProcess.start(
      'worker',
      'services/worker/dist/main.js',
      { ...ctx.env, METRICS_PORT: String(port) },
      [],
      // The worker's own command-line options, as in production (infra/base/worker.yaml);
      // BENCH_CPU_PROF_DIR=dir: each worker writes CPU profiles (one per thread) there as it stops;
      // BENCH_WORKER_NODE_ARGS: node and V8 options for the workers, to try one (`--v8-pool-size=2`);
      // BENCH_WORKER_DEFAULT_GC=1 leaves the worker's options out (V8's default collector, to compare).
      [
        ...(process.env.BENCH_WORKER_DEFAULT_GC === '1' ? [] : PARSE_PROCESS_NODE_FLAGS),
        ...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : []),
        ...(process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
    ),
  );
  try {
    await Promise.all(ports.map((p) => waitForHttp(`http://127.0.0.1:${p}/healthz`)));
    const run = randomBytes(2).toString('hex').toUpperCase();
    const targets = Array.from({ length: TARGETS }, (_, i) => `B0${run}${String(i).padStart(4, '0')}`);

    const cpu0 = procs.map((p) => cpuSeconds(p.pid!) ?? 0);
    const threads0 = procs.map((p) => threadCpuSeconds(p.pid!));
    const others0 = ctx.others.map((p) => cpuSeconds(p.pid!) ?? 0);
    const [pg0, redis0, cmd0, commits0] = [
      cpuOf('postgres'),
      cpuOf('redis-server'),
      await redisCommands(ctx.redis),
      await postgresCommits(ctx.db),
    ];
    const started = Date.now();
    const bigJobs = located ? await postLocatedRun(ctx.gw, big, targets) : await postBigRun(ctx.gw, big, targets);

    // event-loop lag: each scrape reports the p99 since the previous one (packages/observability)
    let lagP99 = 0;
    const lagPoll = setInterval(() => {
      void Promise.all(ports.map((p) => fetch(`http://127.0.0.1:${p}/metrics`).then((r) => r.text()))).then(
        (texts) =>
          texts.forEach((t, i) => {
            lagP99 = Math.max(lagP99, metricSum(t, 'nodejs_eventloop_lag_p99_seconds'));
            if (TRACE)
              console.log(
                `  [${((Date.now() - started) / 1000).toFixed(0)} s, worker ${i + 1}] ${TRACED.map((m) => `${m.replace(/^crawl_|^process_/, '')} ${+metricSum(t, m).toFixed(3)}`).join(', ')}`,
              );
          }),
        () => undefined,
      );
    }, 2_000);
    const small5s = timeSmallJob(ctx.db, ctx.gw, small, `B0${run}SMAL`, 5_000);
    await waitForJobs(ctx.db, bigJobs, false);
    const seconds = (Date.now() - started) / 1000;
    clearInterval(lagPoll);
    const smallJobSeconds = await small5s;
    // read before the workers stop: since start, so over this run
    const metrics = await Promise.all(ports.map((p) => fetch(`http://127.0.0.1:${p}/metrics`).then((r) => r.text())));
    const busy = metrics.map((t) => metricSum(t, 'crawl_parse_utilization'));
    const ofAll = (metric: string) => metrics.reduce((sum, t) => sum + metricSum(t, metric), 0);
    const workerCpu = procs.reduce((sum, p, i) => sum + ((cpuSeconds(p.pid!) ?? 0) - cpu0[i]!), 0);
    const split = procs.map((p, i) => threadCpuSplit(p.pid!, threads0[i]!, threadCpuSeconds(p.pid!), PARSER_THREADS));
    const splitSum = (part: 'main' | 'busiest' | 'rest') => split.reduce((sum, s) => sum + s[part], 0);
    const othersCpu = ctx.others.reduce((sum, p, i) => sum + ((cpuSeconds(p.pid!) ?? 0) - others0[i]!), 0);
    const [pgCpu, redisCpu] = [cpuOf('postgres') - pg0, cpuOf('redis-server') - redis0];
    const [commands, commits] = [(await redisCommands(ctx.redis)) - cmd0, (await postgresCommits(ctx.db)) - commits0];
    const exits = (await (await fetch(`${ctx.sim}/__sim/exits`)).json()) as { requests: number; blocked: number }[];
    const requests = exits.reduce((n, e) => n + e.requests, 0);
    const blocked = exits.reduce((n, e) => n + e.blocked, 0);
    const pages = TARGETS + 1;
    const per100 = (cpu: number) => (cpu / seconds) * (100 / (pages / seconds));
    return {
      workers,
      located,
      locationSetups: ofAll('crawl_location_setups_total'),
      locationSessionKb: ofAll('crawl_location_session_bytes') / 1024,
      seconds,
      targetsPerSec: TARGETS / seconds,
      workerCpuPerTarget: workerCpu / pages,
      loopCpuPerTarget: splitSum('main') / pages,
      parserCpuPerTarget: splitSum('busiest') / pages,
      restCpuPerTarget: splitSum('rest') / pages,
      allCpuPerTarget: (workerCpu + othersCpu + pgCpu + redisCpu) / pages,
      blockedPct: requests ? (100 * blocked) / requests : 0,
      peakRssMb: Math.max(...procs.map((p) => p.peakRss())) / 1048576,
      lagP99Ms: lagP99 * 1000,
      parseBusyPct: (100 * busy.reduce((a, b) => a + b, 0)) / busy.length,
      smallJobSeconds,
      postgresCpuPer100: per100(pgCpu),
      redisCpuPer100: per100(redisCpu),
      redisCommandsPerPage: commands / pages,
      postgresCommitsPerPage: commits / pages,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

/** The run's targets, the second half in jobs for the postal codes (in turn): the first half's jobs as postBigRun's. */
async function postLocatedRun(gateway: string, tenant: Parameters<typeof postBigRun>[1], targets: string[]): Promise<string[]> {
  const half = Math.ceil(targets.length / 2);
  const ids = await postBigRun(gateway, tenant, targets.slice(0, half));
  const located = targets.slice(half);
  const share = Math.ceil(located.length / POSTAL_CODES.length);
  for (const [i, postalCode] of POSTAL_CODES.entries())
    ids.push(...(await postBigRun(gateway, tenant, located.slice(i * share, (i + 1) * share), { postalCode })));
  return ids;
}

export async function benchCrawlScale(): Promise<void> {
  const { dbUrl, redisUrl, prefix, db } = await openBenchStore();
  const redis = new IORedis(redisUrl);
  const [simPort, gwPort] = [await freePort(), await freePort()];
  const simulator = ServiceProcess.start('simulator', 'packages/simulator/dist/main.js', {}, [
    '--port',
    String(simPort),
    '--details-template',
    TEMPLATE,
    '--exits',
    String(EXITS),
    '--latency',
    '800:3000',
    // blocks an exit over 1 request/s, or one that keeps coming without the cookie it was given
    '--max-rps',
    '1',
    '--max-cookieless-visits',
    '4',
    '--block-seconds',
    '60',
  ]);
  const common = { DATABASE_URL: dbUrl, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
  const gateway = ServiceProcess.start('gateway', 'services/gateway/dist/main.js', {
    ...common,
    PORT: String(gwPort),
    RATE_LIMIT_ENABLED: 'false',
  });
  const sim = `http://127.0.0.1:${simPort}`;
  const samples: Sample[] = [];
  let ceiling = 0;
  let exitCapacity = 0;
  try {
    await waitForHttp(`${sim}/__sim/health`);
    await waitForHttp(`http://127.0.0.1:${gwPort}/healthz`);
    // (a) what one core parses of the pages the simulator serves (different ASINs, one template),
    // doing what a worker's parser thread does with a page's bytes: robot-check probe, parse
    const pages = await ceilingPages(sim, ['B0CEILING1', 'B0CEILING2', 'B0CEILING3']);
    ceiling = parseRate(pages, (html) => parsePage({ type: 'details', html, marketplace: 'US', origin: 'https://www.amazon.com' }));
    const exitUrls = ((await (await fetch(`${sim}/__sim/exits`)).json()) as { url: string }[]).map((e) => e.url);
    const env = { ...common, MARKETPLACE_ORIGIN_OVERRIDE: sim, PROXY_URLS: exitUrls.join(',') };
    // What the workers' exits may send per second in all, read as the workers read their config.
    exitCapacity = loadWorkerConfig({ ...process.env, ...env }).exits.reduce((sum, exit) => sum + exit.rps, 0);
    const ctx = { db, redis, gw: `http://127.0.0.1:${gwPort}`, env, sim, others: [simulator, gateway] };
    // (d) right after (b): the two compared, in conditions as close as one run gives
    samples.push(await run(1, ctx));
    samples.push(await run(1, ctx, true));
    samples.push(await run(2, ctx));
  } finally {
    await Promise.all([simulator.stop(), gateway.stop()]);
    await sql`delete from job where project_id in (select id from project where name like 'bench scale %')`.execute(db);
    await deleteRedisPrefix(redisUrl, prefix);
    redis.disconnect();
    await db.destroy();
  }
  console.log(
    `\n(a) parse ceiling, one core: a parser thread's whole step, from a page's bytes to its item, on pages served by the simulator (${TEMPLATE} per ASIN): ${ceiling.toFixed(1)} pages/s`,
  );
  console.log(
    `\n${TARGETS} details targets through ${EXITS} exits (p50 800 ms, p99 3 s; an exit over 1 request/s is blocked 60 s), default worker settings, everything on this machine's 2 cores:\n${table(
      samples.map((s) => ({
        workers: `(${s.located ? 'd' : s.workers === 1 ? 'b' : 'c'}) ${s.workers}${s.located ? ', half located' : ''}`,
        'wall s': s.seconds.toFixed(1),
        'targets/s': s.targetsPerSec.toFixed(1),
        'x one-core ceiling': (s.targetsPerSec / ceiling).toFixed(2),
        'x exit capacity': (s.targetsPerSec / exitCapacity).toFixed(2),
        'worker CPU s/target': s.workerCpuPerTarget.toFixed(4),
        'loop / parser / rest': [s.loopCpuPerTarget, s.parserCpuPerTarget, s.restCpuPerTarget].map((x) => x.toFixed(4)).join(' / '),
        'all CPU s/target': s.allCpuPerTarget.toFixed(4),
        'blocked %': s.blockedPct.toFixed(2),
        'worker peak RSS MB': s.peakRssMb.toFixed(0),
        'lag p99 ms': s.lagP99Ms.toFixed(0),
        'parser busy %': s.parseBusyPct.toFixed(0),
        'small job s': s.smallJobSeconds?.toFixed(2) ?? 'did not finish',
        'location setups': s.locationSetups,
        'sessions KB': s.locationSessionKb.toFixed(0),
      })),
    )}`,
  );
  console.log(
    `\nstore load per 100 pages/s (for infra/README.md "Capacity"):\n${table(
      samples.map((s) => ({
        workers: s.workers,
        'Postgres CPU cores': s.postgresCpuPer100.toFixed(2),
        'Postgres commits/page': s.postgresCommitsPerPage.toFixed(1),
        'Redis CPU cores': s.redisCpuPer100.toFixed(2),
        'Redis commands/page': s.redisCommandsPerPage.toFixed(1),
      })),
    )}`,
  );
  const one = samples[0]!;
  const located = samples.find((s) => s.located)!;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  // A worker cannot crawl faster than the exits let it: once the parse is faster than that, the
  // exits are the bound it is held to.
  const bound = Math.min(ceiling, exitCapacity);
  const boundName = bound === ceiling ? 'one-core parse ceiling' : `exit capacity (${EXITS} exits, ${exitCapacity.toFixed(0)} requests/s)`;
  console.log(`\ntargets:`);
  console.log(
    `1 worker >= 0.7x the lesser of the one-core parse ceiling and the exit capacity, here the ${boundName}: ${verdict(one.targetsPerSec >= 0.7 * bound)} (${(one.targetsPerSec / bound).toFixed(2)})`,
  );
  console.log(
    `worker CPU per details page <= ${CPU_PER_PAGE_TARGET} CPU-s: ${verdict(samples.every((s) => s.workerCpuPerTarget <= CPU_PER_PAGE_TARGET))} (${samples.map((s) => s.workerCpuPerTarget.toFixed(4)).join(', ')})`,
  );
  console.log(
    `blocked requests < 2%: ${verdict(samples.every((s) => s.blockedPct < 2))} (${samples.map((s) => s.blockedPct.toFixed(2)).join(', ')})`,
  );
  console.log(
    `worker peak RSS < 500 MB: ${verdict(samples.every((s) => s.peakRssMb < 500))} (${samples.map((s) => s.peakRssMb.toFixed(0)).join(', ')})`,
  );
  console.log(
    `event-loop lag p99 < 50 ms: ${verdict(samples.every((s) => s.lagP99Ms < 50))} (${samples.map((s) => s.lagP99Ms.toFixed(0)).join(', ')})`,
  );
  console.log(
    `(d) half the targets for ${POSTAL_CODES.length} postal code(s): throughput >= ${1 - LOCATED_TOLERANCE}x (b): ${verdict(located.targetsPerSec >= (1 - LOCATED_TOLERANCE) * one.targetsPerSec)} (${(located.targetsPerSec / one.targetsPerSec).toFixed(2)}); worker CPU per page <= ${1 + LOCATED_TOLERANCE}x (b): ${verdict(located.workerCpuPerTarget <= (1 + LOCATED_TOLERANCE) * one.workerCpuPerTarget)} (${(located.workerCpuPerTarget / one.workerCpuPerTarget).toFixed(2)}); ${located.locationSetups} setups for ${EXITS} exits x ${POSTAL_CODES.length} code(s), sessions ${located.locationSessionKb.toFixed(0)} KB`,
  );
  console.log(
    `small job of another tenant < 5 s: ${verdict(samples.every((s) => s.smallJobSeconds !== null && s.smallJobSeconds < 5))} (${samples.map((s) => s.smallJobSeconds?.toFixed(2) ?? '-').join(', ')})`,
  );
}
