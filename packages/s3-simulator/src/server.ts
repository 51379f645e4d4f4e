import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { XMLParser } from 'fast-xml-parser';
import { requestBody, smallBody } from './body';
import { type ObjectHeaders, type ObjectInfo, ObjectStore } from './object-store';
import { errorDocument, S3Error, xmlDocument, xmlFields } from './s3-error';
import { type Credential, type VerifiedRequest, verifySignature } from './sigv4';

export interface S3SimulatorOptions {
  /** Keys that may sign requests. */
  credentials: Credential[];
  /** Buckets made at start. */
  buckets?: string[];
  /** The one region requests must be signed for (default `us-east-1`). */
  region?: string;
  /** Where objects live (default: a new temporary directory, removed on close). */
  root?: string;
  host?: string;
  port?: number;
}

export interface S3Simulator {
  /** `http://host:port`: the endpoint to give a client (path-style addressing). */
  readonly url: string;
  readonly port: number;
  readonly region: string;
  readonly store: ObjectStore;
  /** The last requests (at most 1,000), oldest first: what a test can assert the client sent. */
  readonly requests: readonly RequestRecord[];
  close(): Promise<void>;
}

export interface RequestRecord {
  method: string;
  path: string;
  /** The `x-amz-content-sha256` mode: `hex`, `UNSIGNED-PAYLOAD` or a `STREAMING-...` mode. */
  payload: string;
  /** The checksum trailer the request announced (`x-amz-trailer`), if any. */
  trailer: string | null;
  status: number;
}

interface Operation {
  req: IncomingMessage;
  res: ServerResponse;
  verified: VerifiedRequest;
  bucket: string;
  key: string;
  query: URLSearchParams;
}

const xml = new XMLParser({ ignoreAttributes: true, isArray: (name) => name === 'Part', parseTagValue: false });

/**
 * A local S3-compatible object store: the outside world's storage, as the marketplace simulator
 * is its shops (docs/destinations.md, "The local S3 server"). Path-style addressing
 * (`/{bucket}/{key}`); SigV4 header authentication checked; PutObject, GetObject, HeadObject,
 * DeleteObject, ListObjectsV2, CreateBucket, HeadBucket and the multipart upload calls. What it
 * does not implement answers `501 NotImplemented` rather than pretending.
 */
