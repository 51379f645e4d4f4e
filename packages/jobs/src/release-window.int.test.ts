import {
  CreditRepository,
  type Database,
  type Db,
  JobRepository,
  JobTargetRepository,
  ReleaseWindowRepository,
  sql,
  type Transaction,
} from '@crawl/db';
import { createLogger } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection } from '@crawl/redis';
import {
  createTenant,
  openTestQueue,
  openTestStore,
  progressRepositories,
  type TestQueue,
  type TestStore,
  type TestTenant,
  uniquePrefix,
} from '@crawl/testing';
import { type JobProgressDeps, recordTargetOutcome, type TargetOutcome } from './job-progress';
import { JobService } from './job.service';
import { reconcileQueuedJobs } from './reconciler';
import { ReleaseWindow, targetTaskId } from './release-window';

/**
 * The per-organization release window against a real database and queue: round-robin order,
 * priorities, the bound under concurrent completions, cancel and the reconciler's top-up.
 */
let store: TestStore;
let testQueue: TestQueue;
let db: Db;
let producer: QueueProducer;
let jobs: JobRepository;
let targets: JobTargetRepository;
let windows: ReleaseWindowRepository;
const log = createLogger({ level: 'silent', service: 'release-window-test' });

/**
 * `n` stand-ins for crawl workers: each records `outcome` for released, pending targets of
 * `ids` (never one another's) until no target of them is pending.
 */
