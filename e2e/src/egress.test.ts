/**
 * Egress (docs/fetch-contract.md): whatever a tenant puts in a target, a worker only requests the
 * marketplace origin (directly or through a proxy), follows redirects only within it, and the
 * job's errors name the failure, never an address, port, errno or proxy. A canary HTTP server
 * on 127.0.0.1 stands for every internal service: it must never see a request.
 */
import { CRAWL_ERROR_MESSAGES } from '@crawl/marketplace';
import { type RecordingServer as Recorder, startRecordingServer, type TestTenant, tunnelConnect } from '@crawl/testing';
import { auth, type Stack, startStack } from './stack';

/** A canary (default) or a CONNECT proxy (`tunnel`) that records what it is asked for. */
const listen = (options: { tunnel?: boolean } = {}): Promise<Recorder> =>
  startRecordingServer(undefined, options.tunnel ? tunnelConnect : undefined);

let stack: Stack;
let canary: Recorder;
let tenant: TestTenant;

beforeAll(async () => {
  canary = await listen();
  stack = await startStack({ workers: 0, simulator: { fixturesDir: null } });
  tenant = await stack.tenant();
});
afterAll(async () => {
  await stack.close();
  await canary.close();
});
afterEach(() => {
  stack.simulator.clearFaults();
  stack.simulator.resetLog();
  canary.hits.length = 0;
});

/** Runs `fn` with one worker configured by `env`, and stops it after. */
async function withWorker<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const worker = await stack.startWorker(env);
  try {
    return await fn();
  } finally {
    await worker.close();
    stack.workers.splice(stack.workers.indexOf(worker), 1);
  }
}

