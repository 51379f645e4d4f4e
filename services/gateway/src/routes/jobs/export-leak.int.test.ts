import { createDb, type Db, poolStats, sql } from '@crawl/db';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';
import { download, seedCompletedJob } from '../../test-support/exports';

let h: Harness;
let url: string;
let observer: Db;
let owner: TestTenant;
let other: TestTenant;
let jobId: string;
let otherJobId: string;

const EXPORT_POOL_SIZE = 3;

beforeAll(async () => {
  h = await startHarness({
    // One organization may fill the whole pool here: this suite is about the pool's connections.
    exports: { poolSize: EXPORT_POOL_SIZE, maxPerProject: 100, maxPerOrganization: 100, organizationShare: 1 },
  });
  url = (await h.listen()).url;
  observer = createDb({ url: h.database.url, poolSize: 1 });
  owner = await createTenant(h.deps.db);
  other = await createTenant(h.deps.db);
  jobId = await seedCompletedJob(h.deps.db, owner, 4_000, 5_000);
  otherJobId = await seedCompletedJob(h.deps.db, other, 10, 10);
});
afterAll(async () => {
  await observer?.destroy();
  await h?.close();
});

/** Server connections to the test database that are doing something (a leaked cursor is never idle). */
async function busyConnections(): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state is distinct from 'idle'`.execute(observer);
  return rows[0]!.n;
}

/** Polls `probe` until it is true or a second passed; returns its last answer. */
async function withinASecond(probe: () => Promise<boolean> | boolean): Promise<boolean> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every connection of the export pool is back (idle), nobody waits, no export is running. */
const exportPoolIsFree = () => {
  const stats = poolStats(h.deps.exportDb);
  return stats.idle === stats.total && stats.waiting === 0 && h.deps.exportGate.active === 0;
};

const exportPath = (id: string, format = 'json') => `/v1/key/jobs/${id}/export?format=${format}`;

it('releases every cursor and connection when clients abort downloads, round after round', async () => {
  const formats = ['json', 'csv', 'llm'];
  for (let round = 0; round < 3; round++) {
    // Clients gone right after the headers or before any answer: nothing may stay held.
    const aborted = Array.from({ length: EXPORT_POOL_SIZE * 2 }, (_, i) =>
      download(url, exportPath(jobId, formats[i % 3]), bearer(owner.apiKey), i % 2 ? 'after-headers' : 'before-response'),
    );
    await Promise.all(aborted.map((d) => d.closed));
    expect(await withinASecond(() => exportPoolIsFree())).toBe(true);

    // Clients that stop reading mid-stream hold a cursor each until they go. They are started
    // apart from the aborts above, so which downloads win the pool's slots is not a race.
    const paused = Array.from({ length: EXPORT_POOL_SIZE * 2 }, (_, i) =>
      download(url, exportPath(jobId, formats[i % 3]), bearer(owner.apiKey), 'paused'),
    );
    const responses = await Promise.all(paused.map((d) => d.response));
    // Past the gateway's export capacity the extra downloads are refused at once, not queued.
    expect(responses.map((res) => res?.statusCode).sort()).toEqual([
      ...Array<number>(EXPORT_POOL_SIZE).fill(200),
      ...Array<number>(EXPORT_POOL_SIZE).fill(503),
    ]);
    // While downloads hang, another tenant's API requests still answer.
    for (let i = 0; i < 3; i++) {
      const res = await h.http.get(`/v1/key/jobs/${otherJobId}/results`).set(bearer(other.apiKey));
      expect(res.status).toBe(200);
    }
    // The paused downloads are stuck mid-stream, each holding a cursor.
    expect(h.deps.exportGate.active).toBe(EXPORT_POOL_SIZE);
    expect(poolStats(h.deps.exportDb).idle).toBeLessThan(poolStats(h.deps.exportDb).total);
    for (const d of paused) d.destroy();
    await Promise.all(paused.map((d) => d.closed));
    expect(await withinASecond(() => exportPoolIsFree())).toBe(true);
    expect(await withinASecond(async () => (await busyConnections()) === 0)).toBe(true);
    expect(poolStats(h.deps.exportDb).total).toBeLessThanOrEqual(EXPORT_POOL_SIZE);
  }
  const other200 = await h.http.get(`/v1/key/jobs/${otherJobId}`).set(bearer(other.apiKey));
  expect(other200.status).toBe(200);
  const ready = await h.http.get('/readyz');
  expect(ready.status).toBe(200);

  // A whole export still works afterwards.
  const full = await fetch(`${url}${exportPath(jobId)}`, { headers: bearer(owner.apiKey) });
  expect(full.status).toBe(200);
  expect(JSON.parse(await full.text())).toHaveLength(4_000);
});
