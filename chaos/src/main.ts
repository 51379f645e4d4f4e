#!/usr/bin/env node
/**
 * `pnpm chaos [--duration 3m] [--soak 10m] [--short]`: a multi-process fault-injection run.
 *
 * Private Postgres and Redis on spare ports; 2 gateways, 3 workers, 2 schedulers, 2 webhooks
 * services and the marketplace simulator as processes; webhook receivers (normal, flapping,
 * slow) in this process; five tenants under steady load while faults are injected on a
 * timeline; then quiescence and the invariants, printed as a table. Exit 1 when a check fails.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db, sql } from '@crawl/db';
import { allowFastSchedules, createTenant, freePort, waitForHttp } from '@crawl/testing';
import { type CheckResult, runChecks } from './checks';
import { FaultTimeline, putFaults } from './faults';
import { PrivatePostgres, PrivateRedis, sleep } from './infra';
import { type Canary, createHostileTenants, HostileLoad, startCanary } from './hostile';
import { hostileChecks } from './hostile-checks';
import {
  type AcceptedJob,
  ApiClient,
  createSchedule,
  disableSchedule,
  type IdemProblem,
  type KeyRecovery,
  type Tenant,
  TenantLoad,
} from './load';
import { renderPlot } from './chart';
import { ManagedProcess, ROOT, type UnexpectedExit } from './procs';
import { WebhookReceiver } from './receivers';
import { PALETTE, RssSampler, SoakSampler } from './sampler';

const USAGE = `usage: node chaos/dist/main.js [--duration 3m] [--soak 10m] [--short] [--out DIR]
  --duration D   load duration (default 3m; units ms, s, m, h)
  --soak D       soak run of D: also samples RSS and queue depths every 5 s into
                 <out>/soak.csv, soak.svg and soak.txt
  --short        CI variant: 90 s of load with every fault once, under 5 minutes in all
  --out DIR      output folder (default chaos/chaos-out)`;

function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (!m) throw new Error(`bad duration ${s} (use e.g. 90s, 3m, 1h)`);
  const n = Number(m[1]);
  return Math.round(n * { ms: 0.001, s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']);
}

const SECRETS_KEY = randomBytes(32).toString('hex');
const PREFIX = 'chaos';
const BASELINE_FAULTS = [
  // Products that do not exist (ASINs starting B0NF): NOT_FOUND at once.
  { match: '/dp/B0NF', fault: { kind: 'not_found' } },
  // A realistic mix of transient trouble, each retried by the crawler.
  { fault: { kind: 'captcha' }, probability: 0.03 },
  { fault: { kind: 'status', status: 503 }, probability: 0.03 },
  { fault: { kind: 'status', status: 429 }, probability: 0.02 },
  { fault: { kind: 'reset' }, probability: 0.01 },
  { fault: { kind: 'empty' }, probability: 0.01 },
  { fault: { kind: 'latency', ms: 400 }, probability: 0.1 },
  // The alert rules' products: every other crawl shows a price with a 1 put in front (29.99 -> 129.99).
  {
    match: '/dp/B0ALERT',
    fault: {
      kind: 'rewrite',
      replace: [
        ['a-price-whole">', 'a-price-whole">1'],
        ['a-offscreen">$', 'a-offscreen">$1'],
      ],
    },
    probability: 0.5,
  },
];

/** The products the chaos run's alert rules watch (BASELINE_FAULTS moves their price). */
const ALERT_ASINS = ['B0ALERT001', 'B0ALERT002'];

const started = Date.now();
const stamp = () => `[${String(Math.round((Date.now() - started) / 1000)).padStart(4)}s]`;
const log = (line: string) => console.log(`${stamp()} ${line}`);

interface Run {
  postgres?: PrivatePostgres;
  redis?: PrivateRedis;
  processes: ManagedProcess[];
  receivers: WebhookReceiver[];
  canary?: Canary;
  db?: Db;
  logDir?: string;
  cleaned: boolean;
}

const run: Run = { processes: [], receivers: [], cleaned: false };

