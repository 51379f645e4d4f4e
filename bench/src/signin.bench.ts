import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from '@crawl/db';
import { createTenant, freePort, ServiceProcess, type TestTenant, waitForHttp } from '@crawl/testing';
import { cpuSeconds } from './measure';
import { deleteRedisPrefix, openBenchStore, table } from './processes';
import type { FloodOptions, FloodResult } from './signin-flood';
import { type BrowserUser, REQUEST_TIMEOUT_MS, userPost, verifiedUsers } from './signin-users';

/** BENCH_GATEWAY_MAIN: another build of the gateway to measure (an earlier commit's dist/main.js, to compare). */
const GATEWAY_MAIN = process.env.BENCH_GATEWAY_MAIN ?? 'services/gateway/dist/main.js';
const WARMUP_S = 2;
const BEFORE_S = 10;
const DURING_S = 15;
const SIGNINS_PER_S = 3;
const API_PER_S = 50;
const FLOOD_CONNECTIONS = 32;
/** A bound on the flood whatever the gateway's speed: far above what 32 connections reach in 15 s. */
const FLOOD_MAX_REQUESTS = 1_000_000;
/**
 * The legitimate sign-ins rotate over enough users that none signs in more than this in the whole
 * run, its first sign-in included, so no window of the per-account limit on successful sign-ins
 * (10 a minute, docs/accounts.md "Sessions and CSRF") refuses one: the bench measures what the
 * flood costs, not that limit.
 */
const SIGNINS_PER_USER = 8;
const USERS = Math.ceil(((WARMUP_S + BEFORE_S + DURING_S) * SIGNINS_PER_S) / (SIGNINS_PER_USER - 1));

/**
 * Each client's own address, presented through X-Forwarded-For (the gateway trusts it from
 * loopback only). The users' and the tenant's addresses never fail, so no per-address failure
 * limit touches them; the users always give the right password, so no per-email failure limit
 * either (docs/accounts.md, "Sign-in limits").
 */
const ADDRESS = {
  user: (i: number) => `192.0.2.${10 + i}`,
  tenant: '198.51.100.20',
  attacker: '203.0.113.66',
};

/** One request's latency and its status, `error` when it got no answer in time. */
interface Sample {
  ms: number;
  status: number | 'error';
}

interface Phase {
  name: string;
  seconds: number;
  signIns: Sample[];
  api: Sample[];
  flood: FloodResult | null;
  /** CPU over the phase in cores (1.0 = one core busy): the gateway's, this process's, the whole host's. */
  cores: { gateway: number; bench: number; host: number };
}

interface Load {
  base: string;
  tenant: TestTenant;
  users: BrowserUser[];
  /** Sign-ins sent so far: the rotation over the users goes on where the last phase stopped. */
  signIns: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

async function timed(send: () => Promise<Response>): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await send();
    await res.arrayBuffer();
    return { ms: performance.now() - t0, status: res.status };
  } catch {
    return { ms: performance.now() - t0, status: 'error' };
  }
}

/**
 * `pnpm bench signin`: what a sign-in flood from one client address costs everyone else. A real
 * gateway process (the bench database, with a queue prefix and a mail outbox of its own);
 * legitimate users, signed up and verified through the API, each a browser at its own address,
 * signing in one after another about 3 times a second with the right password; and another
 * tenant's API key listing its jobs at 50 requests a second (open loop: sent on schedule,
 * whatever the answers take). 10 s like that ("before"), then 15 s more while one address posts
 * fresh random emails with wrong passwords over 32 connections ("during"). The gateway's sign-in
 * limits are its defaults.
 */
export async function benchSignin(): Promise<void> {
  const { dbUrl, redisUrl, prefix, db } = await openBenchStore();
  const tenant = await createTenant(db, { plan: 'enterprise', credits: 1_000, name: 'bench signin tenant' });
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'bench-signin-outbox-'));
  const port = await freePort();
  const gateway = ServiceProcess.start('gateway', GATEWAY_MAIN, {
    PORT: String(port),
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    MAIL_OUTBOX_DIR: outboxDir,
    TRUST_PROXY: 'loopback',
  });
  const base = `http://127.0.0.1:${port}`;
  const phases: Phase[] = [];
  let users: BrowserUser[] = [];
  try {
    await waitForHttp(`${base}/healthz`);
    users = await verifiedUsers(
      base,
      outboxDir,
      Array.from({ length: USERS }, (_, i) => ADDRESS.user(i)),
    );
    const load: Load = { base, tenant, users, signIns: 0 };
    const pid = gateway.pid!;
    await runPhase(load, 'warm-up', WARMUP_S, false, pid);
    phases.push(await runPhase(load, 'before', BEFORE_S, false, pid));
    phases.push(await runPhase(load, 'during flood', DURING_S, true, pid));
  } finally {
    await gateway.stop();
    await cleanup(
      db,
      redisUrl,
      prefix,
      users.map((u) => u.email),
    );
    rmSync(outboxDir, { recursive: true, force: true });
    await db.destroy();
  }
  report(phases, [...new Set(users.flatMap((u) => [...u.cookies.keys()]))]);
}

