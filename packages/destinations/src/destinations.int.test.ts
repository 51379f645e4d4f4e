import { promises as dns } from 'node:dns';
import os from 'node:os';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { newId } from '@crawl/core';
import { type Db, queueExportDeliveries, ResultRepository } from '@crawl/db';
import { startS3Simulator, type S3Simulator } from '@crawl/s3-simulator';
import { buildCompletedJob, createTenant, openTestStore, rowAsin, type TestStore, type TestTenant } from '@crawl/testing';
import { isPrivateAddress } from '@crawl/webhook-delivery';
import { exportObjectKey, PART_SIZE, storageClient, type StorageTarget, storageFailure, uploadExport, verifyDestination } from './index';

/**
 * Destinations against the local S3 server (signatures checked, aws-chunked decoded): a job's
 * export lands under its documented key with every row, large ones in parts; a destination's
 * test fails with the storage's own code; a private endpoint is refused before and at connection.
 */
const KEY = { accessKeyId: 'AKIADESTINATIONS0001', secretAccessKey: 'destinations-secret' };
let s3: S3Simulator;
let store: TestStore;
let tenant: TestTenant;

beforeAll(async () => {
  s3 = await startS3Simulator({ credentials: [KEY], buckets: ['warehouse'] });
  store = await openTestStore();
  tenant = await createTenant(store.db);
});
afterAll(async () => {
  await store?.close();
  await s3?.close();
});

const target = (overrides: Partial<StorageTarget> = {}): StorageTarget => ({
  bucket: 'warehouse',
  region: 'us-east-1',
  endpoint: s3.url,
  ...KEY,
  ...overrides,
});
const client = (overrides: Partial<StorageTarget> = {}) => storageClient(target(overrides), { allowPrivate: true });

const completedJob = (db: Db, rows: number) => buildCompletedJob(db, tenant, rows);

async function objectText(c: S3Client, key: string, gzip: boolean): Promise<string> {
  const out = await c.send(new GetObjectCommand({ Bucket: 'warehouse', Key: key }));
  const bytes = Buffer.from(await out.Body!.transformToByteArray());
  return (gzip ? gunzipSync(bytes) : bytes).toString('utf8');
}

const asinsOf = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { asin: string }).asin);

