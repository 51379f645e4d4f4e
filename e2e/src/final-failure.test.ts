import { WebhookDeliveryRepository } from '@crawl/db';
import { progressRepositories } from '@crawl/testing';
import { failJobInternally, INTERNAL_ERROR_MESSAGE } from '@crawl/jobs';
import { failDeliveryInternally } from '@crawl/webhooks';
import { type Stack, startStack } from './stack';

/**
 * Every queue entry has a final-failure path: a task whose handler throws (our exception, not a crawl outcome) on its last
 * attempt used to leave its row pending forever, with credits reserved. Every queue entry now
 * has a final-failure path that records the failure like a normal outcome.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

it('a target whose parser throws on every attempt fails with INTERNAL_ERROR, is refunded, and the job finishes', async () => {
  // our code after the parse (the parser itself runs in a thread, and its failure is PARSE_ERROR)
  const crawler = stack.workers[0]!.deps.crawler as unknown as { itemsOf: (input: { target: string }, ...rest: unknown[]) => unknown };
  const itemsOf = crawler.itemsOf.bind(crawler);
  let throws = 0;
  crawler.itemsOf = (input, ...rest) => {
    if (input.target !== 'B0THROWS01') return itemsOf(input, ...rest);
    throws += 1;
    throw new TypeError("Cannot read properties of undefined (reading 'text') at /srv/app/parser.js:42");
  };
  try {
    const tenant = await stack.tenant({ credits: 100 });
    const id = await stack.createJob(tenant, { type: 'details', targets: ['B0THROWS01', 'B0DR8G428S'] });
    const job = await stack.waitForJob(id, 30_000);
    expect(throws).toBe(4); // every attempt of the catalog entry ran, then the failure was recorded
    expect(job).toMatchObject({
      status: 'completed',
      progress: { total: 2, succeeded: 1, failed: 1 },
      credits: { reserved: 4, consumed: 2, refunded: 2 },
    });
    expect(job.errors).toEqual([{ target: 'B0THROWS01', code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE }]);
    expect(JSON.stringify(job)).not.toMatch(/TypeError|parser\.js|undefined/);
    const balance = await stack.db
      .selectFrom('organization')
      .select('credit_balance')
      .where('id', '=', tenant.organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(balance.credit_balance)).toBe(98);
  } finally {
    crawler.itemsOf = itemsOf;
  }
});

it('a job that could not be started fails with every target INTERNAL_ERROR, refunded, with a job.failed event', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  const worker = stack.workers[0]!;
  await worker.close(); // nobody starts the job: the start task's final-failure path is called directly
  stack.workers.splice(0);
  try {
    const id = await stack.createJob(tenant, { type: 'details', targets: ['B0NOSTART1', 'B0NOSTART2'] });
    const deps = progressRepositories(stack.db);
    await expect(failJobInternally(deps, id)).resolves.toBe('failed');
    await expect(failJobInternally(deps, id)).resolves.toBe('already finished');
    const job = await stack.waitForJob(id, 1_000);
    expect(job).toMatchObject({
      status: 'failed',
      progress: { total: 2, succeeded: 0, failed: 2 },
      credits: { reserved: 4, consumed: 0, refunded: 4 },
    });
    expect(job.errors.map((e: { code: string }) => e.code)).toEqual(['INTERNAL_ERROR', 'INTERNAL_ERROR']);
    const events = await stack.db.selectFrom('event').select('type').where('project_id', '=', tenant.projectId).execute();
    expect(events.map((e) => e.type)).toEqual(['job.failed']);
  } finally {
    await stack.startWorker();
  }
});

it('a delivery whose attempt throws for good is logged and marked failed, not left pending', async () => {
  const tenant = await stack.tenant();
  const webhook = await stack.db
    .insertInto('webhook_config')
    .values({
      id: 'whk_final1',
      project_id: tenant.projectId,
      url: 'http://127.0.0.1:9/hook',
      trigger_action: 'job.completed',
      secret_encrypted: 'x',
      enabled: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await stack.db
    .insertInto('event')
    .values({ id: 'evt_final1', project_id: tenant.projectId, type: 'job.completed', data: JSON.stringify({}) })
    .execute();
  await stack.db
    .insertInto('webhook_delivery')
    .values({
      id: 'dlv_final1',
      event_id: 'evt_final1',
      webhook_id: webhook.id,
      project_id: tenant.projectId,
      event_type: 'job.completed',
      body: '{}',
      status: 'pending',
      attempts: 1,
    })
    .execute();
  const deliveries = new WebhookDeliveryRepository(stack.db);
  await expect(failDeliveryInternally(deliveries, 'dlv_final1', 2)).resolves.toBe('failed');
  const row = await deliveries.findById('dlv_final1');
  expect(row).toMatchObject({ status: 'failed', attempts: 2 });
  const logs = await deliveries.recentAttempts(tenant.projectId, 10);
  expect(logs).toEqual([
    expect.objectContaining({ delivery_id: 'dlv_final1', attempt: 2, success: false, error: expect.stringMatching(/^internal error/) }),
  ]);
  await expect(failDeliveryInternally(deliveries, 'dlv_final1', 2)).resolves.toBe('nothing pending');
});