/** One phase: the users' sign-ins and the tenant's GETs for `seconds`, with or without the flood. */
async function runPhase(load: Load, name: string, seconds: number, flooding: boolean, pid: number): Promise<Phase> {
  const cpuBefore = { gateway: cpuSeconds(pid) ?? 0, bench: cpuSeconds(process.pid) ?? 0, host: hostBusySeconds() };
  const started = Date.now();
  const end = started + seconds * 1000;
  const floodOptions: FloodOptions = {
    url: `${load.base}/v1/account/sessions`,
    address: ADDRESS.attacker,
    connections: FLOOD_CONNECTIONS,
    durationMs: seconds * 1000,
    maxRequests: FLOOD_MAX_REQUESTS,
    timeoutMs: REQUEST_TIMEOUT_MS,
  };
  const [signIns, api, flood] = await Promise.all([signInLoop(load, end), apiLoad(load, end), flooding ? runFlood(floodOptions) : null]);
  const elapsed = (Date.now() - started) / 1000;
  const cores = {
    gateway: ((cpuSeconds(pid) ?? cpuBefore.gateway) - cpuBefore.gateway) / elapsed,
    bench: ((cpuSeconds(process.pid) ?? cpuBefore.bench) - cpuBefore.bench) / elapsed,
    host: (hostBusySeconds() - cpuBefore.host) / elapsed,
  };
  return { name, seconds, signIns, api, flood, cores };
}

/**
 * CPU seconds all of the host's cores have been busy so far (/proc/stat: everything but idle
 * and I/O wait). Host minus gateway minus bench is the rest: Postgres and Redis serving the
 * gateway (a few tenths of a core here), and whatever else runs, since a host shared with builds
 * or tests makes every latency here longer.
 */
function hostBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - fields[3]! - fields[4]!) / 100; // USER_HZ is 100 on Linux
}

/** The legitimate users in turn: one sign-in at a time with the right password, at most SIGNINS_PER_S a second. */
async function signInLoop(load: Load, end: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const interval = 1000 / SIGNINS_PER_S;
  const maxCount = Math.ceil(((end - Date.now()) / 1000) * SIGNINS_PER_S);
  for (let i = 0; i < maxCount && Date.now() < end; i++) {
    const started = Date.now();
    const user = load.users[load.signIns++ % load.users.length]!;
    samples.push(await timed(() => userPost(load.base, user, '/v1/account/sessions', { email: user.email, password: user.password })));
    await sleep(Math.min(started + interval, end) - Date.now());
  }
  return samples;
}

/** The other tenant: GET .../jobs with its API key, sent every 1/API_PER_S s whether or not earlier ones answered. */
async function apiLoad(load: Load, end: number): Promise<Sample[]> {
  const url = `${load.base}/v1/key/projects/${load.tenant.projectId}/jobs`;
  const headers = { Authorization: `Bearer ${load.tenant.apiKey}`, 'X-Forwarded-For': ADDRESS.tenant };
  const start = Date.now();
  const count = Math.floor(((end - start) / 1000) * API_PER_S);
  const pending: Promise<Sample>[] = [];
  for (let i = 0; i < count; i++) {
    await sleep(start + (i * 1000) / API_PER_S - Date.now());
    pending.push(timed(() => fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })));
  }
  return Promise.all(pending);
}

/** The flood in its own thread (signin-flood.ts); a worker that does not answer in time is ended. */
async function runFlood(options: FloodOptions): Promise<FloodResult> {
  const worker = new Worker(path.join(__dirname, 'signin-flood.js'), { workerData: options });
  const limitMs = options.durationMs + options.timeoutMs + 5_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<FloodResult>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the flood did not end within ${limitMs} ms`)), limitMs);
      worker.once('message', (message: FloodResult | { error: string }) =>
        'error' in message ? reject(new Error(message.error)) : resolve(message),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the flood's worker exited with ${code} before answering`)));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** Removes the run's sessions and Redis keys (the flood leaves one failure counter per email). */
