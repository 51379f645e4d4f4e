/**
 * A schedule's crawlConfig carries a search job's `config.pages`: validated like a
 * job body, shown back, and used by the jobs the schedule fires (reserved per page).
 */
import { ScheduleRepository, sql } from '@crawl/db';
import { fireDueSchedules } from '@crawl/jobs';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

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
  const { jobIds } = await fireDueSchedules({ db: h.deps.db, schedules: new ScheduleRepository(h.deps.db), jobService: h.deps.jobService });
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
    { path: 'body.crawlConfig.config.pages', message: 'applies to search and reviews jobs only' },
  ]);
  const deep = await create({ type: 'search', targets: ['desk lamp'], config: { pages: 8 } });
  expect(deep.status).toBe(400);
  expect(deep.body.error.details).toEqual([expect.objectContaining({ path: 'body.crawlConfig.config.pages' })]);
});
