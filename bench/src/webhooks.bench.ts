import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { SecretBox } from '@crawl/core';
import { createDb, sql, WebhookConfigRepository } from '@crawl/db';
import { createTenant, freePort, ServiceProcess } from '@crawl/testing';
import { closeDeliveryAgents } from '@crawl/webhook-delivery';
import { deleteRedisPrefix, table, openBenchStore } from './processes';
import { signedPosts } from './webhooks-plain-client';

const execFileAsync = promisify(execFile);

const SECRETS_KEY = 'e'.repeat(64);
const CONCURRENCY = 64;
/**
 * The per-endpoint cap of the one-receiver cases: above what the processes can hold (their
 * concurrency and the attempts they claim ahead), so that, as for the plain POSTs, the 64 at a
 * time is what binds, not the fairness cap meant for many receivers. The receiver never has more
 * than 64 requests at once either way. BENCH_WEBHOOK_ENDPOINT_CAP=64 measures with the cap
 * equal to the concurrency instead.
 */
const ONE_RECEIVER_CAP = Number(process.env.BENCH_WEBHOOK_ENDPOINT_CAP ?? 2 * CONCURRENCY);
const TENANT_PREFIX = 'bench webhooks';
type Db = ReturnType<typeof createDb>;

/** A local receiver that notes when each delivery id arrived; `hang` never answers. */
class BenchReceiver {
  readonly arrivals = new Map<string, number>();
  private server!: Server;
  url = '';
  constructor(private readonly hang = false) {}
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const id = String(req.headers['x-service-delivery']);
      req.resume();
      req.on('end', () => {
        this.arrivals.set(id, Date.now());
        if (this.hang) return;
        res.statusCode = 204;
        res.end();
      });
    });
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
    return this;
  }
  async waitFor(n: number, timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.size < n) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.arrivals.size} of ${n}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  lastArrival(): number {
    return Math.max(...this.arrivals.values());
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

async function insertEvents(db: Db, projectId: string, count: number): Promise<number> {
  const data = JSON.stringify({
    id: 'job_bench',
    status: 'completed',
    targets: ['B0DR8G428S'],
    progress: { total: 1, succeeded: 1, failed: 0 },
    resultsCount: 1,
  });
  await sql`
    insert into event (id, project_id, type, data)
    select 'evt_' || md5(random()::text || g::text), ${projectId}, 'job.completed', ${data}::jsonb from generate_series(1, ${count}) g`.execute(
    db,
  );
  await sql`select pg_notify('crawl_events', '')`.execute(db);
  return Date.now();
}

async function configure(db: Db, projectId: string, urls: string[]): Promise<void> {
  const box = SecretBox.fromKey(SECRETS_KEY);
  await new WebhookConfigRepository(db).replaceAll(
    projectId,
    urls.map((url) => ({ name: null, url, triggerAction: 'job.completed', enabled: true, secretEncrypted: box.encrypt('whsec_bench') })),
    urls.length,
  );
}

/**
 * Deletes the bench tenants' webhook rows and vacuums: every case starts from the same tables.
 * Without it a case would inherit the previous one's leftovers (a dead receiver's pending
 * deliveries, sent again to a closed port) and dead rows (autovacuum is off on test machines).
 */
async function purge(db: Db): Promise<void> {
  const projects = sql`(select id from project where name like ${`${TENANT_PREFIX}%`})`;
  await sql`delete from webhook_attempt where project_id in ${projects}`.execute(db);
  await sql`delete from webhook_delivery where project_id in ${projects}`.execute(db);
  await sql`delete from event where project_id in ${projects}`.execute(db);
  await sql`delete from webhook_config where project_id in ${projects}`.execute(db);
  for (const name of ['webhook_attempt', 'webhook_delivery', 'event', 'webhook_config'])
    await sql`vacuum analyze ${sql.table(name)}`.execute(db);
}

interface Sample {
  rate: number;
  p50: number;
  p99: number;
}

/**
 * Signed POSTs with the deliverer's client, CONCURRENCY at a time, to a receiver of this
 * process: from this process (the target's baseline), or from a process of their own like the
 * deliverer's (`child`), when the client and the receiver no longer share a CPU.
 */
async function plainRate(n: number, child = false): Promise<number> {
  const plain = await new BenchReceiver().start();
  try {
    const ms = child
      ? Number(
          (
            await execFileAsync(process.execPath, [
              path.join(__dirname, 'webhooks-plain-client.js'),
              plain.url,
              String(n),
              String(CONCURRENCY),
            ])
          ).stdout,
        )
      : await signedPosts(plain.url, n, CONCURRENCY);
    return n / (ms / 1000);
  } finally {
    await plain.close();
  }
}

type StartService = (env: Record<string, string>) => Promise<ServiceProcess>;

/**
 * `replicas` deliverer processes sharing CONCURRENCY, `n` events committed at once, one
 * receiver. With `steady`, then ~100 events/s one per transaction, commit -> receipt latency.
 */
async function serviceRun(db: Db, start: StartService, n: number, replicas: number, steady = false) {
  const tenant = await createTenant(db, { name: `${TENANT_PREFIX} one ${replicas}` });
  const receiver = await new BenchReceiver().start();
  await configure(db, tenant.projectId, [receiver.url]);
  const procs: ServiceProcess[] = [];
  for (let i = 0; i < replicas; i++) {
    procs.push(
      await start({ WEBHOOK_CONCURRENCY: String(CONCURRENCY / replicas), WEBHOOK_ENDPOINT_CONCURRENCY: String(ONE_RECEIVER_CAP) }),
    );
  }
  try {
    const committed = await insertEvents(db, tenant.projectId, n);
    await receiver.waitFor(n);
    const lats = [...receiver.arrivals.values()].map((t) => t - committed);
    const burst: Sample = { rate: n / ((receiver.lastArrival() - committed) / 1000), p50: quantile(lats, 0.5), p99: quantile(lats, 0.99) };
    if (!steady) return { burst, steady: null };
    receiver.arrivals.clear();
    const commits: number[] = [];
    for (let i = 0; i < 500; i++) {
      commits.push(await insertEvents(db, tenant.projectId, 1));
      await new Promise((r) => setTimeout(r, 10));
    }
    await receiver.waitFor(500);
    const arrivals = [...receiver.arrivals.values()].sort((a, b) => a - b);
    const latencies = commits.map((c, i) => arrivals[i]! - c);
    return { burst, steady: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) } };
  } finally {
    for (const p of procs) await p.stop();
    await receiver.close();
    await purge(db);
  }
}

