import { createHash, randomBytes } from 'node:crypto';
import { type createDb, MembershipRepository, SessionRepository, UserRepository } from '@crawl/db';
import { createTenant, freePort, ServiceProcess, waitForHttp } from '@crawl/testing';
import autocannon from 'autocannon';
import { deleteRedisPrefix, openBenchStore, table } from './processes';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;

interface Figure {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(name: string, options: Omit<autocannon.Options, 'connections' | 'duration'>): Promise<Figure> {
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  return {
    name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/** A case, its target as a fraction of the baseline's req/s (null: the baseline itself) and that baseline. */
interface Case {
  figure: Figure;
  target: number | null;
  baseline: Figure | null;
}

/**
 * `pnpm bench gateway`: the gateway's authenticated GET of a job and job creation against bare
 * express doing the same HTTP work (bare-server.ts: the same JSON answered, the same body
 * parser), each server in its own process, autocannon at 50 connections for BENCH_DURATION_S
 * (10 s) each, in one run. BENCH_CPU_PROF_DIR=dir also writes the gateway's CPU profile there.
 */
export async function benchGateway(): Promise<void> {
  const { dbUrl: pgBase, redisUrl, prefix, db } = await openBenchStore();
  const tenant = await createTenant(db, { plan: 'enterprise', credits: 1_000_000_000, name: 'bench' });
  // Rate limiting stays on, with a limit high enough never to refuse.
  await db.updateTable('organization').set({ per_minute_limit: 100_000_000 }).where('id', '=', tenant.organizationId).execute();

  const gwPort = await freePort();
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const gateway = ServiceProcess.start(
    'gateway',
    'services/gateway/dist/main.js',
    { PORT: String(gwPort), DATABASE_URL: pgBase, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, RATE_LIMIT_ENABLED: 'true' },
    [],
    // BENCH_CPU_PROF_DIR=dir: the gateway writes a CPU profile of the whole run there as it stops.
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  let bare: ServiceProcess | null = null;
  const cases: Case[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${gwPort}/healthz`);
    const auth = { Authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
    const jobBody = JSON.stringify({ type: 'details', targets: ['B0DR8G428S'] });
    const gwJobs = `http://127.0.0.1:${gwPort}/v1/key/projects/${tenant.projectId}/jobs`;
    const createAnswer = await fetch(gwJobs, { method: 'POST', headers: auth, body: jobBody }).then((r) => r.text());
    const jobId = (JSON.parse(createAnswer) as { data: { id: string } }).data.id;
    const gwJob = `http://127.0.0.1:${gwPort}/v1/key/jobs/${jobId}`;
    const getAnswer = await fetch(gwJob, { headers: auth }).then((r) => r.text());

    // The baseline answers exactly what the gateway answered.
    const barePort = await freePort();
    bare = ServiceProcess.start('bare', 'bench/dist/bare-server.js', {
      PORT: String(barePort),
      BARE_GET_BODY: getAnswer,
      BARE_CREATE_BODY: createAnswer,
    });
    await waitForHttp(`http://127.0.0.1:${barePort}/`);
    const bareJob = `http://127.0.0.1:${barePort}/v1/key/jobs/${jobId}`;
    const bareJobs = `http://127.0.0.1:${barePort}/v1/key/projects/${tenant.projectId}/jobs`;
    const post = { method: 'POST' as const, headers: auth, body: jobBody };

    // JIT warm-up of both servers, so that the first measured case is not also the coldest
    for (const options of [{ url: bareJob }, { url: bareJobs, ...post }, { url: gwJob, headers: auth }, { url: gwJobs, ...post }]) {
      await autocannon({ ...options, connections: CONNECTIONS, duration: 3 });
    }
    const bareGet = await measure('bare express GET (same JSON)', { url: bareJob, headers: auth });
    cases.push({ figure: bareGet, target: null, baseline: null });
    cases.push({ figure: await measure('gateway GET /v1/key/jobs/{id}', { url: gwJob, headers: auth }), target: 0.5, baseline: bareGet });
    const cookie = await consoleSession(db, tenant.organizationId);
    cases.push({
      figure: await measure('gateway GET /v1/key/jobs/{id}, console session', { url: gwJob, headers: { Cookie: cookie } }),
      target: 0.5,
      baseline: bareGet,
    });
    const barePost = await measure('bare express POST (JSON parsed, same answer)', { url: bareJobs, ...post });
    cases.push({ figure: barePost, target: null, baseline: null });
    cases.push({
      figure: await measure('gateway POST .../jobs (1 details target)', { url: gwJobs, ...post }),
      target: 0.3,
      baseline: barePost,
    });
  } finally {
    await Promise.all([bare?.stop(), gateway.stop()]);
    await cleanup(db, redisUrl, prefix, tenant.projectId);
    await db.destroy();
  }
  console.log(`\ngateway benchmark: ${CONNECTIONS} connections, ${DURATION_S} s each, 2 cores shared by server and load generator\n`);
  console.log(
    table(
      cases.map(({ figure: f, target, baseline }) => {
        const ratio = baseline ? f.reqPerSec / baseline.reqPerSec : null;
        return {
          case: f.name,
          'req/s': f.reqPerSec.toFixed(0),
          'p50 ms': f.p50,
          'p99 ms': f.p99,
          'non-2xx': f.non2xx,
          'x bare': ratio === null ? '-' : ratio.toFixed(2),
          target: target === null || ratio === null ? '-' : `>= ${target} ${ratio >= target ? 'MET' : 'MISSED'}`,
        };
      }),
    ),
  );
}

/**
 * A signed-in owner of the organization: the session row is made directly (the token's hash, as
 * sign-in stores it), so the bench measures the request path, not argon2.
 */
async function consoleSession(db: ReturnType<typeof createDb>, organizationId: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const userId = await new UserRepository(db).create({ email, passwordHash: 'unused', organizationId, verified: true });
  await new MembershipRepository(db).add({ organizationId, userId, role: 'owner' });
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  await new SessionRepository(db).create({
    userId,
    tokenHash,
    expiresAt: new Date(Date.now() + 3_600_000),
    clientAddress: null,
    userAgent: null,
  });
  return `cds_session=${token}`;
}

/** Removes the run's jobs and queue keys so repeated runs do not grow the bench database or Redis. */
async function cleanup(db: ReturnType<typeof createDb>, redisUrl: string, prefix: string, projectId: string): Promise<void> {
  await db.deleteFrom('job').where('project_id', '=', projectId).execute();
  await deleteRedisPrefix(redisUrl, prefix);
}
