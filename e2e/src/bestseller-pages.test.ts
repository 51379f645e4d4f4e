/**
 * Best-seller list pages end to end through the gateway, the worker and the simulator
 * (docs/fetch-contract.md): a list has 2 pages of 50, `?pg=2` (or Amazon's `/ref=zg_bs_pg_2`
 * links) is page 2, ranks 51-100. The request carries the list path and the page only; targets
 * that fetch the same page are one target (charged once).
 */
import { bestsellerResultItemSchema } from '@crawl/core';
import { REAL_PAGES_DIR } from '@crawl/testing';
import { auth, type Stack, startStack } from './stack';

/** The cases on the saved real pages (docs/testing.md, "Real marketplace pages"; CRAWL_REAL_PAGES_DIR=none runs without). */
const withFixtures = REAL_PAGES_DIR ? it : it.skip;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Tenant = Awaited<ReturnType<Stack['tenant']>>;

async function results(tenant: Tenant, id: string): Promise<Record<string, any>[]> {
  const rows: Record<string, any>[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=100&offset=${offset}`).set(auth(tenant));
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    if (rows.length >= res.body.pagination.total) return rows;
  }
}

const requested = (prefix: string) =>
  stack.simulator
    .requests()
    .filter((r) => r.path.startsWith(prefix))
    .map((r) => r.path);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

withFixtures('a page-2 target returns ranks 51-100 of the list; only the list path and pg=2 are requested', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.resetLog();
  const list = 'https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_2_electronics?_encoding=UTF8&pg=2&tag=x';
  const id = await stack.createJob(tenant, { type: 'bestsellers', targets: [list] });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    targets: [list],
    progress: { total: 1, succeeded: 1, failed: 0 },
    credits: { reserved: 5, consumed: 5, refunded: 0 },
    errors: [],
  });
  expect(requested('/Best-Sellers-')).toEqual(['/Best-Sellers-Electronics/zgbs/electronics?pg=2']);

  const rows = await results(tenant, id);
  for (const row of rows) expect(bestsellerResultItemSchema.safeParse(row).success).toBe(true);
  expect(rows.map((r) => r.rank)).toEqual(range(51, 100));
  expect(rows.every((r) => r.target === list && r.category === 'Best Sellers in Electronics')).toBe(true);
  expect(new Set(rows.map((r) => r.asin)).size).toBe(50);
  // the 30 cards the page renders, then the 20 products it lists only in its data
  expect(rows.slice(0, 30).every((r) => r.title !== null && r.missingFields.length === 0)).toBe(true);
  expect(rows.slice(30).every((r) => r.title === null && r.url === `${stack.simulator.url}/dp/${r.asin}`)).toBe(true);
});

withFixtures('a job with page 1 and page 2 of a list returns ranks 1-100; another spelling of page 1 is the same target', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.resetLog();
  const targets = [
    'https://www.amazon.com/zgbs/kitchen',
    'https://www.amazon.com/zgbs/kitchen/ref=zg_bs_pg_2',
    'https://www.amazon.com/zgbs/kitchen/ref=zg_bs_pg_1?pg=1',
  ];
  const id = await stack.createJob(tenant, { type: 'bestsellers', targets });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    targets: targets.slice(0, 2),
    progress: { total: 2, succeeded: 2, failed: 0 },
    credits: { reserved: 10, consumed: 10, refunded: 0 },
  });
  expect(requested('/zgbs/').sort()).toEqual(['/zgbs/kitchen', '/zgbs/kitchen?pg=2']);

  const rows = await results(tenant, id);
  const ranksOf = (target: string) => rows.filter((r) => r.target === target).map((r) => r.rank);
  expect(ranksOf(targets[0]!)).toEqual(range(1, 50));
  expect(ranksOf(targets[1]!)).toEqual(range(51, 100));
  expect(new Set(rows.map((r) => r.asin)).size).toBe(100);
});

it('a page the list does not have is a 400 naming the target; nothing is reserved', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  for (const bad of ['?pg=0', '?pg=-1', '?pg=abc', '?pg=3', '/ref=zg_bs_pg_11']) {
    const res = await stack.http
      .post(`/v1/key/projects/${tenant.projectId}/jobs`)
      .set(auth(tenant))
      .send({
        type: 'bestsellers',
        targets: ['https://www.amazon.com/zgbs/electronics?pg=2', `https://www.amazon.com/zgbs/electronics${bad}`],
      });
    expect([bad, res.status]).toEqual([bad, 400]);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        expect.objectContaining({
          path: 'body.targets.1',
          message: expect.stringMatching(/^pg must be a page number from 1 to 2 \(best-seller lists have 2 pages of 50\)/),
        }),
      ],
    });
  }
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(100);
});
