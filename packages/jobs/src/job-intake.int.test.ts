import type { JobSpec } from '@crawl/core';
import { CreditRepository, type Db, JobRepository, JobTargetRepository, type NewJob, sql } from '@crawl/db';
import { createLogger } from '@crawl/observability';
import { createTenant, openTestQueue, openTestStore, type TestQueue, type TestStore } from '@crawl/testing';
import { JobService } from './job.service';

/** Group commits of job creations against a real database and queue. */
let store: TestStore;
let testQueue: TestQueue;
let db: Db;
const log = createLogger({ level: 'silent', service: 'job-intake-test' });

/** The job repository, counting the reservation statements it runs. */
class CountingJobs extends JobRepository {
  statements = 0;
  override insertManyWithReservation(organizationId: string, jobs: NewJob[]) {
    this.statements++;
    return super.insertManyWithReservation(organizationId, jobs);
  }
}

beforeAll(async () => {
  store = await openTestStore(6);
  testQueue = openTestQueue('intake');
  ({ db } = store);
});
afterAll(async () => {
  await testQueue.close();
  await store.close();
});

function serviceWith(jobs: JobRepository) {
  return new JobService({
    db,
    jobs,
    targets: new JobTargetRepository(db),
    credits: new CreditRepository(db),
    producer: testQueue.producer,
    log,
  });
}

const details = (asin: string): JobSpec => ({
  type: 'details',
  targets: [asin],
  marketplace: 'US',
  lang: null,
  pages: null,
  sort: null,
  postalCode: null,
});
const search = (keyword: string): JobSpec => ({
  type: 'search',
  targets: [keyword],
  marketplace: 'US',
  lang: null,
  pages: 1,
  sort: null,
  postalCode: null,
});

it('creations of one organization made together are one statement; each gets the balance its own reservation left', async () => {
  const tenant = await createTenant(db, { credits: 100 });
  const jobs = new CountingJobs(db);
  const service = serviceWith(jobs);
  const accepted = await Promise.all(
    Array.from({ length: 10 }, (_, i) => service.accept(details(`B0INTAKE${String(i).padStart(2, '0')}`), tenant)),
  );
  expect(jobs.statements).toBe(1);
  expect(accepted.map((a) => a.creditsRemaining)).toEqual([98, 96, 94, 92, 90, 88, 86, 84, 82, 80]);
  expect(accepted.map((a) => a.job.targets[0])).toEqual(Array.from({ length: 10 }, (_, i) => `B0INTAKE${String(i).padStart(2, '0')}`));
  expect(await new CreditRepository(db).balance(tenant.organizationId)).toBe(80);
  // The ledger reads as ten reservations one after the other.
  const ledger = await sql<{ job_id: string; balance_after: number }>`
    select job_id, balance_after from credit_ledger where organization_id = ${tenant.organizationId} and kind = 'reserve' order by id`.execute(
    db,
  );
  expect(ledger.rows).toEqual(accepted.map((a) => ({ job_id: a.job.id, balance_after: a.creditsRemaining })));
  const targets = await sql<{
    n: number;
  }>`select count(*)::int as n from job_target where job_id = any(${accepted.map((a) => a.job.id)}::text[])`.execute(db);
  expect(targets.rows[0]!.n).toBe(10);
  for (const { job } of accepted) expect((await testQueue.producer['queue']('crawl').getJob(job.id))?.data).toEqual({ jobId: job.id });
});

it('a group the balance does not cover is reserved job by job in arrival order, each accepted or refused as alone', async () => {
  const tenant = await createTenant(db, { credits: 7 });
  const service = serviceWith(new JobRepository(db));
  // 2, 2, then a search of 5 the remaining 3 cannot cover, then 2 more that fit.
  const outcomes = await Promise.allSettled([
    service.accept(details('B0PARTIAL1'), tenant),
    service.accept(details('B0PARTIAL2'), tenant),
    service.accept(search('lamp'), tenant),
    service.accept(details('B0PARTIAL3'), tenant),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  // The balance it names is read after the refusal: 3, or 1 once the next job is reserved.
  const refusal = (outcomes[2] as PromiseRejectedResult).reason as { code: string; details: { balance: number; cost: number } };
  expect(refusal).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { cost: 5 } });
  expect([3, 1]).toContain(refusal.details.balance);
  expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.creditsRemaining] : []))).toEqual([5, 3, 1]);
  expect(await new CreditRepository(db).balance(tenant.organizationId)).toBe(1);
});

it('a job Postgres refuses does not take the others of its group with it', async () => {
  const tenant = await createTenant(db, { credits: 100 });
  const service = serviceWith(new JobRepository(db));
  const outcomes = await Promise.allSettled([
    service.accept(details('B0REFUSED1'), tenant),
    service.accept(details('B0REFUSED2'), { ...tenant, projectId: 'prj_0000000000000000' }),
    service.accept(details('B0REFUSED3'), tenant),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
  expect(await new CreditRepository(db).balance(tenant.organizationId)).toBe(96);
});