/** The job as the tenant reads it over the API, once it is terminal. */
async function finishedJob(body: object): Promise<any> {
  const id = await stack.createJob(tenant, body);
  await stack.waitForJob(id, 60_000);
  const res = await stack.http.get(`/v1/key/jobs/${id}`).set(auth(tenant));
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Each error message is its code's fixed sentence: no address, port, errno, proxy or URL. */
function expectGenericErrors(job: { errors: { code: keyof typeof CRAWL_ERROR_MESSAGES; message: string }[] }): void {
  for (const { code, message } of job.errors) {
    expect(message).toBe(CRAWL_ERROR_MESSAGES[code]);
    expect(message).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect(message).not.toMatch(/:\d+|\b\d{2,5}\b/);
    expect(message).not.toMatch(/ECONN|\bE[A-Z]{3,}\b|https?:|s3cret|proxyuser/);
  }
}

/** Product URLs whose path tries to replace the marketplace host with the canary. */
const hostileTargets = () => [
  `https://www.amazon.com//127.0.0.1:${canary.port}/x/dp/B0EGRESS01`,
  `https://www.amazon.com/\\127.0.0.1:${canary.port}/x/dp/B0EGRESS02`,
  `https://www.amazon.com/%2F%2F127.0.0.1:${canary.port}/x/dp/B0EGRESS03`,
  `https://user:pw@www.amazon.com/dp/B0EGRESS04`,
];
const HOSTILE_ASINS = ['B0EGRESS01', 'B0EGRESS02', 'B0EGRESS03', 'B0EGRESS04'];

it('product URLs whose path names another host are crawled as {origin}/dp/{ASIN}, never elsewhere', async () => {
  const userinfoHost = await stack.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs`)
    .set(auth(tenant))
    .send({ type: 'details', targets: [`https://www.amazon.com@127.0.0.1:${canary.port}/dp/B0EGRESS05`] });
  expect(userinfoHost.status).toBe(400);

  const job = await withWorker({}, () => finishedJob({ type: 'details', targets: hostileTargets() }));
  expect(job).toMatchObject({ status: 'completed', progress: { total: 4, succeeded: 4, failed: 0 } });
  expect(canary.hits).toEqual([]);
  const paths = stack.simulator.requests().map((r) => r.path);
  expect(paths.sort()).toEqual(HOSTILE_ASINS.map((asin) => `/dp/${asin}`));
  // Credentials in a target URL are dropped before the job is stored.
  expect(JSON.stringify(job.targets)).not.toContain('pw@');
});

it('redirects are followed only within the marketplace origin; one elsewhere fails the target with a generic error', async () => {
  const to = (path: string) => `http://127.0.0.1:${canary.port}${path}`;
  stack.simulator.setFaults([
    { match: 'B0REDIRIN1', fault: { kind: 'redirect', status: 301, location: '/Some-Product/dp/B0REDIRIN1/ref=sr_1_1' }, times: 1 },
    { match: 'B0REDIROUT', fault: { kind: 'redirect', location: to('/dp/B0REDIROUT') } },
    { match: 'B0REDIRPRL', fault: { kind: 'redirect', location: `//127.0.0.1:${canary.port}/dp/B0REDIRPRL` } },
    { match: 'B0REDIRBSL', fault: { kind: 'redirect', location: `/\\127.0.0.1:${canary.port}/dp/B0REDIRBSL` } },
    { match: 'B0REDIRLP1', fault: { kind: 'redirect', location: '/dp/B0REDIRLP1' } },
  ]);
  const targets = ['B0REDIRIN1', 'B0REDIROUT', 'B0REDIRPRL', 'B0REDIRBSL', 'B0REDIRLP1'];
  const job = await withWorker({}, () => finishedJob({ type: 'details', targets }));
  expect(job).toMatchObject({
    status: 'completed',
    progress: { total: 5, succeeded: 1, failed: 4 },
    credits: { consumed: 2, refunded: 8 },
  });
  expect(Object.fromEntries(job.errors.map((e: { target: string; code: string }) => [e.target, e.code]))).toEqual({
    B0REDIROUT: 'UPSTREAM_ERROR',
    B0REDIRPRL: 'UPSTREAM_ERROR',
    B0REDIRBSL: 'UPSTREAM_ERROR',
    B0REDIRLP1: 'UPSTREAM_ERROR',
  });
  expectGenericErrors(job);
  expect(canary.hits).toEqual([]);
  // A redirect loop is cut short: at most 6 requests per attempt, 4 attempts.
  const loop = stack.simulator.requests().filter((r) => r.path.includes('B0REDIRLP1'));
  expect(loop.length).toBeGreaterThan(0);
  expect(loop.length).toBeLessThanOrEqual(24);
}, 90_000);

it('through a proxy, tunnels go only to the origin; an unreachable proxy is a generic error that names nothing', async () => {
  const proxy = await listen({ tunnel: true });
  try {
    stack.simulator.setFaults([{ match: 'B0REDIROUT', fault: { kind: 'redirect', location: `http://127.0.0.1:${canary.port}/` } }]);
    const job = await withWorker({ PROXY_URLS: proxy.url }, () =>
      finishedJob({ type: 'details', targets: [...hostileTargets(), 'B0REDIROUT'] }),
    );
    expect(job).toMatchObject({ status: 'completed', progress: { succeeded: 4, failed: 1 } });
    expectGenericErrors(job);
    expect(canary.hits).toEqual([]);
    expect(proxy.hits.length).toBeGreaterThan(0);
    expect(new Set(proxy.hits)).toEqual(new Set([`CONNECT 127.0.0.1:${stack.simulator.port}`]));
  } finally {
    await proxy.close();
  }

  const dead = await listen();
  await dead.close();
  const failed = await withWorker({ PROXY_URLS: `http://proxyuser:s3cret@127.0.0.1:${dead.port}` }, () =>
    finishedJob({ type: 'details', targets: ['B0PROXYDN1'] }),
  );
  expect(failed).toMatchObject({ status: 'failed', errors: [{ target: 'B0PROXYDN1', code: 'UPSTREAM_ERROR' }], credits: { refunded: 2 } });
  expectGenericErrors(failed);
  expect(JSON.stringify(failed.errors)).not.toContain(String(dead.port));
  expect(canary.hits).toEqual([]);
}, 90_000);
