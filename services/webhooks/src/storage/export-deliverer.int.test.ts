import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SecretBox } from '@crawl/core';
import {
  type Db,
  DestinationDeliveryQueue,
  type DestinationRow,
  JobRepository,
  queueExportDeliveries,
  ResultRepository,
  sql,
} from '@crawl/db';
import { exportObjectKey } from '@crawl/destinations';
import { createLogger } from '@crawl/observability';
import { startS3Simulator, type S3Simulator } from '@crawl/s3-simulator';
import { buildCompletedJob, buildDestination, buildProject, type Owner, openTestStore, rowAsin, type TestStore } from '@crawl/testing';
import { ExportDeliverer, type ExportDelivererSettings } from './export-deliverer';

/**
 * The export deliverer against a real database and the local S3 server: a completed job's export
 * lands under its key with every row and is recorded once; a failing storage is retried with
 * backoff and then `failed` with its code; a retry by hand is one more attempt; a claim whose
 * lease was taken over cannot record; shutdown gives claims back unspent; one project cannot
 * hold more than its share of uploads.
 */
const KEY = { accessKeyId: 'AKIAEXPORTDELIVERER1', secretAccessKey: 'deliverer-secret' };
const box = SecretBox.fromKey('e'.repeat(64));
const log = createLogger({ level: 'silent', service: 'export-deliverer-test' });
let s3: S3Simulator;
let store: TestStore;
let db: Db;
let queue: DestinationDeliveryQueue;
const deliverers: ExportDeliverer[] = [];

beforeAll(async () => {
  s3 = await startS3Simulator({ credentials: [KEY], buckets: ['lake'] });
  store = await openTestStore(8);
  ({ db } = store);
  queue = new DestinationDeliveryQueue(db);
});
afterEach(async () => {
  for (const d of deliverers.splice(0)) await d.close();
});
afterAll(async () => {
  await store?.close();
  await s3?.close();
});

const SETTINGS: ExportDelivererSettings = {
  concurrency: 4,
  perProject: 2,
  leaseMs: 5_000,
  backoffBaseMs: 20,
  maxAttempts: 3,
  allowPrivate: true,
  timeoutMs: 5_000,
};

function startDeliverer(settings: Partial<ExportDelivererSettings> = {}): ExportDeliverer {
  const deliverer = new ExportDeliverer({
    queue,
    jobs: new JobRepository(db),
    results: new ResultRepository(db),
    secrets: box,
    log,
    settings: { ...SETTINGS, ...settings },
  });
  deliverers.push(deliverer);
  return deliverer;
}

const s3Client = () => new S3Client({ endpoint: s3.url, region: 'us-east-1', forcePathStyle: true, credentials: { ...KEY } });

async function destinationFor(owner: Owner, overrides: { secretAccessKey?: string; gzip?: boolean; prefix?: string } = {}) {
  return buildDestination(db, owner, box, { bucket: 'lake', endpoint: s3.url, ...KEY, ...overrides });
}

async function completedWithDelivery(owner: Owner, rows: number) {
  const job = await buildCompletedJob(db, owner, rows, { padding: 200 });
  const queued = await db.transaction().execute((trx) => queueExportDeliveries(trx, job, exportObjectKey));
  return { job, queued };
}

const delivery = (destination: DestinationRow, jobId: string) =>
  db
    .selectFrom('destination_delivery')
    .selectAll()
    .where('destination_id', '=', destination.id)
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Keeps waking the deliverer (as the service's poll does) until the delivery settles. */
async function settled(deliverer: ExportDeliverer, destination: DestinationRow, jobId: string, status: 'delivered' | 'failed') {
  return until(
    async () => {
      deliverer.wake();
      return delivery(destination, jobId);
    },
    (row) => row.status === status,
  );
}

it('writes a completed job export under its key with every row, and records it once', async () => {
  const owner = await buildProject(db);
  const destination = await destinationFor(owner, { gzip: true, prefix: 'exports/' });
  const { job, queued } = await completedWithDelivery(owner, 3000);
  expect(queued).toEqual([{ destinationId: destination.id, key: `exports/${owner.projectId}/2026/12/03/${job.id}.jsonl.gz` }]);

  const row = await settled(startDeliverer(), destination, job.id, 'delivered');
  expect(row).toMatchObject({ status: 'delivered', attempts: 1, error_code: null, lease_until: null });
  expect(row.delivered_at).toBeInstanceOf(Date);
  const object = await s3Client().send(new GetObjectCommand({ Bucket: 'lake', Key: queued[0]!.key }));
  const bytes = Buffer.from(await object.Body!.transformToByteArray());
  expect(Number(row.bytes)).toBe(bytes.length);
  const asins = gunzipSync(bytes)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { asin: string }).asin);
  expect(asins).toEqual(Array.from({ length: 3000 }, (_, n) => rowAsin(n)));
});

