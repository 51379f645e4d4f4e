import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FinalizeRequestMiddleware } from '@smithy/types';
import { type S3Simulator, startS3Simulator } from './index';

/**
 * The local S3 server against the real AWS SDK v3 (client-s3 and lib-storage, their defaults):
 * what the SDK uploads is stored byte for byte (its aws-chunked framing and checksum trailers
 * taken off and checked), and a request with the wrong secret, key, region or bucket is refused
 * with the code AWS gives, so a destination test on this server can fail the way it would on S3.
 */
const KEY = { accessKeyId: 'AKIASIMULATOR0000001', secretAccessKey: 'simulator-secret-key-1' };
const READ_ONLY = { accessKeyId: 'AKIASIMULATORREAD001', secretAccessKey: 'simulator-secret-key-2', readOnly: true };
let s3: S3Simulator;

beforeAll(async () => {
  s3 = await startS3Simulator({ credentials: [KEY, READ_ONLY], buckets: ['results'] });
});
afterAll(() => s3.close());

const client = (overrides: Partial<S3ClientConfig> = {}) =>
  new S3Client({ endpoint: s3.url, region: 'us-east-1', forcePathStyle: true, credentials: KEY, maxAttempts: 1, ...overrides });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function read(key: string, bucket = 'results'): Promise<Buffer> {
  const out = await client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** The error code the SDK raises for `run` (its `name`, taken from the answer's `<Code>`). */
async function codeOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return 'no error';
  } catch (err) {
    return (err as { name: string }).name;
  }
}

/** A stream of `data` in pieces of 64 KiB, as a file or an export would arrive. */
const streamOf = (data: Buffer) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 65_536) yield data.subarray(i, i + 65_536);
    })(),
  );

describe('the local S3 server', () => {
  it('stores a PutObject of bytes as sent, with its MD5 as the ETag, and lists it', async () => {
    const body = Buffer.from('{"asin":"B000000001"}\n{"asin":"B000000002"}\n');
    const put = await client().send(
      new PutObjectCommand({ Bucket: 'results', Key: 'p/2026/12/03/job 1.jsonl', Body: body, ContentType: 'application/x-ndjson' }),
    );
    expect(put.ETag).toBe(`"${createHash('md5').update(body).digest('hex')}"`);
    expect(await read('p/2026/12/03/job 1.jsonl')).toEqual(body);
    const head = await client().send(new HeadObjectCommand({ Bucket: 'results', Key: 'p/2026/12/03/job 1.jsonl' }));
    expect({ length: head.ContentLength, type: head.ContentType }).toEqual({ length: body.length, type: 'application/x-ndjson' });
    const listed = await client().send(new ListObjectsV2Command({ Bucket: 'results', Prefix: 'p/2026/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['p/2026/12/03/job 1.jsonl']);
  });

  it('takes the aws-chunked framing off a streamed upload and checks its CRC32 trailer', async () => {
    const data = randomBytes(300_000);
    await client().send(new PutObjectCommand({ Bucket: 'results', Key: 'streamed.bin', Body: streamOf(data), ContentLength: data.length }));
    // the SDK's default for a stream: unsigned aws-chunked with a CRC32 trailer (decoded here)
    expect(s3.requests.at(-1)).toMatchObject({
      method: 'PUT',
      payload: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      trailer: 'x-amz-checksum-crc32',
      status: 200,
    });
    const stored = await read('streamed.bin');
    expect({ length: stored.length, sha256: sha256(stored) }).toEqual({ length: data.length, sha256: sha256(data) });
  });

  it('joins a lib-storage multipart upload (three parts) into one object and leaves no upload behind', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 12_345);
    const upload = new Upload({
      client: client(),
      params: { Bucket: 'results', Key: 'big/export.jsonl.gz', Body: streamOf(data), ContentEncoding: 'gzip' },
    });
    const parts: number[] = [];
    upload.on('httpUploadProgress', (p) => p.part && parts.push(p.part));
    const done = await upload.done();
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(new Set(parts).size).toBe(3);
    const stored = await read('big/export.jsonl.gz');
    expect({ length: stored.length, sha256: sha256(stored) }).toEqual({ length: data.length, sha256: sha256(data) });
    const uploads = await client().send(new ListMultipartUploadsCommand({ Bucket: 'results' }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it("refuses with AWS's codes: a wrong secret, an unknown key, another region, a missing bucket, a read-only key's write", async () => {
    const put = (c: S3Client, bucket = 'results') => c.send(new PutObjectCommand({ Bucket: bucket, Key: 'refused.txt', Body: 'x' }));
    await expect(codeOf(put(client({ credentials: { ...KEY, secretAccessKey: 'not-the-secret' } })))).resolves.toBe(
      'SignatureDoesNotMatch',
    );
    await expect(codeOf(put(client({ credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'x' } })))).resolves.toBe(
      'InvalidAccessKeyId',
    );
    await expect(codeOf(put(client({ region: 'eu-west-1' })))).resolves.toBe('AuthorizationHeaderMalformed');
    await expect(codeOf(put(client(), 'no-such-bucket'))).resolves.toBe('NoSuchBucket');
    await expect(codeOf(put(client({ credentials: READ_ONLY })))).resolves.toBe('AccessDenied');
    await expect(codeOf(client().send(new GetObjectCommand({ Bucket: 'results', Key: 'refused.txt' })))).resolves.toBe('NoSuchKey');
  });

  it('refuses a body changed after signing (its signed SHA-256 no longer matches) and stores nothing', async () => {
    const tampering = client({ requestChecksumCalculation: 'WHEN_REQUIRED' });
    const tamper: FinalizeRequestMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => async (args) => {
      const request = args.request as { body: unknown; headers: Record<string, string> };
      request.body = Buffer.from('tampered!');
      request.headers['content-length'] = '9';
      return next(args);
    };
    tampering.middlewareStack.addRelativeTo(tamper, {
      relation: 'after',
      toMiddleware: 'httpSigningMiddleware',
      name: 'tamper',
      override: true,
    });
    const sent = tampering.send(new PutObjectCommand({ Bucket: 'results', Key: 'tampered.txt', Body: Buffer.from('original!') }));
    await expect(codeOf(sent)).resolves.toMatch(/^(XAmzContentSHA256Mismatch|BadDigest)$/);
    await expect(codeOf(client().send(new HeadObjectCommand({ Bucket: 'results', Key: 'tampered.txt' })))).resolves.toBe('NotFound');
  });

  it('keeps nothing of an upload whose client goes away midway, and leaves the previous object whole', async () => {
    const before = Buffer.from('the previous export');
    await client().send(new PutObjectCommand({ Bucket: 'results', Key: 'cut.jsonl', Body: before }));
    // a slow export, its process gone after a few pieces: the connection closes midway
    const abort = new AbortController();
    const slow = Readable.from(
      (async function* () {
        for (let i = 0; i < 150; i++) {
          if (i === 5) abort.abort();
          yield randomBytes(65_536);
          await new Promise((r) => setTimeout(r, 10));
        }
      })(),
    );
    const sent = client().send(new PutObjectCommand({ Bucket: 'results', Key: 'cut.jsonl', Body: slow, ContentLength: 150 * 65_536 }), {
      abortSignal: abort.signal,
    });
    await expect(sent).rejects.toThrow();
    // the server sees the connection close; give it the moment to drop what it wrote
    const dir = path.join((s3.store as unknown as { root: string }).root, 'results', 'objects');
    for (let i = 0; i < 50 && (await fs.readdir(dir)).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setTimeout(r, 20));
    expect((await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await read('cut.jsonl')).toEqual(before);
  });
});
