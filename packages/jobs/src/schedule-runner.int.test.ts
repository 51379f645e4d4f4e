import { CreditRepository, type Db, JobRepository, JobTargetRepository, ScheduleRepository } from '@crawl/db';
import { createLogger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';
import { buildProject, buildSchedule, openTestQueue, openTestStore, type TestQueue, type TestStore, uniqueAsin } from '@crawl/testing';
import { JobService } from './job.service';
import { fireDueSchedules, type ScheduleRunnerDeps } from './schedule-runner';

/**
 * fireDueSchedules by direct call against a cloned database and a private queue prefix: one
 * job and one run per due fire, exclusive under concurrent firings, a skipped run on a short
 * balance, and nothing for a disabled schedule. fireDueSchedules takes every due schedule of
 * the database, so each test disables its schedules when it ends.
 */
let store: TestStore;
let queue: TestQueue;
let db: Db;
let producer: QueueProducer;
let deps: ScheduleRunnerDeps;
let credits: CreditRepository;

beforeAll(async () => {
  store = await openTestStore(6);
  queue = openTestQueue('schedule');
  ({ db } = store);
  ({ producer } = queue);
  credits = new CreditRepository(db);
  const jobService = new JobService({
    db,
    jobs: new JobRepository(db),
    targets: new JobTargetRepository(db),
    credits,
    producer,
    log: createLogger({ level: 'silent', service: 'schedule-runner-test' }),
  });
  deps = { db, schedules: new ScheduleRepository(db), jobService };
});
afterEach(async () => {
  await db.updateTable('schedule').set({ enabled: false }).execute();
});
afterAll(async () => {
  await queue.close();
  await store.close();
});

const scheduleRow = (id: string) => db.selectFrom('schedule').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const runsOf = (id: string) =>
  db.selectFrom('schedule_run').select(['fire_time', 'status', 'job_id']).where('schedule_id', '=', id).execute();
const jobsOf = (id: string) => db.selectFrom('job').selectAll().where('schedule_id', '=', id).execute();
const startTask = (jobId: string) => producer['queue']('crawl').getJob(jobId);

it('a due schedule creates one job and one run, advances next_run_at and enqueues the job’s start', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const targets = [uniqueAsin(), uniqueAsin()];
  const fireTime = new Date(Date.now() - 90_000);
  const schedule = await buildSchedule(db, {
    owner,
    cron: '*/5 * * * *',
    nextRunAt: fireTime,
    crawlConfig: { type: 'details', targets, marketplace: 'DE', lang: 'de' },
  });

  const { fired, jobIds } = await fireDueSchedules(deps);

  expect(fired).toBe(1);
  expect(jobIds).toHaveLength(1);
  const jobs = await jobsOf(schedule.id);
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({
    id: jobIds[0],
    status: 'queued',
    type: 'details',
    targets,
    marketplace: 'DE',
    lang: 'de',
    project_id: owner.projectId,
    credits_reserved: 4,
  });
  expect(await credits.balance(owner.organizationId)).toBe(96);
  expect(await runsOf(schedule.id)).toEqual([{ fire_time: fireTime, status: 'created', job_id: jobIds[0] }]);

  const after = await scheduleRow(schedule.id);
  expect(after.enabled).toBe(true);
  expect(after.last_run_at).toEqual(fireTime);
  expect(after.last_run_status).toBe('created');
  expect(after.last_job_id).toBe(jobIds[0]);
  // Missed fires are not replayed: the next one is the first */5 minute after now.
  expect(after.next_run_at.getTime()).toBeGreaterThan(Date.now());
  expect(after.next_run_at.getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
  expect(after.next_run_at.getUTCMinutes() % 5).toBe(0);
  expect(after.next_run_at.getUTCSeconds()).toBe(0);
  expect((await startTask(jobIds[0]!))?.name).toBe('crawl.startJob');

  expect(await fireDueSchedules(deps)).toEqual({ fired: 0, jobIds: [] }); // no longer due
  expect(await jobsOf(schedule.id)).toHaveLength(1);
});

it('concurrent firings of one due schedule create one job and one run between them', async () => {
  const owner = await buildProject(db, { credits: 1_000 });
  const schedule = await buildSchedule(db, { owner });

  const results = await Promise.all(Array.from({ length: 4 }, () => fireDueSchedules(deps)));

  expect(results.reduce((n, r) => n + r.fired, 0)).toBe(1);
  expect(results.flatMap((r) => r.jobIds)).toHaveLength(1);
  expect(await jobsOf(schedule.id)).toHaveLength(1);
  expect(await runsOf(schedule.id)).toHaveLength(1);
  expect(await credits.balance(owner.organizationId)).toBe(998); // reserved once
});

it('a fire time already recorded creates no second job and reserves nothing', async () => {
  const owner = await buildProject(db, { credits: 1_000 });
  const schedule = await buildSchedule(db, { owner });
  await fireDueSchedules(deps);
  // A replica working from a stale read of next_run_at would fire the same time again.
  await db.updateTable('schedule').set({ next_run_at: schedule.next_run_at }).where('id', '=', schedule.id).execute();

  expect(await fireDueSchedules(deps)).toEqual({ fired: 0, jobIds: [] });
  expect(await jobsOf(schedule.id)).toHaveLength(1);
  expect(await runsOf(schedule.id)).toHaveLength(1);
  expect(await credits.balance(owner.organizationId)).toBe(998);
});

it('a schedule whose fire time is already recorded moves on and does not block the other due schedules', async () => {
  const owner = await buildProject(db, { credits: 1_000 });
  const stuck = await buildSchedule(db, { owner });
  await fireDueSchedules(deps);
  await db.updateTable('schedule').set({ next_run_at: stuck.next_run_at }).where('id', '=', stuck.id).execute();
  const other = await buildSchedule(db, { owner, crawlConfig: { type: 'details', targets: [uniqueAsin()] } });

  const { fired, jobIds } = await fireDueSchedules(deps);

  expect(fired).toBe(1);
  expect((await jobsOf(other.id)).map((j) => j.id)).toEqual(jobIds);
  expect(await jobsOf(stuck.id)).toHaveLength(1);
  expect((await scheduleRow(stuck.id)).next_run_at.getTime()).toBeGreaterThan(Date.now());
  expect(await fireDueSchedules(deps)).toEqual({ fired: 0, jobIds: [] });
});

it('a short balance records a skipped run, creates no job and keeps the schedule enabled', async () => {
  const owner = await buildProject(db, { credits: 3 });
  const first = await buildSchedule(db, { owner, crawlConfig: { type: 'details', targets: [uniqueAsin()] } });
  await fireDueSchedules(deps); // 2 of the 3 credits: one credit left
  const fireTime = new Date(Date.now() - 1_000);
  await db.updateTable('schedule').set({ next_run_at: fireTime }).where('id', '=', first.id).execute();

  const { fired, jobIds } = await fireDueSchedules(deps);

  expect(fired).toBe(1);
  expect(jobIds).toEqual([]);
  const runs = await runsOf(first.id);
  expect(runs).toHaveLength(2);
  expect(runs.find((r) => r.fire_time.getTime() === fireTime.getTime())).toEqual({
    fire_time: fireTime,
    status: 'skipped_insufficient_credits',
    job_id: null,
  });
  expect(await jobsOf(first.id)).toHaveLength(1);
  expect(await credits.balance(owner.organizationId)).toBe(1);
  const after = await scheduleRow(first.id);
  expect(after.enabled).toBe(true);
  expect(after.last_run_status).toBe('skipped_insufficient_credits');
  expect(after.last_job_id).toBe((await jobsOf(first.id))[0]!.id); // still the last job it created
  expect(after.next_run_at.getTime()).toBeGreaterThan(Date.now());
});

it('a disabled schedule does not fire, however overdue', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const schedule = await buildSchedule(db, { owner, enabled: false, nextRunAt: new Date(Date.now() - 3_600_000) });

  expect(await fireDueSchedules(deps)).toEqual({ fired: 0, jobIds: [] });

  expect(await jobsOf(schedule.id)).toEqual([]);
  expect(await runsOf(schedule.id)).toEqual([]);
  expect((await scheduleRow(schedule.id)).next_run_at).toEqual(schedule.next_run_at);
  expect(await credits.balance(owner.organizationId)).toBe(100);
});
