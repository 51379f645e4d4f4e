/**
 * A schedule's crawlConfig carries a search job's `config.pages`: validated like a
 * job body, shown back, and used by the jobs the schedule fires (reserved per page).
 */
import { ScheduleRepository, sql } from '@crawl/db';
import { fireDueSchedules } from '@crawl/jobs';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';
import { createJobService } from '../jobs/jobs.service';

let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 100 });
});
afterAll(() => h.close());

const create = (crawlConfig: object) =>
  h.http.post(`/v1/key/projects/${tenant.projectId}/schedules`).set(bearer(tenant.apiKey)).send({ cron: '0 9 * * 1', crawlConfig });

it('keeps config.pages of a search schedule, and its fired job reserves 5 per keyword per page', async () => {
  const res = await create({ type: 'search', targets: ['desk lamp', 'usb c hub'], config: { pages: 3 } });
  expect(res.status).toBe(201);
  expect(res.body.data.crawlConfig).toEqual({
    type: 'search',
    targets: ['desk lamp', 'usb c hub'],
    config: { marketplace: 'US', lang: null, pages: 3 },
  });

  await sql`update schedule set next_run_at = now() - interval '1 minute' where id = ${res.body.data.id}`.execute(h.deps.db);
  const { jobIds } = await fireDueSchedules({
    db: h.deps.db,
    schedules: new ScheduleRepository(h.deps.db),
    jobService: createJobService(h.deps),
  });
  expect(jobIds).toHaveLength(1);
  const job = await h.http.get(`/v1/key/jobs/${jobIds[0]}`).set(bearer(tenant.apiKey));
  expect(job.body.data).toMatchObject({ type: 'search', pages: 3, scheduleId: res.body.data.id, credits: { reserved: 30 } });
});

it('a search schedule without pages shows 1, and pages on a details schedule or out of range is a 400', async () => {
  const plain = await create({ type: 'search', targets: ['desk lamp'] });
  expect(plain.body.data.crawlConfig.config).toEqual({ marketplace: 'US', lang: null, pages: 1 });
  const details = await create({ type: 'details', targets: ['B0DR8G428S'], config: { pages: 2 } });
  expect(details.status).toBe(400);
  expect(details.body.error.details).toEqual([
    { path: 'body.crawlConfig.config.pages', message: 'applies to search, offers and reviews jobs only' },
  ]);
  const deep = await create({ type: 'search', targets: ['desk lamp'], config: { pages: 8 } });
  expect(deep.status).toBe(400);
  expect(deep.body.error.details).toEqual([expect.objectContaining({ path: 'body.crawlConfig.config.pages' })]);
});

it('an offers schedule crawls every offer page by default (pages 10, 20 credits a product); one stored before offers had pages keeps its one page', async () => {
  const res = await create({ type: 'offers', targets: ['B0DR8G428S'] });
  expect(res.status).toBe(201);
  expect(res.body.data.crawlConfig.config).toEqual({ marketplace: 'US', lang: null, pages: 10 });
  // A config stored without pages (offers had none then) meant one page: it still costs what it did.
  const old = await create({ type: 'offers', targets: ['B0DR8G429S'] });
  await sql`update schedule set crawl_config = crawl_config - 'pages' where id = ${old.body.data.id}`.execute(h.deps.db);
  await sql`update schedule set next_run_at = now() - interval '1 minute' where id in (${res.body.data.id}, ${old.body.data.id})`.execute(
    h.deps.db,
  );
  const { jobIds } = await fireDueSchedules({
    db: h.deps.db,
    schedules: new ScheduleRepository(h.deps.db),
    jobService: createJobService(h.deps),
  });
  expect(jobIds).toHaveLength(2);
  const jobs = await Promise.all(jobIds.map((id) => h.http.get(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey))));
  const byTarget = Object.fromEntries(jobs.map((j) => [j.body.data.targets[0], j.body.data]));
  expect(byTarget['B0DR8G428S']).toMatchObject({ type: 'offers', pages: 10, credits: { reserved: 20 } });
  expect(byTarget['B0DR8G429S']).toMatchObject({ type: 'offers', pages: 1, credits: { reserved: 2 } });
});