describe('delivering a job export to a bucket', () => {
  it('names the object {prefix}{projectId}/{YYYY}/{MM}/{DD}/{jobId}.{ext}[.gz] from the day the job finished', () => {
    const parts = { prefix: 'crawl/', projectId: 'prj_1', jobId: 'job_1', finishedAt: new Date('2026-01-09T23:59:59Z') };
    expect(exportObjectKey({ ...parts, format: 'jsonl', gzip: true })).toBe('crawl/prj_1/2026/01/09/job_1.jsonl.gz');
    expect(exportObjectKey({ ...parts, prefix: '', format: 'llm', gzip: false })).toBe('prj_1/2026/01/09/job_1.llm.json');
    expect(exportObjectKey({ ...parts, format: 'csv', gzip: false })).toBe('crawl/prj_1/2026/01/09/job_1.csv');
  });

  it('streams a gzip jsonl export with every row, and a larger plain one in parts of 8 MiB', async () => {
    const job = await completedJob(store.db, 6000);
    const results = new ResultRepository(store.db);
    const c = client();
    const gz = await uploadExport(c, { results, job, format: 'jsonl', gzip: true, bucket: 'warehouse', key: 'a/job.jsonl.gz' });
    const text = await objectText(c, 'a/job.jsonl.gz', true);
    expect(asinsOf(text)).toEqual(Array.from({ length: 6000 }, (_, n) => rowAsin(n)));
    expect(gz.bytes).toBeLessThan(PART_SIZE);

    const plain = await uploadExport(c, { results, job, format: 'jsonl', gzip: false, bucket: 'warehouse', key: 'a/job.jsonl' });
    expect(plain.bytes).toBeGreaterThan(PART_SIZE);
    expect(await objectText(c, 'a/job.jsonl', false)).toBe(text);
    // sent as a multipart upload: its parts (PUTs with an upload id), then its completion
    const sent = s3.requests.filter((r) => r.path === '/warehouse/a/job.jsonl');
    expect(sent.filter((r) => r.method === 'PUT' && r.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((r) => r.method === 'POST' && r.status === 200).length).toBe(2);
    const uploads = await c.send(new ListMultipartUploadsCommand({ Bucket: 'warehouse' }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it("leaves nothing under the key when the storage refuses a part, and says the storage's code", async () => {
    const job = await completedJob(store.db, 50);
    const refused = await uploadExport(client({ secretAccessKey: 'wrong' }), {
      results: new ResultRepository(store.db),
      job,
      format: 'json',
      gzip: false,
      bucket: 'warehouse',
      key: 'b/refused.json',
    }).catch((err: unknown) => storageFailure(err));
    expect(refused).toMatchObject({ code: 'SignatureDoesNotMatch' });
    const listed = await client().send(new ListObjectsV2Command({ Bucket: 'warehouse', Prefix: 'b/' }));
    expect(listed.Contents ?? []).toEqual([]);
  });
});

describe("a destination's test", () => {
  it('writes and deletes a test object under the prefix', async () => {
    const result = await verifyDestination(client(), 'warehouse', 'verify/');
    expect(result).toMatchObject({ ok: true });
    const listed = await client().send(new ListObjectsV2Command({ Bucket: 'warehouse', Prefix: 'verify/' }));
    expect(listed.Contents ?? []).toEqual([]);
  });

  it("fails with the storage's code: wrong secret, unknown key, missing bucket, another region, nothing listening", async () => {
    const codeOf = async (overrides: Partial<StorageTarget>) => {
      const r = await verifyDestination(client(overrides), overrides.bucket ?? 'warehouse', '');
      return r.ok ? 'ok' : r.code;
    };
    await expect(codeOf({ secretAccessKey: 'not-it' })).resolves.toBe('SignatureDoesNotMatch');
    await expect(codeOf({ accessKeyId: 'AKIANOBODY0000000000' })).resolves.toBe('InvalidAccessKeyId');
    await expect(codeOf({ bucket: 'no-such-bucket' })).resolves.toBe('NoSuchBucket');
    await expect(codeOf({ region: 'eu-central-1' })).resolves.toBe('AuthorizationHeaderMalformed');
    await expect(codeOf({ endpoint: 'http://127.0.0.1:9' })).resolves.toBe('ConnectionRefused');
  });

  it('refuses a private endpoint before connecting, and a name that resolves to one at connection time', async () => {
    expect(() => storageClient(target({ endpoint: 'http://127.0.0.1:9000' }), { allowPrivate: false })).toThrow(/private address/);
    expect(() => storageClient(target({ endpoint: 'http://169.254.169.254/' }), { allowPrivate: false })).toThrow(/private address/);
    expect(() => storageClient(target({ endpoint: 'http://minio.internal/' }), { allowPrivate: false })).toThrow(/internal name/);
    // this machine's own name passes the static check and resolves to a private address
    const name = os.hostname();
    const addresses = await dns.lookup(name, { all: true });
    expect(addresses.every((a) => isPrivateAddress(a.address))).toBe(true);
    const result = await verifyDestination(
      storageClient(target({ endpoint: `http://${name}:${s3.port}` }), { allowPrivate: false }),
      'warehouse',
      '',
    );
    expect(result).toMatchObject({ ok: false, code: 'EndpointNotAllowed' });
    expect(JSON.stringify(result)).not.toMatch(/127\.0\.0\.1|::1/);
  });
});

describe('queueing a completed job for its destinations', () => {
  it('queues one delivery per destination that takes the job (all jobs, or its schedule), once, under the documented key', async () => {
    const db = store.db;
    const schedule = await db
      .insertInto('schedule')
      .values({
        id: newId('sch'),
        project_id: tenant.projectId,
        organization_id: tenant.organizationId,
        cron: '0 7 * * *',
        crawl_config: JSON.stringify({ type: 'details', targets: ['B000000001'], config: { marketplace: 'US', lang: null } }),
        next_run_at: new Date(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const destination = (values: object) =>
      db
        .insertInto('destination')
        .values({
          id: newId('dst'),
          project_id: tenant.projectId,
          organization_id: tenant.organizationId,
          name: 'd',
          type: 's3',
          bucket: 'warehouse',
          region: 'us-east-1',
          access_key_id: KEY.accessKeyId,
          secret_access_key_encrypted: 'v1.x.y.z',
          format: 'jsonl',
          ...values,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const every = await destination({ prefix: 'all/', gzip: true });
    const onlyOther = await destination({ schedule_ids: ['sch_0000000000000000'] });
    const job = await completedJob(db, 1);
    const queue = () => db.transaction().execute((trx) => queueExportDeliveries(trx, job, exportObjectKey));
    expect(await queue()).toEqual([{ destinationId: every.id, key: `all/${tenant.projectId}/2026/12/03/${job.id}.jsonl.gz` }]);
    await queue();
    const rows = await db.selectFrom('destination_delivery').select(['destination_id', 'status']).where('job_id', '=', job.id).execute();
    expect(rows).toEqual([{ destination_id: every.id, status: 'pending' }]);
    expect(rows.some((r) => r.destination_id === onlyOther.id)).toBe(false);
    {
      const scheduled = await destination({ schedule_ids: [schedule.id] });
      const fromSchedule = { ...(await completedJob(db, 1)), schedule_id: schedule.id };
      const queued = await db.transaction().execute((trx) => queueExportDeliveries(trx, fromSchedule, exportObjectKey));
      expect(queued.map((q) => q.destinationId).sort()).toEqual([every.id, scheduled.id].sort());
    }
  });
});