it("retries a refusing storage with backoff, then fails with the storage's code; a retry by hand is one more attempt", async () => {
  const owner = await buildProject(db);
  const destination = await destinationFor(owner, { secretAccessKey: 'rotated-away' });
  const { job } = await completedWithDelivery(owner, 10);
  const deliverer = startDeliverer();
  const failed = await settled(deliverer, destination, job.id, 'failed');
  expect(failed).toMatchObject({ status: 'failed', attempts: 3, error_code: 'SignatureDoesNotMatch', bytes: null, delivered_at: null });
  expect(failed.error_message).not.toMatch(/rotated-away|at \w+ \(/);

  // the customer fixes the key and retries by hand
  await db
    .updateTable('destination')
    .set({ secret_access_key_encrypted: box.encrypt(KEY.secretAccessKey) })
    .where('id', '=', destination.id)
    .execute();
  await db
    .updateTable('destination_delivery')
    .set({ status: 'pending', next_attempt_at: new Date() })
    .where('destination_id', '=', destination.id)
    .execute();
  const delivered = await settled(deliverer, destination, job.id, 'delivered');
  expect(delivered).toMatchObject({ attempts: 4, error_code: null, error_message: null });
});

it('records nothing for a claim whose lease another deliverer took over, and gives claims back on shutdown', async () => {
  const owner = await buildProject(db);
  const destination = await destinationFor(owner);
  const { job } = await completedWithDelivery(owner, 5);
  const stale = await queue.claim({ leaseMs: 1, perProject: 2 });
  expect(stale).toMatchObject({ destinationId: destination.id, jobId: job.id, attempt: 1 });
  await new Promise((r) => setTimeout(r, 5));
  const current = await queue.claim({ leaseMs: 60_000, perProject: 2 });
  expect(current).toMatchObject({ jobId: job.id, attempt: 2 });
  // the first holder wakes up late: its writes are refused, the second's stand
  expect(await queue.heartbeat(stale!, 60_000)).toBe(false);
  expect(await queue.delivered(stale!, 1)).toBe(false);
  expect(await queue.failed(stale!, { code: 'X', message: 'x' }, 10)).toBe(false);
  await queue.release(current!);
  expect(await delivery(destination, job.id)).toMatchObject({ status: 'pending', attempts: 1, lease_until: null, error_code: null });
});

it('aborts an upload in flight on shutdown: nothing under the key, the claim back unspent', async () => {
  const owner = await buildProject(db);
  const destination = await destinationFor(owner);
  // about 40 MB of jsonl: several parts, long enough to be cut off
  const { job, queued } = await completedWithDelivery(owner, 1);
  await db.deleteFrom('result_item').where('job_id', '=', job.id).execute();
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${job.id}, g, 1, jsonb_build_object('asin', 'B' || lpad(g::text, 9, '0'), 'title', repeat('y', 2000))
    from generate_series(0, 19999) g`.execute(db);
  const deliverer = startDeliverer();
  deliverer.wake();
  const client = s3Client();
  await until(
    () => client.send(new ListMultipartUploadsCommand({ Bucket: 'lake', Prefix: queued[0]!.key })),
    (listed) => (listed.Uploads ?? []).length > 0,
  );
  await deliverer.close();
  expect(await delivery(destination, job.id)).toMatchObject({ status: 'pending', attempts: 0, lease_until: null });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: queued[0]!.key }));
  expect(listed.Contents ?? []).toEqual([]);
  const open = await client.send(new ListMultipartUploadsCommand({ Bucket: 'lake', Prefix: queued[0]!.key }));
  expect(open.Uploads ?? []).toEqual([]);
});

it('holds one project to its share of uploads in flight across deliverers', async () => {
  const busy = await buildProject(db);
  const quiet = await buildProject(db);
  await destinationFor(busy);
  await destinationFor(quiet);
  for (let i = 0; i < 5; i++) await completedWithDelivery(busy, 1);
  await completedWithDelivery(quiet, 1);
  const claims = [];
  for (;;) {
    const claim = await queue.claim({ leaseMs: 60_000, perProject: 2 });
    if (!claim) break;
    claims.push(claim);
  }
  const ofBusy = claims.filter((c) => c.projectId === busy.projectId).length;
  const ofQuiet = claims.filter((c) => c.projectId === quiet.projectId).length;
  expect([ofBusy, ofQuiet]).toEqual([2, 1]);
  for (const c of claims) await queue.release(c);
});