async function cleanup(): Promise<void> {
  if (run.cleaned) return;
  run.cleaned = true;
  await Promise.all(run.processes.map((p) => p.stop(5_000).catch(() => p.killNow())));
  await Promise.all(run.receivers.map((r) => r.close().catch(() => undefined)));
  await run.canary?.close().catch(() => undefined);
  await run.db?.destroy().catch(() => undefined);
  await run.redis?.kill().catch(() => undefined);
  try {
    if (run.postgres && run.logDir) fs.copyFileSync(path.join(run.postgres.dir, 'postgres.log'), path.join(run.logDir, 'postgres.log'));
  } catch {
    // no log
  }
  try {
    run.postgres?.destroy();
  } catch (err) {
    console.error(`could not remove the private postgres cluster: ${(err as Error).message}`);
  }
}

/** Last resort on exit: synchronous kills, cluster stopped and deleted. */
function cleanupSync(): void {
  if (run.cleaned) return;
  run.cleaned = true;
  for (const p of run.processes) p.killNow();
  if (run.redis?.pid) {
    try {
      process.kill(run.redis.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  try {
    run.postgres?.destroy();
  } catch {
    // best effort
  }
}

function table(rows: CheckResult[]): string {
  const cells = rows.map((r) => [r.check, r.info ? 'info' : r.ok ? 'PASS' : 'FAIL', r.details]);
  const w0 = Math.max(5, ...cells.map((c) => c[0]!.length));
  const lines = [`${'check'.padEnd(w0)}  result  details`, `${'-'.repeat(w0)}  ------  ${'-'.repeat(60)}`];
  for (const c of cells) lines.push(`${c[0]!.padEnd(w0)}  ${c[1]!.padEnd(6)}  ${c[2]}`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      duration: { type: 'string' },
      soak: { type: 'string' },
      short: { type: 'boolean' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const soak = values.soak !== undefined;
  const durationS = values.soak ? parseDuration(values.soak) : values.duration ? parseDuration(values.duration) : values.short ? 90 : 180;
  const quiesceS = values.short ? 140 : 240;
  const out = path.resolve(values.out ?? path.join(ROOT, 'chaos', 'chaos-out'));
  const logDir = path.join(out, 'logs');
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  run.logDir = logDir;
  log(
    `chaos run: ${durationS} s of load${soak ? ' (soak)' : ''}${values.short ? ' (short)' : ''}, quiescence deadline ${quiesceS} s, output in ${out}`,
  );

  // --- private Postgres and Redis -------------------------------------------------------
  const unexpectedExits: UnexpectedExit[] = [];
  const [pgPort, redisPort] = [await freePort(), await freePort()];
  run.postgres = new PrivatePostgres(pgPort);
  await run.postgres.start();
  run.redis = new PrivateRedis(redisPort);
  await run.redis.start();
  const databaseUrl = run.postgres.url('crawl_chaos');
  log(`private postgres on ${pgPort} (${run.postgres.dir}), private redis on ${redisPort}`);
  const migrate = spawnSync(process.execPath, [path.join(ROOT, 'packages/db/dist/migrate-main.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (migrate.status !== 0) throw new Error(`migration failed: ${migrate.stderr}${migrate.stdout}`);
  run.db = createDb({ url: databaseUrl, poolSize: 4 });
  const db = run.db;
  const tenants: Tenant[] = [];
  for (let i = 0; i < 5; i++) {
    const t = await createTenant(db, { plan: 'growth', credits: 10_000_000, name: `chaos tenant ${i + 1}` });
    tenants.push({ index: i, organizationId: t.organizationId, projectId: t.projectId, apiKey: t.apiKey });
    await allowFastSchedules(db, t.organizationId); // schedules every 5 s: many fires in a short run
  }
  const hostile = await createHostileTenants(db);
  log(
    `migrated, 5 tenants created, and 3 hostile ones (an exporter that aborts downloads of a ${hostile.exportRows}-row job, an off-marketplace submitter, a 50-job flooder)`,
  );

  // --- processes ------------------------------------------------------------------------
  const simPort = await freePort();
  const gwPorts = [await freePort(), await freePort()];
  const workerPorts = [await freePort(), await freePort(), await freePort()];
  const webhookPorts = [await freePort(), await freePort()];
  const simulatorUrl = `http://127.0.0.1:${simPort}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    REDIS_URL: run.redis.url,
    QUEUE_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    SECRETS_KEY,
    MARKETPLACE_ORIGIN_OVERRIDE: simulatorUrl,
    CRAWL_EXIT_RPS: '10000',
    CRAWL_EXIT_COOLDOWN_MS: '50',
    CRAWL_CONCURRENCY: '4',
    CRAWL_RETRY_BASE_MS: '200',
    CRAWL_LOCK_MS: '3000',
    FETCH_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // x10 per retry: the 5 attempts of a flapping receiver's delivery span ~45 s
    WEBHOOK_BACKOFF_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '3000',
    RECONCILE_INTERVAL_MS: '1000',
    WEBHOOK_RECONCILE_INTERVAL_MS: '1000',
  };
  let stopping = false;
  const onExit = (e: UnexpectedExit) => {
    unexpectedExits.push(e);
    log(`UNEXPECTED EXIT of ${e.name} (pid ${e.pid}, code ${e.code}, signal ${e.signal}); see ${e.logFile}; restarting it`);
    const p = run.processes.find((x) => x.name === e.name);
    if (p && !run.cleaned && !stopping) setTimeout(() => void p.start().catch(() => undefined), 1_000);
  };
  const proc = (name: string, script: string, extra: Record<string, string>, args: string[], ready?: () => Promise<void>) => {
    const p = new ManagedProcess(name, script, { ...env, ...extra }, args, logDir, onExit, ready);
    run.processes.push(p);
    return p;
  };
  const simulator = proc('simulator', 'packages/simulator/dist/main.js', {}, ['--port', String(simPort), '--seed', '7'], () =>
    waitForHttp(`${simulatorUrl}/__sim/health`),
  );
  const gateways = gwPorts.map((port, i) =>
    proc(`gateway-${i + 1}`, 'services/gateway/dist/main.js', { PORT: String(port) }, [], () =>
      waitForHttp(`http://127.0.0.1:${port}/healthz`),
    ),
  );
  const workers = workerPorts.map((port, i) =>
    proc(`worker-${i + 1}`, 'services/worker/dist/main.js', { METRICS_PORT: String(port) }, [], () =>
      waitForHttp(`http://127.0.0.1:${port}/healthz`),
    ),
  );
  const schedulers = [1, 2].map((i) => proc(`scheduler-${i}`, 'services/scheduler/dist/main.js', {}, []));
  const webhooks = webhookPorts.map((port, i) =>
    proc(`webhooks-${i + 1}`, 'services/webhooks/dist/main.js', { METRICS_PORT: String(port) }, [], () =>
      waitForHttp(`http://127.0.0.1:${port}/healthz`),
    ),
  );
  await Promise.all(run.processes.map((p) => p.start()));
  await putFaults(simulatorUrl, BASELINE_FAULTS);
  await Promise.all(gwPorts.map((port) => waitForHttp(`http://127.0.0.1:${port}/readyz`)));
  log(
    `up: ${simulator.name} on ${simPort}, ${gateways.length} gateways, ${workers.length} workers, ${schedulers.length} schedulers, ${webhooks.length} webhooks services (logs in ${logDir})`,
  );

  // --- receivers and webhook configuration ------------------------------------------------
  const receivers = [
    await new WebhookReceiver('normal').start(),
    await new WebhookReceiver('flapping').start(),
    await new WebhookReceiver('slow').start(),
  ];
  run.receivers.push(...receivers);
  const api = new ApiClient(gwPorts.map((p) => `http://127.0.0.1:${p}`));
  const webhookReceiver = new Map<string, WebhookReceiver>();
  for (const t of tenants) {
    const configs = receivers.flatMap((r) =>
      // the first tenant's alert rules send product.alert too (docs/alerts.md): rules under worker kills
      (t.index === 0 ? (['job.completed', 'job.failed', 'product.alert'] as const) : (['job.completed', 'job.failed'] as const)).map(
        (trigger) => ({
          name: `${r.kind} ${trigger}`,
          url: r.url,
          triggerAction: trigger,
          secret: `whsec_chaos_${t.index}_${r.kind}_${trigger}_${randomBytes(6).toString('hex')}`,
        }),
      ),
    );
    const res = await api.call(t, 'PATCH', 'PATCH /projects/:id/webhooks', `/v1/key/projects/${t.projectId}/webhooks`, {
      body: { configs },
      gateway: t.index % 2,
    });
    if (res.status !== 200) throw new Error(`webhook configuration answered ${res.status}: ${JSON.stringify(res.json)}`);
    for (const c of res.json.data.configs ?? res.json.data) {
      const r = receivers.find((x) => x.url === c.url)!;
      r.secrets.set(c.id, c.secret);
      webhookReceiver.set(c.id, r);
    }
  }
  log(`webhooks: each tenant sends job.completed and job.failed to 3 receivers (normal, flapping ~30 % 500, slow 2-2.8 s)`);
  const scheduleIds: string[] = [];
  scheduleIds.push(
    await createSchedule(api, tenants[0]!, {
      cron: '*/5 * * * * *',
      crawlConfig: { type: 'details', targets: ['B0DR8G428S', 'B073WRF565'] },
    }),
  );
  scheduleIds.push(
    await createSchedule(api, tenants[1]!, { cron: '*/5 * * * * *', crawlConfig: { type: 'search', targets: ['portable charger'] } }),
  );
  log(`schedules: ${scheduleIds.join(', ')} (every 5 s)`);
  // Alert rules: two products whose price the baseline faults change on every other crawl,
  // crawled every 5 s by a schedule of the first tenant, watched by two rules.
  for (const rule of [
    { name: 'any price change', condition: { type: 'field_changed', field: 'price' }, cooldownSeconds: 0, maxPerDay: 10_000 },
    { name: 'over 100', condition: { type: 'price_above', value: 100 }, cooldownSeconds: 0, maxPerDay: 10_000 },
  ]) {
    const res = await api.call(
      tenants[0]!,
      'POST',
      'POST /projects/:id/alert-rules',
      `/v1/key/projects/${tenants[0]!.projectId}/alert-rules`,
      {
        body: rule,
      },
    );
    if (res.status !== 201) throw new Error(`alert rule creation answered ${res.status}: ${JSON.stringify(res.json)}`);
  }
  const alertScheduleId = await createSchedule(api, tenants[0]!, {
    cron: '*/5 * * * * *',
    crawlConfig: { type: 'details', targets: ALERT_ASINS },
  });
  log(`alert rules: 2 rules of ${tenants[0]!.projectId} over ${ALERT_ASINS.join(', ')} (schedule ${alertScheduleId})`);

  // --- samplers ---------------------------------------------------------------------------
  const logical = () => [
    ...run.processes.map((p) => ({ name: p.name, incarnation: p.incarnation, pid: p.pid })),
    { name: 'redis', incarnation: 0, pid: run.redis?.pid },
    { name: 'chaos (this)', incarnation: 0, pid: process.pid },
  ];
  const rss = new RssSampler(logical);
  rss.start(1_000);
  const soakSampler = soak ? new SoakSampler(path.join(out, 'soak.csv'), logical, run.redis.url, PREFIX) : null;
  soakSampler?.start(5_000);

  // --- load and faults ----------------------------------------------------------------------
  const accepted = new Map<string, AcceptedJob>();
  const idemProblems: IdemProblem[] = [];
  const recoveries: KeyRecovery[] = [];
  const loads = tenants.map((t) => new TenantLoad(t, api, accepted, idemProblems, recoveries, 3_000, 1_000));
  const t0 = Date.now();
  const canary = await startCanary();
  run.canary = canary;
  const hostileLoad = new HostileLoad(api, hostile, canary, { abortLanes: 4, floodJobs: 50, floodTargets: 10 });
  const loadRuns = [...loads.map((l) => l.run()), hostileLoad.run()];
  // Requests in flight when a gateway dies: keyed creations, so that clients retry them with the same key.
  const burst = (gateway: number) => {
    for (let i = 0; i < 16; i++) setTimeout(() => void loads[i % loads.length]!.burstCreate(gateway), i * 10);
  };
  const timeline = new FaultTimeline({
    workers,
    gateways,
    webhooks,
    redis: run.redis,
    postgres: run.postgres,
    simulatorUrl,
    baselineFaults: BASELINE_FAULTS,
    log,
    burst,
  });
  log(`load started: ${loads.length} tenants through ${gateways.length} gateways; ${timeline.plan(durationS).length} faults planned`);
  const faultsDone = timeline.run(t0, durationS);
  const progress = setInterval(() => {
    const recs = api.records;
    const c = (f: (s: number) => boolean) => recs.filter((r) => f(r.status)).length;
    log(
      `load    ${recs.length} requests (2xx ${c((s) => s >= 200 && s < 300)}, 4xx ${c((s) => s >= 400 && s < 500)}, 503 ${c((s) => s === 503)}, other 5xx ${c((s) => s >= 500 && s !== 503)}, neterr ${c((s) => s === 0)}), ${accepted.size} jobs accepted, ${receivers.reduce((a, r) => a + r.receipts.length, 0)} webhook requests received`,
    );
  }, 15_000);
  await sleep(durationS * 1000);
  timeline.stop();
  for (const l of loads) l.stop();
  hostileLoad.stop();
  await Promise.all(loadRuns);
  clearInterval(progress);
  await faultsDone;
  for (const [i, id] of scheduleIds.entries()) {
    if (!(await disableSchedule(api, tenants[i]!, id))) log(`could not disable schedule ${id}`);
  }
  if (!(await disableSchedule(api, tenants[0]!, alertScheduleId))) log(`could not disable schedule ${alertScheduleId}`);
  log(
    `load stopped after ${Math.round((Date.now() - t0) / 1000)} s: ${api.records.length} requests, ${accepted.size} jobs accepted; schedules disabled; waiting for quiescence`,
  );

  // --- quiescence ---------------------------------------------------------------------------
  const projects = tenants.map((t) => t.projectId);
  const deadline = Date.now() + quiesceS * 1000;
  let quiesced = false;
  let lastLine = 0;
  while (Date.now() < deadline) {
    const state = await sql<{ open: number; undispatched: number; pending: number }>`
      select (select count(*)::int from job where project_id = any(${projects}::text[]) and status in ('queued', 'running')) as open,
             (select count(*)::int from event where project_id = any(${projects}::text[]) and dispatched_at is null) as undispatched,
             (select count(*)::int from webhook_delivery where project_id = any(${projects}::text[]) and status = 'pending') as pending`
      .execute(db)
      .then((r) => r.rows[0]!)
      .catch(() => ({ open: -1, undispatched: -1, pending: -1 }));
    if (state.open === 0 && state.undispatched === 0 && state.pending === 0) {
      quiesced = true;
      break;
    }
    if (Date.now() - lastLine > 10_000) {
      log(`quiesce ${state.open} jobs not terminal, ${state.undispatched} events not dispatched, ${state.pending} deliveries pending`);
      lastLine = Date.now();
    }
    await sleep(1_000);
  }
  // Receivers may still be answering the last slow deliveries.
  await sleep(3_000);
  log(quiesced ? 'quiescent: every job terminal, every delivery finished' : `quiescence deadline (${quiesceS} s) reached`);
  stopping = true;
  rss.stop();
  await soakSampler?.stop();

  // --- checks -------------------------------------------------------------------------------
  const results = await runChecks({
    db,
    tenants,
    accepted,
    records: api.records,
    idemProblems,
    recoveries,
    gateways,
    receivers,
    webhookReceiver,
    scheduleIds,
    unexpectedExits,
    rss: rss.series,
    quiesced,
    postgresLog: path.join(run.postgres.dir, 'postgres.log'),
    logDir,
  });
  results.push(
    ...(await hostileChecks({
      db,
      hostile,
      stats: hostileLoad.stats,
      canary,
      gateways: api.gateways,
      orgs: [...tenants.map((t) => t.organizationId), hostile.submitter.organizationId, hostile.flooder.organizationId],
    })),
  );
  fs.writeFileSync(path.join(out, 'responses.ndjson'), api.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  fs.writeFileSync(
    path.join(out, 'faults.json'),
    JSON.stringify(
      timeline.windows.map((w) => ({ ...w, from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() })),
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(out, 'receipts.ndjson'),
    receivers.flatMap((r) => r.receipts.map((x) => JSON.stringify({ receiver: r.kind, ...x }))).join('\n') + '\n',
  );
  fs.writeFileSync(path.join(out, 'checks.json'), JSON.stringify(results, null, 2));
  if (soakSampler) writeSoakFigures(out, soakSampler);

  console.log(
    `\nchaos run: ${durationS} s of load, ${timeline.windows.length} faults injected, ${api.records.length} requests, ${accepted.size} jobs accepted\n`,
  );
  console.log(table(results));
  const failed = results.filter((r) => !r.ok);
  console.log(
    `\n${failed.length ? `FAILED: ${failed.length} of ${results.length} checks` : `PASSED: all ${results.length} checks`} (total ${Math.round((Date.now() - started) / 1000)} s; details in ${out})`,
  );
  return failed.length ? 1 : 0;
}

function writeSoakFigures(out: string, s: SoakSampler): void {
  const { table: t } = s;
  const rssSeries = t.rssNames.map((name, i) => ({
    name,
    color: PALETTE[i % PALETTE.length]!,
    points: t.rows.map((r) => ({ x: r.t, y: r.rss[i] ?? null })),
  }));
  const queueSeries = t.queueLabels.map((name, i) => ({
    name,
    color: PALETTE[i % PALETTE.length]!,
    points: t.rows.map((r) => ({ x: r.t, y: r.queues[i] ?? null })),
  }));
  fs.writeFileSync(
    path.join(out, 'soak.svg'),
    renderPlot([
      { title: 'RSS MB per process', series: rssSeries },
      { title: 'queue depth (redis keys)', series: queueSeries },
    ]),
  );
  const stat = (ys: (number | null)[]) => {
    const v = ys.filter((y): y is number => y !== null);
    return v.length ? `first ${v[0]} min ${Math.min(...v)} max ${Math.max(...v)} last ${v.at(-1)}` : 'no data';
  };
  const lines = [
    `soak figures every 5 s (${t.rows.length} rows); columns of soak.csv, colours of soak.svg:`,
    '',
    'top panel, RSS MB:',
    ...rssSeries.map((x, i) => `  ${x.color}  ${x.name.padEnd(14)} ${stat(t.rows.map((r) => r.rss[i] ?? null))}`),
    '',
    'bottom panel, queue depth:',
    ...queueSeries.map((x, i) => `  ${x.color}  ${x.name.padEnd(18)} ${stat(t.rows.map((r) => r.queues[i] ?? null))}`),
  ];
  fs.writeFileSync(path.join(out, 'soak.txt'), `${lines.join('\n')}\n`);
}

process.on('exit', cleanupSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${stamp()} ${signal}: cleaning up`);
    setTimeout(() => process.exit(130), 20_000).unref();
    // Fire-and-forget is safe: `finally` exits the process whether cleanup settles or throws,
    // so no rejection can outlive it, and the unref'd timer above bounds a hung cleanup.
    void cleanup().finally(() => process.exit(130));
  });
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error(`${stamp()} chaos run failed: ${(err as Error).stack ?? String(err)}`);
    await cleanup();
    process.exit(2);
  });