async function cleanup(db: Db, redisUrl: string, prefix: string, emails: string[]): Promise<void> {
  if (emails.length) {
    const ids = await db.selectFrom('app_user').select('id').where('email', 'in', emails).execute();
    if (ids.length)
      await db
        .deleteFrom('user_session')
        .where(
          'user_id',
          'in',
          ids.map((u) => u.id),
        )
        .execute();
  }
  await deleteRedisPrefix(redisUrl, prefix);
}

const ms = (samples: Sample[], q: number) =>
  quantile(
    samples.map((s) => s.ms),
    q,
  );

function report(phases: Phase[], cookies: string[]): void {
  console.log(
    `\nsign-in flood benchmark: ${USERS} verified users signing in in turn, ~${SIGNINS_PER_S}/s in all, and another tenant's` +
      ` GET .../jobs at ${API_PER_S}/s, each from its own address; "during": one address posting random emails with wrong passwords over ${FLOOD_CONNECTIONS}` +
      ` connections; default sign-in limits; ${availableParallelism()} cores shared by the gateway and the load generator\n`,
  );
  console.log(`the users' browsers hold the cookies: ${cookies.join(', ') || 'none'}\n`);
  console.log(table(phases.map(phaseRow)));
  console.log('\nthe flood (one address)\n');
  console.log(table(phases.flatMap((p) => (p.flood ? [floodRow(p.name, p.flood)] : []))));
  const [before, during] = phases;
  if (!before || !during) return;
  const ratio = (samples: (p: Phase) => Sample[], q: number) =>
    (ms(samples(during), q) / Math.max(0.001, ms(samples(before), q))).toFixed(2);
  console.log(
    `\nduring/before: sign-in p50 x${ratio((p) => p.signIns, 0.5)}, p99 x${ratio((p) => p.signIns, 0.99)};` +
      ` other tenant's API p50 x${ratio((p) => p.api, 0.5)}, p99 x${ratio((p) => p.api, 0.99)}`,
  );
  const rest = Math.max(...phases.map((p) => p.cores.host - p.cores.gateway - p.cores.bench));
  if (rest > 0.6)
    console.log(
      `\nnote: the rest of the host (Postgres, Redis and other processes) kept up to ${rest.toFixed(2)} cores busy:` +
        ' every latency above is longer than on a quiet host',
    );
}

function phaseRow(p: Phase): Record<string, string | number> {
  const count = (samples: Sample[], test: (s: Sample) => boolean) => samples.filter(test).length;
  return {
    phase: `${p.name} (${p.seconds} s)`,
    'sign-ins': p.signIns.length,
    'ok (201)': count(p.signIns, (s) => s.status === 201),
    '429s': count(p.signIns, (s) => s.status === 429),
    '503s': count(p.signIns, (s) => s.status === 503),
    'other/failed': count(p.signIns, (s) => s.status !== 201 && s.status !== 429 && s.status !== 503),
    'sign-in p50 ms': ms(p.signIns, 0.5).toFixed(0),
    'sign-in p99 ms': ms(p.signIns, 0.99).toFixed(0),
    'API GETs': p.api.length,
    'API non-2xx': count(p.api, (s) => s.status === 'error' || s.status >= 300),
    'API p50 ms': ms(p.api, 0.5).toFixed(1),
    'API p99 ms': ms(p.api, 0.99).toFixed(1),
    'cores: gateway': p.cores.gateway.toFixed(2),
    bench: p.cores.bench.toFixed(2),
    'rest of host': Math.max(0, p.cores.host - p.cores.gateway - p.cores.bench).toFixed(2),
  };
}

function floodRow(phase: string, f: FloodResult): Record<string, string | number> {
  const listed = ['401', '429', '503', 'error'];
  return {
    phase,
    requests: f.requests,
    'req/s': (f.requests / (f.elapsedMs / 1000)).toFixed(0),
    '401s': f.statuses['401'] ?? 0,
    '429s': f.statuses['429'] ?? 0,
    '503s': f.statuses['503'] ?? 0,
    'no answer': f.statuses.error ?? 0,
    other: Object.entries(f.statuses).reduce((sum, [status, n]) => (listed.includes(status) ? sum : sum + n), 0),
  };
}
