import http from 'node:http';
import { CrawlApiError, CrawlClient } from '@crawl/client';
import { sql, WebhookDeliveryRepository, WEBHOOK_REPLAY_LOCK_KEY } from '@crawl/db';
import { createApp } from '@crawl/gateway';
import { createMetricsRegistry } from '@crawl/observability';
import { buildEvent } from '@crawl/testing';
import { type Stack, startStack } from './stack';

/**
 * The SDK's `replayAll` ends: when nothing more can be replayed now (the cooldown keeps
 * re-armed deliveries out of `hasMore`), on a concurrent replay (409, not retried) and on a
 * spent hourly budget (429 with a Retry-After over a minute: thrown at once, not slept through).
 * No deliverer runs here: deliveries are failed by hand, so nothing is sent.
 */
let stack: Stack;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  stack = await startStack();
  server = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

it('replayAll terminates: after replaying everything, on a concurrent replay (409) and on a spent budget (429)', async () => {
  const tenant = await stack.tenant();
  const calls: number[] = [];
  const client = new CrawlClient({
    apiKey: tenant.apiKey,
    baseUrl,
    retry: { baseDelayMs: 20 },
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      calls.push(res.status);
      return res;
    },
  });
  const projectId = tenant.projectId;
  await client.webhooks.replace(projectId, [{ url: 'http://127.0.0.1:9/hook', triggerAction: 'job.completed' }]);
  for (let i = 0; i < 3; i++) await buildEvent(stack.db, projectId, { type: 'job.completed' });
  const { deliveries } = await new WebhookDeliveryRepository(stack.db).dispatchEvents(100, (id) => JSON.stringify({ id }));
  const ids = deliveries.map((d) => d.id).sort();
  const failAll = () =>
    stack.db
      .updateTable('webhook_delivery')
      .set({ status: 'failed', attempts: 5, finished_at: new Date() })
      .where('project_id', '=', projectId)
      .execute();
  await failAll();

  calls.length = 0;
  expect((await client.webhooks.replayAll(projectId, { from: '2020-01-01' })).sort()).toEqual(ids);
  expect(calls).toEqual([202]);
  // Failed again at once: within the cooldown nothing is replayable, and the loop ends at once.
  await failAll();
  calls.length = 0;
  expect(await client.webhooks.replayAll(projectId, { from: '2020-01-01' })).toEqual([]);
  expect(calls).toEqual([202]);

  // Another replay of the project in progress: one 409, thrown.
  await sql`update webhook_delivery set rearmed_at = now() - interval '2 minutes' where project_id = ${projectId}`.execute(stack.db);
  calls.length = 0;
  await stack.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${WEBHOOK_REPLAY_LOCK_KEY}, hashtext(${projectId}))`.execute(trx);
    const busy = await client.webhooks.replayAll(projectId, { from: '2020-01-01' }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(CrawlApiError);
    expect(busy).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });
  expect(calls).toEqual([409]);

  // The hour's budget (2,000 by default) spent by earlier replays: one 429, thrown with its wait.
  await sql`insert into webhook_replay (project_id, deliveries) values (${projectId}, 2000)`.execute(stack.db);
  calls.length = 0;
  const limited = await client.webhooks.replayAll(projectId, { from: '2020-01-01' }).catch((e: unknown) => e);
  expect(limited).toBeInstanceOf(CrawlApiError);
  expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
  expect((limited as CrawlApiError).retryAfterSeconds).toBeGreaterThan(3_500);
  expect(calls).toEqual([429]);
}, 60_000);
