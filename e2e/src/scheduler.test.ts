import { sql } from '@crawl/db';
import { allowFastSchedules, ServiceProcess } from '@crawl/testing';
import { loadSchedulerConfig, type SchedulerHandle, startScheduler } from '@crawl/scheduler';
import { auth, type Stack, startStack } from './stack';

let stack: Stack;
const schedulers: SchedulerHandle[] = [];
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: 0 });
});
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.close();
  for (const p of processes.splice(0)) await p.stop('SIGKILL');
});
afterAll(() => stack.close());

const schedulerEnv = () => ({ ...stack.workerEnv, RECONCILE_INTERVAL_MS: '60000' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createSchedule(tenant: Awaited<ReturnType<Stack['tenant']>>, cron: string) {
  await allowFastSchedules(stack.db, tenant.organizationId);
  const res = await stack.http
    .post(`/v1/key/projects/${tenant.projectId}/schedules`)
    .set(auth(tenant))
    .send({ cron, crawlConfig: { type: 'details', targets: ['B0SCHED001'] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

async function runs(scheduleId: string) {
  return stack.db.selectFrom('schedule_run').selectAll().where('schedule_id', '=', scheduleId).orderBy('fire_time').execute();
}

it('every 2 s for 20 s with 3 scheduler replicas: 10 +/- 1 jobs, one per fire time', async () => {
  const tenant = await stack.tenant();
  for (let i = 0; i < 3; i++) schedulers.push(await startScheduler(loadSchedulerConfig(schedulerEnv())));
  const schedule = await createSchedule(tenant, '*/2 * * * * *');
  await sleep(20_000);
  await stack.http.patch(`/v1/key/schedules/${schedule.id}`).set(auth(tenant)).send({ enabled: false });
  const rows = await runs(schedule.id);
  expect(rows.length).toBeGreaterThanOrEqual(9);
  expect(rows.length).toBeLessThanOrEqual(11);
  expect(new Set(rows.map((r) => r.fire_time.toISOString())).size).toBe(rows.length);
  for (const r of rows) expect(r.fire_time.getUTCSeconds() % 2).toBe(0);
  const jobs = await stack.db.selectFrom('job').select(['id', 'schedule_id', 'status']).where('schedule_id', '=', schedule.id).execute();
  expect(jobs).toHaveLength(rows.length);
  expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(rows.map((r) => r.job_id)));
  const listed = await stack.http.get(`/v1/key/projects/${tenant.projectId}/jobs?limit=100`).set(auth(tenant));
  expect(listed.body.data.every((j: { scheduleId: string }) => j.scheduleId === schedule.id)).toBe(true);
}, 60_000);

it('the only scheduler killed for 10 s: exactly one catch-up job on restart, then the normal cadence', async () => {
  const tenant = await stack.tenant();
  const spawn = () => {
    const p = ServiceProcess.start('scheduler', 'services/scheduler/dist/main.js', schedulerEnv());
    processes.push(p);
    return p;
  };
  const first = spawn();
  const schedule = await createSchedule(tenant, '*/2 * * * * *');
  await sleep(5_000);
  await first.stop('SIGKILL');
  const killedAt = Date.now();
  const before = (await runs(schedule.id)).length;
  expect(before).toBeGreaterThanOrEqual(1);
  await sleep(10_000);
  const restartedAt = Date.now();
  spawn();
  // The cadence is counted from when the new process is up (its catch-up run is written), not
  // from its spawn: on a loaded machine a node process can take seconds to start.
  const deadline = Date.now() + 20_000;
  while ((await runs(schedule.id)).length === before && Date.now() < deadline) await sleep(100);
  await sleep(5_000);
  const after = await runs(schedule.id);
  const created = after.slice(before);
  // Fires that fell in the downtime: exactly one, recorded at the first missed fire time.
  const catchUp = created.filter((r) => r.fire_time.getTime() < restartedAt - 100);
  expect(catchUp).toHaveLength(1);
  expect(catchUp[0]!.fire_time.getTime()).toBeGreaterThan(killedAt - 2_100);
  // Then the cadence: one run per 2 s after the restart.
  const cadence = created.filter((r) => r.fire_time.getTime() >= restartedAt - 100);
  expect(cadence.length).toBeGreaterThanOrEqual(2);
  expect(cadence.length).toBeLessThanOrEqual(4);
  const gaps = cadence.slice(1).map((r, i) => r.fire_time.getTime() - cadence[i]!.fire_time.getTime());
  expect(gaps.every((g) => g === 2_000)).toBe(true);
}, 60_000);

it('insufficient credits: the run is recorded as skipped, no job, no negative balance, schedule stays enabled', async () => {
  const tenant = await stack.tenant({ credits: 3 }); // one details target costs 2: one run, then short
  schedulers.push(await startScheduler(loadSchedulerConfig(schedulerEnv())));
  const schedule = await createSchedule(tenant, '*/2 * * * * *');
  await sleep(5_000);
  const rows = await runs(schedule.id);
  expect(rows[0]!.status).toBe('created');
  expect(rows.slice(1).length).toBeGreaterThanOrEqual(1);
  expect(rows.slice(1).every((r) => r.status === 'skipped_insufficient_credits' && r.job_id === null)).toBe(true);
  const jobs = await stack.db.selectFrom('job').select('id').where('schedule_id', '=', schedule.id).execute();
  expect(jobs).toHaveLength(1);
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(1);
  const s = (await stack.http.get(`/v1/key/schedules/${schedule.id}`).set(auth(tenant))).body.data;
  expect(s).toMatchObject({ enabled: true, lastRunStatus: 'skipped_insufficient_credits', lastJobId: jobs[0]!.id });
}, 30_000);

it('PATCH enabled=false stops new jobs before the next fire', async () => {
  const tenant = await stack.tenant();
  schedulers.push(await startScheduler(loadSchedulerConfig(schedulerEnv())));
  const schedule = await createSchedule(tenant, '*/2 * * * * *');
  await sleep(3_000);
  const res = await stack.http.patch(`/v1/key/schedules/${schedule.id}`).set(auth(tenant)).send({ enabled: false });
  expect(res.body.data.enabled).toBe(false);
  const at = (await runs(schedule.id)).length;
  await sleep(4_500);
  expect((await runs(schedule.id)).length).toBe(at);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from job where schedule_id = ${schedule.id}`.execute(stack.db);
  expect(rows[0]!.n).toBe(at);
}, 30_000);
