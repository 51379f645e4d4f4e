import { newId } from '@crawl/core';
import { type Db, RetentionRepository, sql } from '@crawl/db';
import { createLogger } from '@crawl/observability';
import { buildProject, openTestStore, type TestStore } from '@crawl/testing';
import { loadSchedulerConfig } from './config';
import { RetentionLoop, retentionPolicy } from './retention-loop';

let store: TestStore;
let db: Db;

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
});
afterAll(() => store.close());

it('reads the retention days per plan from the environment, with documented defaults', () => {
  expect(retentionPolicy(loadSchedulerConfig({}))).toEqual({ days: { starter: 30, growth: 90, enterprise: 365 }, batchSize: 5_000 });
  const custom = loadSchedulerConfig({ RETENTION_DAYS_STARTER: '7', RETENTION_DAYS_ENTERPRISE: '0', RETENTION_BATCH_SIZE: '1000' });
  expect(retentionPolicy(custom)).toEqual({ days: { starter: 7, growth: 90, enterprise: 0 }, batchSize: 1_000 });
  expect(() => loadSchedulerConfig({ RETENTION_DAYS_GROWTH: '-1' })).toThrow();
});

it('sweeps at start: an expired job of a starter project loses its results, a recent one keeps them', async () => {
  const owner = await buildProject(db, { plan: 'starter' });
  const jobs = { expired: newId('job'), recent: newId('job') };
  for (const [id, days] of [
    [jobs.expired, 31],
    [jobs.recent, 1],
  ] as const) {
    await sql`
      insert into job (id, project_id, organization_id, type, status, marketplace, targets, target_count, credits_reserved, finished_at)
      values (${id}, ${owner.projectId}, ${owner.organizationId}, 'details', 'completed', 'US', '["B0LOOP0000"]', 1, 2, now() - make_interval(days => ${days}))`.execute(
      db,
    );
    await sql`insert into result_item (job_id, target_idx, position, data) select ${id}, 0, g, '{}'::jsonb from generate_series(1, 7) g`.execute(
      db,
    );
  }
  const loop = new RetentionLoop(
    new RetentionRepository(db),
    { days: { starter: 30, growth: 90, enterprise: 365 }, batchSize: 3 },
    60_000,
    createLogger({ level: 'silent', service: 'retention-test' }),
  );
  loop.start();
  await loop.stop();
  const rows = await sql<{
    job_id: string;
    n: number;
  }>`select job_id, count(*)::int as n from result_item where job_id in (${jobs.expired}, ${jobs.recent}) group by job_id`.execute(db);
  expect(rows.rows).toEqual([{ job_id: jobs.recent, n: 7 }]);
});
