import { auth, type Stack, startStack } from './stack';

/**
 * Jobs with a postal code crawl as a shopper there (docs/crawling.md, "Delivery location"):
 * the worker sets the location through the simulator's deliver-to flow, once per session.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.setRefusedPostalCodes(null));

const addressChanges = () => stack.simulator.requests().filter((r) => r.path.startsWith('/portal-migration/hz/glow/address-change')).length;

it('the same ASIN crawled for two postal codes gives each item the location of its job', async () => {
  const tenant = await stack.tenant();
  stack.simulator.resetLog();
  const [east, west] = await Promise.all(
    ['10001', '94105'].map((postalCode) =>
      stack.createJob(tenant, { type: 'details', targets: ['B0TEST0001', 'B0TEST0002'], config: { postalCode } }),
    ),
  );
  const byAsin: Record<string, { price: number; earliest: string }>[] = [];
  for (const [id, postalCode] of [
    [east!, '10001'],
    [west!, '94105'],
  ] as const) {
    const job = await stack.waitForJob(id);
    expect(job).toMatchObject({ status: 'completed', progress: { succeeded: 2, failed: 0 } });
    const res = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
    expect(res.body.data).toHaveLength(2);
    const seen: Record<string, { price: number; earliest: string }> = {};
    for (const item of res.body.data) {
      expect(item.deliveryLocation).toMatchObject({ postalCode });
      // where and when the row was seen: the page's URL and the moment it arrived
      expect(item.sourceUrl).toMatch(new RegExp(`/dp/${item.asin}$`));
      expect(Date.parse(item.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(job.createdAt));
      expect(Date.parse(item.fetchedAt)).toBeLessThanOrEqual(Date.parse(job.finishedAt));
      expect(item.deliveryPromise).toMatchObject({ text: expect.any(String), earliest: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
      seen[item.asin] = { price: item.price.amount, earliest: item.deliveryPromise.earliest };
    }
    byAsin.push(seen);
  }
  // The place moves the price and the delivery date (the simulator draws both from ASIN and code).
  for (const asin of ['B0TEST0001', 'B0TEST0002']) {
    const [there, here] = [byAsin[0]![asin]!, byAsin[1]![asin]!];
    expect(there.price).not.toBe(here.price);
    expect(there.earliest).not.toBe(here.earliest);
  }
  // one address change per (exit, postal code): the session is reused for the job's second page
  expect(addressChanges()).toBe(2);
});

it.each(['not-updated', 'other-place'] as const)(
  'a postal code the marketplace does not take (%s) fails LOCATION_MISMATCH after a fresh session, refunded, never stored',
  async (mode) => {
    const tenant = await stack.tenant();
    stack.simulator.setRefusedPostalCodes([{ postalCode: '30301', mode }]);
    stack.simulator.resetLog();
    const id = await stack.createJob(tenant, { type: 'details', targets: ['B0TEST0004'], config: { postalCode: '30301' } });
    const job = await stack.waitForJob(id);
    expect(job).toMatchObject({ status: 'failed', progress: { failed: 1 }, credits: { consumed: 0 } });
    expect(job.errors).toEqual([{ target: 'B0TEST0004', code: 'LOCATION_MISMATCH', message: expect.any(String) }]);
    expect(job.errors[0].message).not.toMatch(/30301|127\.0\.0\.1/);
    expect(addressChanges()).toBe(2);
    const res = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
    expect(res.body.data).toEqual([]);
  },
);

it('a session whose location the marketplace forgot is replaced, and its page is crawled at the location', async () => {
  const tenant = await stack.tenant();
  const first = await stack.createJob(tenant, { type: 'details', targets: ['B0TEST0005'], config: { postalCode: '73301' } });
  expect(await stack.waitForJob(first)).toMatchObject({ status: 'completed' });
  stack.simulator.expireLocations('73301');
  stack.simulator.resetLog();
  const second = await stack.createJob(tenant, { type: 'details', targets: ['B0TEST0006'], config: { postalCode: '73301' } });
  expect(await stack.waitForJob(second)).toMatchObject({ status: 'completed', progress: { succeeded: 1 } });
  const res = await stack.http.get(`/v1/key/jobs/${second}/results`).set(auth(tenant));
  expect(res.body.data[0].deliveryLocation).toMatchObject({ postalCode: '73301' });
  expect(addressChanges()).toBe(1);
});

it("an offers listing's panel pages (no deliver-to block of their own) inherit their session's location", async () => {
  const tenant = await stack.tenant();
  stack.simulator.setOffersLayout('aod');
  stack.simulator.setPageCounts({ B0AODTRK01: 3 });
  stack.simulator.resetLog();
  const id = await stack.createJob(tenant, { type: 'offers', targets: ['B0AODTRK01'], config: { postalCode: '60601', pages: 3 } });
  try {
    expect(await stack.waitForJob(id)).toMatchObject({ status: 'completed', progress: { succeeded: 1, failed: 0 } });
  } finally {
    stack.simulator.setOffersLayout('legacy');
    stack.simulator.setPageCounts(null);
  }
  const requests = stack.simulator.requests();
  const change = requests.find((r) => r.path.startsWith('/portal-migration/hz/glow/address-change'))!;
  const sessionOf = (r: { headers: Record<string, unknown> }) => /session-id=([^;]+)/.exec(String(r.headers.cookie ?? ''))?.[1];
  const panels = requests.filter((r) => r.path.includes('aodAjaxMain'));
  expect(panels.length).toBeGreaterThan(0);
  for (const panel of panels) expect(sessionOf(panel)).toBe(sessionOf(change));
  const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=1000`).set(auth(tenant));
  expect(res.body.data.length).toBeGreaterThan(0);
});

it('a job without a postal code changes no address and reports the location it got', async () => {
  const tenant = await stack.tenant();
  stack.simulator.resetLog();
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0TEST0003'] });
  expect(await stack.waitForJob(id)).toMatchObject({ status: 'completed' });
  expect(stack.simulator.requests().map((r) => r.path.split('?')[0])).toEqual(['/dp/B0TEST0003']);
  // ... and still reports where its page said it delivers (the place the saved page shows)
  const res = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
  const { deliveryLocation } = res.body.data[0];
  expect(deliveryLocation).toEqual({ text: expect.any(String), postalCode: expect.stringMatching(/^\d{5}$/) });
  expect(deliveryLocation.text).toContain(deliveryLocation.postalCode);
});

it('tracking keeps locations apart: two postal codes are two series, never a change against each other', async () => {
  const tenant = await stack.tenant();
  const asin = 'B0TEST0006';
  const crawl = async (postalCode: string) => {
    const id = await stack.createJob(tenant, { type: 'details', targets: [asin], config: { postalCode } });
    expect(await stack.waitForJob(id)).toMatchObject({ status: 'completed' });
  };
  // one after the other: the order of observations is what a series compares
  for (const postalCode of ['10001', '94105', '10001', '94105']) await crawl(postalCode);

  const base = `/v1/key/projects/${tenant.projectId}/tracked-targets`;
  const tracked = await stack.http.get(`${base}?marketplace=US`).set(auth(tenant));
  expect(tracked.status).toBe(200);
  const series = tracked.body.data.filter((t: { asin: string }) => t.asin === asin);
  expect(series.map((t: { postalCode: string }) => t.postalCode).sort()).toEqual(['10001', '94105']);
  for (const t of series) expect(t.changeCount).toBe(0);

  const one = await stack.http.get(`${base}?marketplace=US&postalCode=94105`).set(auth(tenant));
  expect(one.body.data).toEqual([expect.objectContaining({ asin, postalCode: '94105' })]);

  for (const postalCode of ['10001', '94105']) {
    const timeline = await stack.http.get(`${base}/${asin}/timeline?marketplace=US&postalCode=${postalCode}`).set(auth(tenant));
    expect(timeline.status).toBe(200);
    expect(timeline.body.target).toMatchObject({ asin, marketplace: 'US', postalCode, changeCount: 0 });
    expect(timeline.body.data).toHaveLength(2);
    for (const entry of timeline.body.data) expect(entry.changes).toEqual([]);
  }
  // the series of jobs without a postal code is another one, here never observed
  const unlocated = await stack.http.get(`${base}/${asin}/timeline?marketplace=US`).set(auth(tenant));
  expect(unlocated.status).toBe(404);
  expect(unlocated.body.error.message).toMatch(/without a postal code/);
});

it('tracked targets and timelines take a postal code only with its marketplace, in its form', async () => {
  const tenant = await stack.tenant();
  const base = `/v1/key/projects/${tenant.projectId}/tracked-targets`;
  for (const path of [
    `${base}?postalCode=10001`,
    `${base}?marketplace=US&postalCode=ABCDE`,
    `${base}/B0TEST0006/timeline?marketplace=DE&postalCode=1234`,
  ]) {
    const res = await stack.http.get(path).set(auth(tenant));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toMatch(/postalCode/);
  }
  // written as a job takes it: the UK code without its space names the same series
  const ok = await stack.http.get(`${base}?marketplace=UK&postalCode=sw1a1aa`).set(auth(tenant));
  expect(ok.status).toBe(200);
});