/** Deliveries/s to 10 live receivers (n in all), with or without one dead (never answering) receiver subscribed too. */
async function liveRate(db: Db, start: StartService, n: number, withDead: boolean): Promise<number> {
  const tenant = await createTenant(db, { name: `${TENANT_PREFIX} ${withDead ? 'dead' : 'live'}` });
  const live = await Promise.all(Array.from({ length: 10 }, () => new BenchReceiver().start()));
  const dead = await new BenchReceiver(true).start();
  await configure(db, tenant.projectId, [...live.map((r) => r.url), ...(withDead ? [dead.url] : [])]);
  const svc = await start({});
  try {
    const events = n / 10;
    const committed = await insertEvents(db, tenant.projectId, events);
    await Promise.all(live.map((r) => r.waitFor(events)));
    return n / ((Math.max(...live.map((r) => r.lastArrival())) - committed) / 1000);
  } finally {
    await Promise.all([...live, dead].map((r) => r.close()));
    // Not a graceful stop: it would wait out the dead receiver's attempts (10 s); purge clears their leases.
    await svc.stop('SIGKILL');
    await purge(db);
  }
}

const best = (xs: number[]) => Math.max(...xs);
const shown = (xs: number[]) => `${best(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`;
const target = (name: string, met: boolean, figure: string) => `  ${met ? 'MET   ' : 'MISSED'} ${name}: ${figure}`;

