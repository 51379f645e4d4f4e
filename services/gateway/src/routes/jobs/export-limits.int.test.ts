import { poolStats } from '@crawl/db';
import { createLogger, ShutdownRegistry } from '@crawl/observability';
import {
  createTenant,
  createTestDatabase,
  freePort,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestTenant,
  uniquePrefix,
} from '@crawl/testing';
import { loadGatewayConfig } from '../../config';
import type { GatewayContext } from '../../context';
import { startGateway } from '../../main';
import { type Download, download, seedCompletedJob } from '../../test-support/exports';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

const exportPath = (id: string, format = 'json') => `/v1/key/jobs/${id}/export?format=${format}`;

/** Polls until `probe` holds; fails the test if it does not within `ms`. */
async function eventually(probe: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${probe.toString()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** No export runs and every connection of the export pool is back. */
const released = (deps: GatewayContext) => () => {
  const stats = poolStats(deps.exportDb);
  return deps.exportGate.active === 0 && stats.idle === stats.total && stats.waiting === 0;
};

/** How many exports this gateway cut for `reason` (the export_aborts_total counter). */
async function aborts(deps: GatewayContext, reason: string): Promise<number> {
  const metric = await deps.metrics.getSingleMetric('export_aborts_total')?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

async function readAll(url: string, path: string, tenant: TestTenant): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}${path}`, { headers: bearer(tenant.apiKey) });
  return { status: res.status, body: await res.text() };
}

describe('per-project cap', () => {
  it('answers 429 RATE_LIMITED with the cap and Retry-After, per project, until a slot frees', async () => {
    const h = await startHarness({ exports: { maxPerProject: 2, poolSize: 8 } });
    try {
      const { url } = await h.listen();
      const [a, b] = [await createTenant(h.deps.db), await createTenant(h.deps.db)];
      const [jobA, jobB] = [await seedCompletedJob(h.deps.db, a, 3_000, 5_000), await seedCompletedJob(h.deps.db, b, 5)];
      const held = [download(url, exportPath(jobA), bearer(a.apiKey)), download(url, exportPath(jobA, 'csv'), bearer(a.apiKey))];
      expect((await Promise.all(held.map((d) => d.response))).map((r) => r?.statusCode)).toEqual([200, 200]);

      const refused = await h.http.get(exportPath(jobA, 'llm')).set(bearer(a.apiKey));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 2 } });
      expect(refused.body.error.message).toContain('At most 2 exports');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another project is not affected.
      expect((await readAll(url, exportPath(jobB), b)).status).toBe(200);

      for (const d of held) d.destroy();
      await eventually(released(h.deps));
      const again = await readAll(url, exportPath(jobA), a);
      expect(again.status).toBe(200);
      expect(JSON.parse(again.body)).toHaveLength(3_000);
    } finally {
      await h.close();
    }
  });

  it('counts across gateways: a replica sees the slots another one holds', async () => {
    const h = await startHarness({ exports: { maxPerProject: 1 } });
    try {
      const { url } = await h.listen();
      const replica = await h.replica();
      const tenant = await createTenant(h.deps.db);
      const job = await seedCompletedJob(h.deps.db, tenant, 3_000, 5_000);
      const held = download(url, exportPath(job), bearer(tenant.apiKey));
      expect((await held.response)?.statusCode).toBe(200);
      expect((await readAll(replica.url, exportPath(job), tenant)).status).toBe(429);
      held.destroy();
      await eventually(released(h.deps));
      expect((await readAll(replica.url, exportPath(job), tenant)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('fails open when Redis does not answer: exports still run, bounded by the gateway', async () => {
    const h = await startHarness({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    try {
      const { url } = await h.listen();
      const tenant = await createTenant(h.deps.db);
      const job = await seedCompletedJob(h.deps.db, tenant, 50);
      const res = await readAll(url, exportPath(job, 'csv'), tenant);
      expect(res.status).toBe(200);
      expect(res.body.trim().split('\r\n')).toHaveLength(51);
      await eventually(released(h.deps));
    } finally {
      await h.close();
    }
  });
});

describe('per-organization share', () => {
  it('one organization exporting from two projects holds at most half the pool: another organization still gets a slot', async () => {
    const h = await startHarness({ exports: { poolSize: 4, maxPerProject: 2 } });
    try {
      const { url } = await h.listen();
      const first = await createTenant(h.deps.db);
      const second = await createTenant(h.deps.db, { org: first.organizationId });
      const other = await createTenant(h.deps.db);
      const [job1, job2, otherJob] = [
        await seedCompletedJob(h.deps.db, first, 3_000, 5_000),
        await seedCompletedJob(h.deps.db, second, 3_000, 5_000),
        await seedCompletedJob(h.deps.db, other, 3_000, 5_000),
      ];
      expect(second.organizationId).toBe(first.organizationId);
      // Two stalled downloads per project of one organization, one after the other.
      const attempts = [
        download(url, exportPath(job1), bearer(first.apiKey)),
        download(url, exportPath(job1, 'csv'), bearer(first.apiKey)),
        download(url, exportPath(job2), bearer(second.apiKey)),
        download(url, exportPath(job2, 'csv'), bearer(second.apiKey)),
      ];
      const statuses = (await Promise.all(attempts.map((d) => d.response))).map((r) => r?.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(2);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      expect(h.deps.exportGate.active).toBe(2);

      const refused = await h.http.get(exportPath(job2, 'llm')).set(bearer(second.apiKey));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 2 } });
      expect(refused.body.error.message).toBe(
        "At most 2 of this gateway's 4 export slots may serve one organization at once; retry when one of its exports has finished.",
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      // The other organization is served, not told the gateway is full; its second export would
      // take the last free slot, which is kept for an organization with none.
      const others = [download(url, exportPath(otherJob), bearer(other.apiKey))];
      expect((await others[0]!.response)?.statusCode).toBe(200);
      others.push(download(url, exportPath(otherJob, 'csv'), bearer(other.apiKey)));
      expect((await others[1]!.response)?.statusCode).toBe(429);
      // A third organization takes that slot; the first still hears its own cap (429).
      const third = await createTenant(h.deps.db);
      const thirdJob = await seedCompletedJob(h.deps.db, third, 3_000, 5_000);
      others.push(download(url, exportPath(thirdJob), bearer(third.apiKey)));
      expect((await others[2]!.response)?.statusCode).toBe(200);
      expect((await readAll(url, exportPath(job1, 'llm'), first)).status).toBe(429);

      for (const d of [...attempts, ...others]) d.destroy();
      await eventually(released(h.deps));
      expect((await readAll(url, exportPath(thirdJob), third)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("caps an organization across gateways (EXPORT_MAX_PER_ORGANIZATION): a replica sees its other projects' exports", async () => {
    const h = await startHarness({ exports: { maxPerOrganization: 1, organizationShare: 1 } });
    try {
      const { url } = await h.listen();
      const replica = await h.replica();
      const first = await createTenant(h.deps.db);
      const second = await createTenant(h.deps.db, { org: first.organizationId });
      const job1 = await seedCompletedJob(h.deps.db, first, 3_000, 5_000);
      const job2 = await seedCompletedJob(h.deps.db, second, 5);
      const held = download(url, exportPath(job1), bearer(first.apiKey));
      expect((await held.response)?.statusCode).toBe(200);
      const refused = await fetch(`${replica.url}${exportPath(job2)}`, { headers: bearer(second.apiKey) });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        'At most 1 export of an organization may run at once; retry when one has finished.',
      );
      held.destroy();
      await eventually(released(h.deps));
      // The project lease taken for the refused attempt was not kept: the export now runs.
      expect((await readAll(replica.url, exportPath(job2), second)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('fair shares among many organizations', () => {
  /** `count` organizations, each with a completed job large enough that a slow reader holds its slot for seconds. */
  async function organizations(h: Harness, count: number): Promise<{ tenant: TestTenant; job: string }[]> {
    const all = [];
    for (let i = 0; i < count; i++) {
      const tenant = await createTenant(h.deps.db);
      all.push({ tenant, job: await seedCompletedJob(h.deps.db, tenant, 3_000, 5_000) });
    }
    return all;
  }

  /** A slow reader's export (one chunk every 100 ms), once its status is known. */
  async function slowReader(url: string, org: { tenant: TestTenant; job: string }, format = 'json') {
    const d = download(url, exportPath(org.job, format), bearer(org.tenant.apiKey), 'slow');
    return { d, status: (await d.response)?.statusCode };
  }

  it('three organizations with slow readers: each new one gets a slot, and none is cut', async () => {
    const h = await startHarness({ exports: { poolSize: 4 } });
    const held: Download[] = [];
    try {
      const { url } = await h.listen();
      const [a, b, c] = await organizations(h, 3);
      const a1 = await slowReader(url, a!);
      const a2 = await slowReader(url, a!, 'csv');
      const b1 = await slowReader(url, b!);
      held.push(a1.d, a2.d, b1.d);
      expect([a1.status, a2.status, b1.status]).toEqual([200, 200, 200]);
      // b's second would take the last free slot: kept for an organization holding none
      const refused = await h.http.get(exportPath(b!.job, 'csv')).set(bearer(b!.tenant.apiKey));
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toBe(
        "This gateway's last free export slot is kept for an organization with no export running; retry when one of yours has finished.",
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const c1 = await slowReader(url, c!);
      held.push(c1.d);
      expect(c1.status).toBe(200);
      expect(h.deps.exportGate.active).toBe(4);
      expect(await aborts(h.deps, 'reclaimed')).toBe(0);
    } finally {
      for (const d of held) d.destroy();
      await h.close();
    }
  });

  it('five organizations with slow readers: a new one takes the newest export of the organization holding two; 503 only when every slot serves a different organization', async () => {
    const h = await startHarness({ exports: { poolSize: 4 } });
    const held: Download[] = [];
    try {
      const { url } = await h.listen();
      const [a, b, c, d, e] = await organizations(h, 5);
      const a1 = await slowReader(url, a!);
      const a2 = await slowReader(url, a!, 'csv');
      const b1 = await slowReader(url, b!);
      const c1 = await slowReader(url, c!);
      held.push(a1.d, a2.d, b1.d, c1.d);
      expect([a1.status, a2.status, b1.status, c1.status]).toEqual([200, 200, 200, 200]);
      // The pool is full and a holds two: d is served at once (within a short wait for the
      // reclaimed connection), and a's newest export is cut (a truncated download).
      const d1 = await slowReader(url, d!);
      held.push(d1.d);
      expect(d1.status).toBe(200);
      a2.d.resume();
      await a2.d.closed;
      expect(a2.d.bytes()).toBeLessThan(3_000 * 5_000);
      expect(await aborts(h.deps, 'reclaimed')).toBe(1);
      await eventually(() => h.deps.exportGate.active === 4);
      // a's older export runs on
      const before = a1.d.bytes();
      await eventually(() => a1.d.bytes() > before);
      // Every slot now serves a different organization: e hears the gateway is full, and a may not take a second.
      const full = await h.http.get(exportPath(e!.job)).set(bearer(e!.tenant.apiKey));
      expect(full.status).toBe(503);
      expect(full.body.error.message).toBe("Each of this gateway's 4 export slots serves a different organization; retry shortly.");
      expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
      expect((await h.http.get(exportPath(a!.job, 'llm')).set(bearer(a!.tenant.apiKey))).status).toBe(429);
      expect(await aborts(h.deps, 'reclaimed')).toBe(1);
      b1.d.destroy();
      await eventually(() => h.deps.exportGate.active === 3);
      const e1 = await slowReader(url, e!);
      held.push(e1.d);
      expect(e1.status).toBe(200);
    } finally {
      for (const dl of held) dl.destroy();
      await h.close();
    }
  });
});

describe('time limits', () => {
  it('cuts an export whose client stops reading but keeps the socket open (idle timeout)', async () => {
    const h = await startHarness({ exports: { idleTimeoutMs: 300 } });
    try {
      const { url } = await h.listen();
      const tenant = await createTenant(h.deps.db);
      const job = await seedCompletedJob(h.deps.db, tenant, 3_000, 5_000);
      const stalled = download(url, exportPath(job), bearer(tenant.apiKey), 'paused');
      expect((await stalled.response)?.statusCode).toBe(200);
      await eventually(async () => (await aborts(h.deps, 'idle_timeout')) === 1);
      await eventually(released(h.deps), 1_000);
      // The client, reading again, gets what the kernel buffered, then the end: a truncated file.
      stalled.resume();
      await stalled.closed;
      expect(stalled.bytes()).toBeLessThan(3_000 * 5_000);
    } finally {
      await h.close();
    }
  });

  it('cuts an export that outlives its total duration, however steadily the client reads', async () => {
    const h = await startHarness({ exports: { maxDurationMs: 500, idleTimeoutMs: 60_000 } });
    try {
      const { url } = await h.listen();
      const tenant = await createTenant(h.deps.db);
      const job = await seedCompletedJob(h.deps.db, tenant, 3_000, 5_000);
      const slow = download(url, exportPath(job), bearer(tenant.apiKey), 'slow');
      expect((await slow.response)?.statusCode).toBe(200);
      await eventually(async () => (await aborts(h.deps, 'max_duration')) === 1);
      await eventually(released(h.deps), 1_000);
      expect(slow.bytes()).toBeGreaterThan(0);
      slow.resume();
      await slow.closed;
      expect(slow.bytes()).toBeLessThan(3_000 * 5_000);
      expect(await aborts(h.deps, 'idle_timeout')).toBe(0);
    } finally {
      await h.close();
    }
  });
});

describe('graceful shutdown', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  });
  afterAll(() => database.drop());

  it('ends in-flight exports after the grace period and closes every connection', async () => {
    const config = loadGatewayConfig({
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: uniquePrefix('gw-exp'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      EXPORT_SHUTDOWN_GRACE_MS: '200',
    });
    // A deadline far beyond the test's: if exports held the shutdown, the test fails, not jest.
    const registry = new ShutdownRegistry(createLogger({ level: 'silent', service: 'test' }), 600_000);
    const { port, deps } = await startGateway(config, registry);
    const url = `http://127.0.0.1:${port}`;
    const tenant = await createTenant(deps.db);
    const job = await seedCompletedJob(deps.db, tenant, 3_000, 5_000);
    const stalled = [download(url, exportPath(job), bearer(tenant.apiKey)), download(url, exportPath(job, 'csv'), bearer(tenant.apiKey))];
    expect((await Promise.all(stalled.map((d) => d.response))).map((r) => r?.statusCode)).toEqual([200, 200]);
    expect(deps.exportGate.active).toBe(2);

    const stopped = registry.run('test').then(() => 'stopped' as const);
    let timer: NodeJS.Timeout | undefined;
    const verdict = await Promise.race([stopped, new Promise((r) => (timer = setTimeout(() => r('stuck'), 10_000)))]);
    clearTimeout(timer);
    expect(verdict).toBe('stopped');
    for (const d of stalled) d.resume();
    await Promise.all(stalled.map((d) => d.closed));
    expect(await aborts(deps, 'shutdown')).toBe(2);
    expect(deps.exportGate.active).toBe(0);
    expect(poolStats(deps.exportDb).total).toBe(0);
    expect(poolStats(deps.db).total).toBe(0);
  });
});