function completers(n: number, ids: string[], depsOf: (worker: number) => JobProgressDeps, outcome: TargetOutcome): Promise<void>[] {
  const claimed = new Set<string>();
  const work = async (worker: number) => {
    for (;;) {
      const { rows } = await sql<{ job_id: string; idx: number }>`
        select t.job_id, t.idx from job_target t
        where t.job_id = any(${ids}::text[]) and t.status = 'pending' and t.released_at is not null`.execute(db);
      const next = rows.find((r) => !claimed.has(`${r.job_id}-${r.idx}`));
      if (!next) {
        const left = await sql<{
          n: number;
        }>`select count(*)::int as n from job_target where job_id = any(${ids}::text[]) and status = 'pending'`.execute(db);
        if (left.rows[0]!.n === 0) return;
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      claimed.add(`${next.job_id}-${next.idx}`);
      await recordTargetOutcome(depsOf(worker), next.job_id, next.idx, 't', outcome);
    }
  };
  return Array.from({ length: n }, (_, worker) => work(worker));
}

beforeAll(async () => {
  store = await openTestStore(12);
  testQueue = openTestQueue('release');
  ({ db } = store);
  ({ producer } = testQueue);
  jobs = new JobRepository(db);
  targets = new JobTargetRepository(db);
  windows = new ReleaseWindowRepository(db);
});
afterAll(async () => {
  await testQueue.close();
  await store.close();
});

/** This file's repositories, with its own job repositories and, when given, a release window. */
const repositories = (releases?: ReleaseWindow): JobProgressDeps => ({
  ...progressRepositories(db),
  jobs,
  targets,
  ...(releases ? { releases } : {}),
});

const windowOf = (w: number) => new ReleaseWindow({ db, windows, producer, log, window: w });
const service = (releases?: ReleaseWindow) =>
  new JobService({ db, jobs, targets, credits: new CreditRepository(db), producer, log, releases });

let asin = 0;
/** A running job of `targets` details targets (created through the service, then started). */
async function runningJob(tenant: TestTenant, targets: number): Promise<string> {
  const list = Array.from({ length: targets }, () => `B0RW${String(asin++).padStart(6, '0')}`);
  const job = await service().create(
    { type: 'details', targets: list, marketplace: 'US', lang: null, pages: null, sort: null, postalCode: null },
    tenant,
  );
  await jobs.markRunning(job.id);
  return job.id;
}

async function occupancy(organizationId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from job_target t join job j on j.id = t.job_id
    where j.organization_id = ${organizationId} and j.status = 'running' and t.status = 'pending' and t.released_at is not null`.execute(
    db,
  );
  return rows[0]!.n;
}

async function queuedPriority(jobId: string, idx: number): Promise<number | undefined> {
  const task = await producer['queue']('crawl').getJob(targetTaskId(jobId, idx));
  return task?.opts.priority;
}

it('releases round-robin over an organization’s running jobs, lowest index first, older job first on ties', async () => {
  const tenant = await createTenant(db, { credits: 10_000 });
  const older = await runningJob(tenant, 4);
  const sameOrg = await createTenant(db, { org: tenant.organizationId }); // another project, same organization
  const newer = await runningJob(sameOrg, 3);
  const releases = windowOf(5);

  const released = await releases.release(tenant.organizationId);
  expect(released.map((t) => [t.jobId, t.idx, t.priority])).toEqual([
    [older, 0, 1],
    [newer, 0, 2],
    [older, 1, 3],
    [newer, 1, 4],
    [older, 2, 5],
  ]);
  expect(await releases.release(tenant.organizationId)).toEqual([]); // the window is full
  expect(await queuedPriority(newer, 1)).toBe(4); // enqueued with the release

  expect(await queuedPriority(older, 3)).toBeUndefined();
});

it('a finished target frees one slot, refilled in the same transaction at priority W; a newcomer organization starts at 1', async () => {
  const backlogged = await createTenant(db, { credits: 10_000 });
  const job = await runningJob(backlogged, 10);
  const releases = windowOf(3);
  const deps = repositories(releases);
  const first = await releases.release(backlogged.organizationId);
  expect(first.map((t) => t.priority)).toEqual([1, 2, 3]);

  await recordTargetOutcome(deps, job, 0, 'x', { kind: 'failed', code: 'NOT_FOUND', message: 'no page', attempts: 1 });
  expect(await occupancy(backlogged.organizationId)).toBe(3);
  expect(await queuedPriority(job, 3)).toBe(3); // occupancy 2 before it + 1 + recent service 1, capped at W
  // A discarded outcome (target no longer pending) releases nothing.
  await recordTargetOutcome(deps, job, 0, 'x', { kind: 'failed', code: 'NOT_FOUND', message: 'no page', attempts: 1 });
  expect(await occupancy(backlogged.organizationId)).toBe(3);
  expect(await queuedPriority(job, 4)).toBeUndefined();

  const newcomer = await createTenant(db, { credits: 10_000 });
  await runningJob(newcomer, 10);
  expect((await releases.release(newcomer.organizationId)).map((t) => t.priority)).toEqual([1, 2, 3]);
});

it('an organization that just had a job crawled is no newcomer for its next one; its recent service fades', async () => {
  const tenant = await createTenant(db, { credits: 10_000 });
  const releases = windowOf(8);
  const deps = repositories(releases);
  const first = await runningJob(tenant, 6);
  expect((await releases.release(tenant.organizationId)).map((t) => t.priority)).toEqual([1, 2, 3, 4, 5, 6]);
  for (let idx = 0; idx < 6; idx++)
    await recordTargetOutcome(deps, first, idx, 't', { kind: 'failed', code: 'NOT_FOUND', message: 'no page', attempts: 1 });
  expect(await db.selectFrom('job').select('status').where('id', '=', first).executeTakeFirstOrThrow()).toEqual({ status: 'failed' });

  // Submitted right after: 6 targets crawled a moment ago count like 6 in its window.
  const second = await runningJob(tenant, 4);
  expect((await releases.release(tenant.organizationId)).map((t) => t.priority)).toEqual([7, 8, 8, 8]);
  await db.updateTable('job_target').set({ status: 'cancelled' }).where('job_id', '=', second).execute();
  await db.updateTable('job').set({ status: 'cancelled' }).where('id', '=', second).execute();

  // Five minutes later (e^-5 of it left), it is a newcomer again.
  await db
    .updateTable('organization_crawl_share')
    .set({ service_at: new Date(Date.now() - 300_000) })
    .where('organization_id', '=', tenant.organizationId)
    .execute();
  await runningJob(tenant, 3);
  expect((await releases.release(tenant.organizationId)).map((t) => t.priority)).toEqual([1, 2, 3]);
});

it('never exceeds the window under concurrent completions, releases and top-ups, and releases every target once', async () => {
  const tenant = await createTenant(db, { credits: 100_000 });
  const W = 6;
  const ids = [await runningJob(tenant, 50), await runningJob(tenant, 50), await runningJob(tenant, 50)];
  const releases = windowOf(W);
  const repos = repositories();
  await releases.release(tenant.organizationId);

  let done = false;
  let maxSeen = 0;
  const sampler = (async () => {
    while (!done) maxSeen = Math.max(maxSeen, await occupancy(tenant.organizationId));
  })();
  // Job starts, cancels and the reconciler's top-ups release beside the workers' completions.
  // Half the completions release nothing themselves, so free slots keep appearing for those
  // concurrent releases to race for.
  const releasers = [
    ...Array.from({ length: 3 }, async () => {
      while (!done) await releases.release(tenant.organizationId);
    }),
    (async () => {
      while (!done) await releases.topUp(10);
    })(),
  ];
  const failed: TargetOutcome = { kind: 'failed', code: 'NOT_FOUND', message: 'no page', attempts: 1 };
  await Promise.all(completers(6, ids, (n) => (n % 2 ? { ...repos, releases } : repos), failed));
  done = true;
  await Promise.all([sampler, ...releasers]);

  expect(maxSeen).toBeLessThanOrEqual(W);
  expect(maxSeen).toBe(W); // the window was really used
  const { rows } = await sql<{ status: string; released: boolean; n: number }>`
    select status, released_at is not null as released, count(*)::int as n from job_target
    where job_id = any(${ids}::text[]) group by 1, 2`.execute(db);
  expect(rows).toEqual([{ status: 'failed', released: true, n: 150 }]);
  const finished = await db.selectFrom('job').select('status').where('id', 'in', ids).execute();
  expect(finished.map((j) => j.status)).toEqual(['failed', 'failed', 'failed']);
}, 60_000);

it('a cancel frees its slots: the reconciler tops the window up, or the cancel itself when it has the window', async () => {
  const tenant = await createTenant(db, { credits: 10_000 });
  const releases = windowOf(4);
  const big = await runningJob(tenant, 10);
  await releases.release(tenant.organizationId);
  const waiting = await runningJob(tenant, 6);
  expect(await releases.release(tenant.organizationId)).toEqual([]); // the big job holds the whole window
  // An organization with a full window and one with only a queued job are left alone.
  const full = await createTenant(db, { credits: 10_000 });
  await runningJob(full, 8);
  await releases.release(full.organizationId);
  const queuedOnly = await createTenant(db, { credits: 10_000 });
  await service().create(
    { type: 'details', targets: ['B0QUEUED01'], marketplace: 'US', lang: null, pages: null, sort: null, postalCode: null },
    queuedOnly,
  );

  await service().cancel(big, tenant.projectId); // no window: nothing released yet
  expect(await occupancy(tenant.organizationId)).toBe(0);
  expect(await windows.organizationsToTopUp(4, 100)).toEqual([tenant.organizationId]);

  await reconcileQueuedJobs({ jobs, jobService: service(), log, releases }, { graceMs: 60_000, batch: 100 });
  expect(await occupancy(tenant.organizationId)).toBe(4);
  expect(await targets.releasedPendingTargetIndexes(waiting)).toEqual([0, 1, 2, 3]);
  expect(await queuedPriority(waiting, 0)).toBe(1);
  expect(await windows.organizationsToTopUp(4, 100)).toEqual([]);

  const third = await runningJob(tenant, 3);
  await service(releases).cancel(waiting, tenant.projectId); // refills at once
  expect(await targets.releasedPendingTargetIndexes(third)).toEqual([0, 1, 2]);
  expect(await queuedPriority(third, 2)).toBe(3);
});

it('cancels, completions that finish jobs and releases of one organization run concurrently without deadlock', async () => {
  const tenant = await createTenant(db, { credits: 100_000 });
  const releases = windowOf(8);
  const repos = repositories();
  const deps: JobProgressDeps = { ...repos, releases };
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await runningJob(tenant, 12));
  await releases.release(tenant.organizationId);

  let done = false;
  const releasers = Array.from({ length: 2 }, async () => {
    while (!done) await releases.release(tenant.organizationId);
  });
  const cancels = (async () => {
    for (const id of ids.filter((_, i) => i % 3 === 0)) {
      await new Promise((r) => setTimeout(r, 15));
      await service(releases).cancel(id, tenant.projectId);
    }
  })();
  await Promise.all([...completers(6, ids, () => deps, { kind: 'succeeded', items: [], attempts: 1 }), cancels]);
  done = true;
  await Promise.all(releasers);
  const statuses = await db.selectFrom('job').select(['id', 'status']).where('id', 'in', ids).execute();
  expect(statuses.every((j) => ['completed', 'failed', 'cancelled'].includes(j.status))).toBe(true);
  expect(statuses.filter((j) => j.status === 'cancelled')).toHaveLength(4);
}, 60_000);

it('a release skips target rows a cancel holds, so cancel -> organization row -> release lock can never close a cycle', async () => {
  // The cycle it prevents: a cancel holds job X's target rows and waits for the organization
  // row, which a finalizing outcome holds while it waits for the release lock, which a
  // release holds while it would wait for job X's target rows.
  const tenant = await createTenant(db, { credits: 10_000 });
  const x = await runningJob(tenant, 6);
  const other = await runningJob(tenant, 6);
  const org = tenant.organizationId;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const touchOrganization = (trx: Transaction<Database>) =>
    trx
      .updateTable('organization')
      .set((eb) => ({ credit_balance: eb.ref('credit_balance') }))
      .where('id', '=', org)
      .execute();

  let releaseNow!: () => void;
  const releaseGo = new Promise<void>((r) => (releaseNow = r));
  const release = db.transaction().execute(async (trx) => {
    await windows.lock(trx, org);
    await releaseGo;
    return windows.releaseTargets(trx, org, { window: 4, served: 0, decaySeconds: 60 });
  });
  await sleep(50);
  const finalizing = db.transaction().execute(async (trx) => {
    await touchOrganization(trx); // like finalizeJob's credit settlement
    await windows.lock(trx, org);
  });
  await sleep(50);
  const cancel = db.transaction().execute(async (trx) => {
    await jobs.lock(trx, x);
    await targets.cancelPendingTargets(trx, x);
    await touchOrganization(trx);
  });
  await sleep(100);
  releaseNow();
  const released = await release;
  await Promise.all([finalizing, cancel]);
  expect(released.map((t) => [t.jobId, t.idx])).toEqual([0, 1, 2, 3].map((i) => [other, i]));
});

it('when Redis refuses the enqueue, a start-side release releases nothing; an outcome keeps its result and its release', async () => {
  const deadRedis = createRedisConnection('redis://127.0.0.1:1');
  const deadProducer = new QueueProducer(deadRedis, uniquePrefix('dead'), 300);
  try {
    const tenant = await createTenant(db, { credits: 10_000 });
    const job = await runningJob(tenant, 5);
    const dead = new ReleaseWindow({ db, windows, producer: deadProducer, log, window: 2 });
    await expect(dead.release(tenant.organizationId)).rejects.toThrow();
    expect(await occupancy(tenant.organizationId)).toBe(0); // rolled back: the start task is retried
    expect(await dead.releaseAndEnqueue(tenant.organizationId)).toBe(0);

    await windowOf(2).release(tenant.organizationId); // targets 0 and 1, queued
    const deps = repositories(dead);
    expect(await recordTargetOutcome(deps, job, 0, 't', { kind: 'failed', code: 'NOT_FOUND', message: 'no page', attempts: 1 })).toBe(
      'recorded',
    );
    expect(await targets.releasedPendingTargetIndexes(job)).toEqual([1, 2]); // 2 released, for the restart path to enqueue
    expect(await queuedPriority(job, 2)).toBeUndefined();
  } finally {
    await deadProducer.close().catch(() => undefined);
    deadRedis.disconnect();
  }
});