/**
 * `pnpm bench webhooks`: N (10,000) deliveries through the webhooks service, with 1 and 2
 * deliverer processes, vs plain concurrent signed POSTs with the same HTTP client from this
 * process (the targets' baseline; also shown with the client in a process of its own, as the
 * deliverer is); the cost of one dead (never answering) receiver among 10 live ones;
 * commit-to-receipt latency.
 * BENCH_ROUNDS (2) rounds run every case in turn and each figure is the best of its rounds:
 * the machine's other load only ever slows a sample, and interleaving spreads it over cases.
 */
export async function benchWebhooks(): Promise<void> {
  const { dbUrl, redisUrl, prefix, db } = await openBenchStore();
  const N = Number(process.env.BENCH_DELIVERIES ?? 10_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const services: ServiceProcess[] = [];
  const start: StartService = async (env) => {
    const port = await freePort();
    const s = ServiceProcess.start('webhooks', 'services/webhooks/dist/main.js', {
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      SECRETS_KEY,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      METRICS_PORT: String(port),
      ...env,
    });
    services.push(s);
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return s;
  };
  try {
    await purge(db);
    const s = {
      plain: [] as number[],
      child: [] as number[],
      x1: [] as Sample[],
      x2: [] as Sample[],
      live: [] as number[],
      dead: [] as number[],
    };
    let steady: { p50: number; p99: number } | null = null;
    for (let round = 0; round < rounds; round++) {
      s.plain.push(await plainRate(N));
      s.child.push(await plainRate(N, true));
      const one = await serviceRun(db, start, N, 1, round === 0);
      s.x1.push(one.burst);
      steady ??= one.steady;
      s.x2.push((await serviceRun(db, start, N, 2)).burst);
      s.live.push(await liveRate(db, start, N, false));
      s.dead.push(await liveRate(db, start, N, true));
    }
    const plain = best(s.plain);
    const x1 = s.x1.reduce((a, b) => (b.rate > a.rate ? b : a));
    const x2 = s.x2.reduce((a, b) => (b.rate > a.rate ? b : a));
    const row = (name: string, rate: string, x: string, p50: number | string = '-', p99: number | string = '-') => ({
      case: name,
      'deliveries/s': rate,
      'p50 ms': p50,
      'p99 ms': p99,
      'x plain': x,
    });
    const rows = [
      row(`plain signed POSTs, ${CONCURRENCY} at a time`, shown(s.plain), '1.00'),
      row('  the same, the client in a process of its own', shown(s.child), (best(s.child) / plain).toFixed(2)),
      row(`service x1 process, ${N} events at once`, shown(s.x1.map((x) => x.rate)), (x1.rate / plain).toFixed(2), x1.p50, x1.p99),
      row(`service x2 processes, ${N} events at once`, shown(s.x2.map((x) => x.rate)), (x2.rate / plain).toFixed(2), x2.p50, x2.p99),
      row('service x1, steady ~100 events/s, commit -> receipt', '-', '-', steady?.p50 ?? '-', steady?.p99 ?? '-'),
      row('10 live receivers', shown(s.live), '-'),
      row('10 live + 1 dead (never answering) receiver', shown(s.dead), '-'),
    ];
    console.log(
      `\nwebhooks benchmark: ${N} deliveries to local receivers on loopback, best of ${rounds} rounds (each round's figure in brackets)\n`,
    );
    console.log(table(rows));
    const loss = 1 - best(s.dead) / best(s.live);
    console.log('\ntargets:');
    console.log(target('service x1 >= 0.7x plain signed POSTs', x1.rate / plain >= 0.7, `${(x1.rate / plain).toFixed(2)}x`));
    console.log(target('service x2 >= service x1', x2.rate >= x1.rate, `${(x2.rate / x1.rate).toFixed(2)}x`));
    console.log(target('a dead receiver costs the live ones < 10%', loss < 0.1, `${(loss * 100).toFixed(1)}%`));
  } finally {
    await Promise.all(services.map((svc) => svc.stop()));
    closeDeliveryAgents();
    await purge(db);
    await deleteRedisPrefix(redisUrl, prefix);
    await db.destroy();
  }
}
