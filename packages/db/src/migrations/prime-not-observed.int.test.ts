import { buildProject, openTestStore, type TestStore } from '@crawl/testing';
import { up } from './202611231210_prime_not_observed';

/** A tracked `isPrime: false` written by the old parsers was never observed. */
let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

it('turns a last known isPrime false into null and leaves every other value alone', async () => {
  const { db } = store;
  const owner = await buildProject(db);
  const snapshot = (isPrime: boolean | null) => JSON.stringify({ price: 19.99, title: 'Lamp', isPrime });
  await db
    .insertInto('tracked_target')
    .values([
      { project_id: owner.projectId, marketplace: 'US', asin: 'B0PRIME001', latest_snapshot: snapshot(false) },
      { project_id: owner.projectId, marketplace: 'US', asin: 'B0PRIME002', latest_snapshot: snapshot(true) },
      { project_id: owner.projectId, marketplace: 'US', asin: 'B0PRIME003', latest_snapshot: null },
    ])
    .execute();
  await up(db);
  const rows = await db
    .selectFrom('tracked_target')
    .select(['asin', 'latest_snapshot'])
    .where('project_id', '=', owner.projectId)
    .orderBy('asin')
    .execute();
  expect(rows.map((r) => r.latest_snapshot)).toEqual([
    { price: 19.99, title: 'Lamp', isPrime: null },
    { price: 19.99, title: 'Lamp', isPrime: true },
    null,
  ]);
});
