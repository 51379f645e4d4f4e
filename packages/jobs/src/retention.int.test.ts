import { newId } from '@crawl/core';
import { type Db, RetentionRepository, sql } from '@crawl/db';
import { buildEvent, buildProject, openTestStore, type TestStore, type TestTenant } from '@crawl/testing';
import { runRetentionSweep } from './retention';

/**
 * Retention against a cloned database: only expired rows of the right plan go, in batches no
 * larger than the batch size, results of purged jobs first marked (410) then deleted, and
 * pending deliveries kept whatever their age.
 */
let store: TestStore;
let db: Db;
let retention: RetentionRepository;

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
  retention = new RetentionRepository(db);
});
afterAll(() => store.close());

const DAY = 24 * 3600 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const policy = { days: { starter: 30, growth: 90, enterprise: 0 }, batchSize: 4 };

/** A finished job `finishedDaysAgo` old with `rows` result rows (or a running one when null). */
async function seedJob(owner: TestTenant, finishedDaysAgo: number | null, rows: number): Promise<string> {
  const id = newId('job');
  const finished = finishedDaysAgo === null ? null : daysAgo(finishedDaysAgo);
  await db
    .insertInto('job')
    .values({
      id,
      project_id: owner.projectId,
      organization_id: owner.organizationId,
      type: 'details',
      status: finished ? 'completed' : 'running',
      marketplace: 'US',
      lang: null,
      targets: JSON.stringify(['B0RETAIN00']),
      target_count: 1,
      succeeded: finished ? 1 : 0,
      results_count: rows,
      credits_reserved: 2,
      credits_consumed: finished ? 2 : 0,
      created_at: finished ?? new Date(),
      started_at: finished ?? new Date(),
      finished_at: finished,
    })
    .execute();
  await sql`insert into result_item (job_id, target_idx, position, data) select ${id}, 0, g, '{}'::jsonb from generate_series(1, ${rows}) g`.execute(
    db,
  );
  return id;
}

async function seedLogs(owner: TestTenant, ageDays: number, status: 'delivered' | 'failed' | 'pending'): Promise<{ deliveryId: string }> {
  const event = await buildEvent(db, owner.projectId);
  const deliveryId = newId('dlv');
  const at = daysAgo(ageDays);
  await db
    .insertInto('webhook_delivery')
    .values({
      id: deliveryId,
      event_id: event.id,
      webhook_id: 'whk_retention000000',
      project_id: owner.projectId,
      event_type: 'job.completed',
      body: '{}',
      status,
      created_at: at,
      finished_at: status === 'pending' ? null : at,
    })
    .execute();
  await db
    .insertInto('webhook_attempt')
    .values({
      delivery_id: deliveryId,
      webhook_id: 'whk_retention000000',
      project_id: owner.projectId,
      event_type: 'job.completed',
      attempt: 1,
      success: status === 'delivered',
      duration_ms: 5,
      created_at: at,
    })
    .execute();
  return { deliveryId };
}

const resultCount = async (jobId: string) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from result_item where job_id = ${jobId}`.execute(db)).rows[0]!.n);
const purgeState = async (jobId: string) =>
  (
    await sql<{
      results_purged_at: Date | null;
      results_purge_pending: boolean;
    }>`select results_purged_at, results_purge_pending from job where id = ${jobId}`.execute(db)
  ).rows[0]!;
const deliveryExists = async (id: string) =>
  (await db.selectFrom('webhook_delivery').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
const attemptsOf = async (deliveryId: string) =>
  (await db.selectFrom('webhook_attempt').select('id').where('delivery_id', '=', deliveryId).execute()).length;

describe('runRetentionSweep', () => {
  it('purges only the expired rows of each plan, in batches', async () => {
    const starter = await buildProject(db, { plan: 'starter' });
    const growth = await buildProject(db, { plan: 'growth' });
    const enterprise = await buildProject(db, { plan: 'enterprise' });
    const jobs = {
      starterOld: await seedJob(starter, 31, 10),
      starterRecent: await seedJob(starter, 29, 3),
      starterRunning: await seedJob(starter, null, 2),
      growthOld: await seedJob(growth, 60, 3),
      growthExpired: await seedJob(growth, 91, 5),
      enterpriseAncient: await seedJob(enterprise, 1_000, 2),
    };
    const logs = {
      starterOld: await seedLogs(starter, 31, 'failed'),
      starterRecent: await seedLogs(starter, 29, 'delivered'),
      starterPending: await seedLogs(starter, 40, 'pending'),
      growthOld: await seedLogs(growth, 60, 'delivered'),
      growthExpired: await seedLogs(growth, 95, 'delivered'),
    };

    const report = await runRetentionSweep(retention, policy);
    expect(report).toEqual({ jobsMarked: 2, resultsDeleted: 15, attemptsDeleted: 3, deliveriesDeleted: 2, complete: true });

    for (const id of [jobs.starterOld, jobs.growthExpired]) {
      expect(await resultCount(id)).toBe(0);
      expect(await purgeState(id)).toEqual({ results_purged_at: expect.any(Date), results_purge_pending: false });
    }
    for (const [id, rows] of [
      [jobs.starterRecent, 3],
      [jobs.starterRunning, 2],
      [jobs.growthOld, 3],
      [jobs.enterpriseAncient, 2],
    ] as const) {
      expect(await resultCount(id)).toBe(rows);
      expect((await purgeState(id)).results_purged_at).toBeNull();
    }
    for (const gone of [logs.starterOld, logs.growthExpired]) {
      expect(await deliveryExists(gone.deliveryId)).toBe(false);
      expect(await attemptsOf(gone.deliveryId)).toBe(0);
    }
    for (const kept of [logs.starterRecent, logs.growthOld, logs.starterPending]) expect(await deliveryExists(kept.deliveryId)).toBe(true);
    // A pending delivery stays; its old attempt is a log line like any other.
    expect(await attemptsOf(logs.starterPending.deliveryId)).toBe(0);

    // Nothing left to do: a second sweep changes nothing.
    expect(await runRetentionSweep(retention, policy)).toEqual({
      jobsMarked: 0,
      resultsDeleted: 0,
      attemptsDeleted: 0,
      deliveriesDeleted: 0,
      complete: true,
    });
  });

  it('never deletes more than a batch per statement, and a mark survives an interrupted purge', async () => {
    const starter = await buildProject(db, { plan: 'starter' });
    const id = await seedJob(starter, 45, 9);
    expect(await retention.markExpiredJobs('starter', 30, 4)).toContain(id);
    expect(await purgeState(id)).toEqual({ results_purged_at: expect.any(Date), results_purge_pending: true });
    // The purge stopped after one batch (a crash, a deadline): the job stays pending.
    expect(await retention.deleteResultBatch(id, 4)).toBe(4);
    expect(await retention.pendingPurges(1_000)).toContain(id);
    const report = await runRetentionSweep(retention, policy);
    expect(report.resultsDeleted).toBe(5);
    expect(await resultCount(id)).toBe(0);
    expect((await purgeState(id)).results_purge_pending).toBe(false);
  });

  it('stops at the deadline and reports the sweep incomplete', async () => {
    const starter = await buildProject(db, { plan: 'starter' });
    const id = await seedJob(starter, 45, 20);
    const report = await runRetentionSweep(retention, policy, Date.now() - 1);
    expect(report.complete).toBe(false);
    expect(await resultCount(id)).toBeGreaterThan(0);
    await runRetentionSweep(retention, policy);
    expect(await resultCount(id)).toBe(0);
  });
});