export async function startS3Simulator(options: S3SimulatorOptions): Promise<S3Simulator> {
  const region = options.region ?? 'us-east-1';
  const ownRoot = !options.root;
  const root = options.root ?? (await fs.mkdtemp(path.join(os.tmpdir(), 's3-simulator-')));
  const store = new ObjectStore(root);
  await store.open();
  for (const bucket of options.buckets ?? []) await store.createBucket(bucket).catch(ignoreOwnedBucket);
  const keys = new Map(options.credentials.map((c) => [c.accessKeyId, c]));
  const requests: RequestRecord[] = [];

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    res.setHeader('x-amz-request-id', requestId);
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const rawPath = q < 0 ? raw : raw.slice(0, q);
    const rawQuery = q < 0 ? '' : raw.slice(q + 1);
    const payload = String(req.headers['x-amz-content-sha256'] ?? '');
    res.on('finish', () => {
      requests.push({
        method: req.method ?? 'GET',
        path: rawPath,
        payload: /^[0-9a-f]{64}$/.test(payload) ? 'hex' : payload,
        trailer: (req.headers['x-amz-trailer'] as string | undefined) ?? null,
        status: res.statusCode,
      });
      if (requests.length > 1000) requests.shift();
    });
    try {
      const verified = verifySignature(
        { method: req.method ?? 'GET', rawPath, rawQuery, headers: req.headers },
        (id) => keys.get(id),
        region,
      );
      const [bucketPart = '', ...keyParts] = rawPath.slice(1).split('/');
      await route({
        req,
        res,
        verified,
        bucket: decodeURIComponent(bucketPart),
        key: decodeURIComponent(keyParts.join('/')),
        query: new URLSearchParams(rawQuery),
      });
    } catch (err) {
      const error = err instanceof S3Error ? err : new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
      if (res.headersSent) return void res.destroy();
      // a refused write's body is not read: the connection is not reused for the next request
      if (!req.complete) res.setHeader('Connection', 'close');
      res.statusCode = error.status;
      if (req.method === 'HEAD') return void res.end();
      res.setHeader('Content-Type', 'application/xml');
      res.end(errorDocument(error, rawPath, requestId));
    }
  }

  async function route(op: Operation): Promise<void> {
    const { req, bucket, key, query } = op;
    const method = req.method ?? 'GET';
    const write = method === 'PUT' || method === 'POST' || method === 'DELETE';
    if (write && op.verified.credential.readOnly) throw new S3Error(403, 'AccessDenied', 'Access Denied');
    if (!bucket) throw new S3Error(501, 'NotImplemented', 'Only bucket and object requests are implemented.');
    if (!key) {
      if (method === 'PUT') return created(op, await store.createBucket(bucket));
      if (method === 'HEAD') return (await store.assertBucket(bucket), void op.res.end());
      if (method === 'GET' && query.has('uploads')) return listUploads(op);
      if (method === 'GET') return listObjects(op);
      throw new S3Error(501, 'NotImplemented', `${method} on a bucket is not implemented.`);
    }
    if (method === 'PUT' && req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'CopyObject is not implemented.');
    if (method === 'PUT' && query.has('uploadId')) return putPart(op);
    if (method === 'PUT') return putObject(op);
    if (method === 'POST' && query.has('uploads')) return createUpload(op);
    if (method === 'POST' && query.has('uploadId')) return completeUpload(op);
    if (method === 'GET' || method === 'HEAD') return getObject(op, method === 'HEAD');
    if (method === 'DELETE' && query.has('uploadId')) {
      await store.abortUpload(bucket, key, query.get('uploadId')!);
      return noContent(op);
    }
    if (method === 'DELETE') return (await store.deleteObject(bucket, key), noContent(op));
    throw new S3Error(501, 'NotImplemented', `${method} on an object is not implemented.`);
  }

  const objectHeaders = (req: IncomingMessage): ObjectHeaders => {
    const encoding = (req.headers['content-encoding'] ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e && e !== 'aws-chunked')
      .join(', ');
    return { contentType: req.headers['content-type'] ?? 'binary/octet-stream', contentEncoding: encoding || null };
  };

  async function putObject(op: Operation): Promise<void> {
    await store.assertBucket(op.bucket);
    const info = await store.putObject(op.bucket, op.key, requestBody(op.req, op.verified), objectHeaders(op.req));
    op.res.setHeader('ETag', info.etag);
    op.res.end();
  }

  async function putPart(op: Operation): Promise<void> {
    const partNumber = Number(op.query.get('partNumber'));
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
      throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive.');
    await store.upload(op.bucket, op.key, op.query.get('uploadId')!);
    const etag = await store.putPart(op.bucket, op.key, op.query.get('uploadId')!, partNumber, requestBody(op.req, op.verified));
    op.res.setHeader('ETag', etag);
    op.res.end();
  }

  async function createUpload(op: Operation): Promise<void> {
    await smallBody(op.req, op.verified);
    const upload = await store.createUpload(op.bucket, op.key, objectHeaders(op.req));
    sendXml(op, 'InitiateMultipartUploadResult', xmlFields({ Bucket: op.bucket, Key: op.key, UploadId: upload.uploadId }));
  }

  async function completeUpload(op: Operation): Promise<void> {
    const body = (await smallBody(op.req, op.verified)).toString('utf8');
    let parts: { partNumber: number; etag: string }[];
    try {
      const doc = xml.parse(body) as { CompleteMultipartUpload?: { Part?: { PartNumber?: string; ETag?: string }[] } };
      parts = (doc.CompleteMultipartUpload?.Part ?? []).map((p) => ({ partNumber: Number(p.PartNumber), etag: String(p.ETag ?? '') }));
    } catch {
      parts = [];
    }
    const info = await store.completeUpload(op.bucket, op.key, op.query.get('uploadId')!, parts);
    sendXml(
      op,
      'CompleteMultipartUploadResult',
      xmlFields({ Location: `/${op.bucket}/${op.key}`, Bucket: op.bucket, Key: op.key, ETag: info.etag }),
    );
  }

  async function getObject(op: Operation, headOnly: boolean): Promise<void> {
    const info = await store.head(op.bucket, op.key);
    const { res } = op;
    res.setHeader('Content-Type', info.contentType);
    if (info.contentEncoding) res.setHeader('Content-Encoding', info.contentEncoding);
    res.setHeader('Content-Length', info.size);
    res.setHeader('ETag', info.etag);
    res.setHeader('Last-Modified', new Date(info.lastModified).toUTCString());
    if (headOnly) return void res.end();
    await pipeline(createReadStream(store.dataPath(op.bucket, info)), res);
  }

  async function listObjects(op: Operation): Promise<void> {
    const prefix = op.query.get('prefix') ?? '';
    const objects = await store.list(op.bucket, prefix);
    const contents = objects
      .map(
        (o: ObjectInfo) =>
          `<Contents>${xmlFields({ Key: o.key, LastModified: o.lastModified, ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' })}</Contents>`,
      )
      .join('');
    sendXml(
      op,
      'ListBucketResult',
      xmlFields({ Name: op.bucket, Prefix: prefix, KeyCount: objects.length, MaxKeys: 1000, IsTruncated: 'false' }) + contents,
    );
  }

  async function listUploads(op: Operation): Promise<void> {
    const uploads = await store.listUploads(op.bucket);
    const items = uploads
      .map((u) => `<Upload>${xmlFields({ Key: u.key, UploadId: u.uploadId, Initiated: u.initiated })}</Upload>`)
      .join('');
    sendXml(op, 'ListMultipartUploadsResult', xmlFields({ Bucket: op.bucket, IsTruncated: 'false' }) + items);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    region,
    store,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (ownRoot) await fs.rm(root, { recursive: true, force: true });
    },
  };
}

function sendXml(op: Operation, root: string, children: string): void {
  op.res.setHeader('Content-Type', 'application/xml');
  op.res.end(xmlDocument(root, children));
}

function created(op: Operation, _made: void): void {
  op.res.setHeader('Location', `/${op.bucket}`);
  op.res.end();
}

function noContent(op: Operation): void {
  op.res.statusCode = 204;
  op.res.end();
}

const ignoreOwnedBucket = (err: unknown) => {
  if (!(err instanceof S3Error && err.code === 'BucketAlreadyOwnedByYou')) throw err;
};
