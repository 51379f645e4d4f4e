import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/** A job's delivery location (`config.postalCode`): validated per marketplace, normalised, kept and shown. */
let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 1_000 });
});
afterAll(() => h.close());

const post = (path: string, body: unknown) =>
  h.http
    .post(`/v1/key/projects/${tenant.projectId}${path}`)
    .set(bearer(tenant.apiKey))
    .send(body as object);

it('takes a postal code of the job marketplace, normalised, and shows it on the job and its retry source', async () => {
  const res = await post('/jobs', { type: 'details', targets: ['B0POSTAL01'], config: { marketplace: 'UK', postalCode: 'sw1a1aa' } });
  expect(res.status).toBe(202);
  expect(res.body.data).toMatchObject({ marketplace: 'UK', postalCode: 'SW1A 1AA' });
  const got = await h.http.get(`/v1/key/jobs/${res.body.data.id}`).set(bearer(tenant.apiKey));
  expect(got.body.data.postalCode).toBe('SW1A 1AA');
  const row = await h.deps.db.selectFrom('job').select('postal_code').where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
  expect(row.postal_code).toBe('SW1A 1AA');
});

it('is null when not asked', async () => {
  const res = await post('/jobs', { type: 'details', targets: ['B0POSTAL02'] });
  expect(res.status).toBe(202);
  expect(res.body.data.postalCode).toBeNull();
});

it('refuses a code of another form with a 400 naming config.postalCode, on create, estimate and schedules', async () => {
  const body = { type: 'search', targets: ['desk lamp'], config: { marketplace: 'DE', postalCode: 'SW1A 1AA' } };
  for (const path of ['/jobs', '/jobs/estimate']) {
    const res = await post(path, body);
    expect([path, res.status, res.body.error.code]).toEqual([path, 400, 'VALIDATION_ERROR']);
    expect(res.body.error.details).toEqual([
      { path: 'body.config.postalCode', message: expect.stringMatching(/^not a postal code of marketplace DE \(for example 10115\)$/) },
    ]);
  }
  const schedule = await post('/schedules', { cron: '0 7 * * *', crawlConfig: body });
  expect(schedule.status).toBe(400);
  expect(schedule.body.error.details).toEqual([expect.objectContaining({ path: 'body.crawlConfig.config.postalCode' })]);
  for (const postalCode of [12345, '', 'x'.repeat(21)]) {
    const res = await post('/jobs', { type: 'details', targets: ['B0POSTAL03'], config: { postalCode } });
    expect([postalCode, res.status]).toEqual([postalCode, 400]);
  }
});

it('a schedule keeps it in its crawl config and its jobs carry it', async () => {
  const res = await post('/schedules', {
    cron: '0 7 * * *',
    crawlConfig: { type: 'details', targets: ['B0POSTAL04'], config: { postalCode: '10001-1234' } },
  });
  expect(res.status).toBe(201);
  expect(res.body.data.crawlConfig.config).toEqual({ marketplace: 'US', lang: null, postalCode: '10001-1234' });
});
