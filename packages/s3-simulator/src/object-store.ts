import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { S3Error } from './s3-error';

/** What is kept of an object besides its bytes. */
export interface ObjectInfo {
  key: string;
  size: number;
  etag: string;
  lastModified: string;
  contentType: string;
  contentEncoding: string | null;
  /** The file under the bucket's `objects/` holding the bytes. */
  dataFile: string;
}

export interface UploadInfo {
  uploadId: string;
  key: string;
  initiated: string;
  contentType: string;
  contentEncoding: string | null;
}

export interface ObjectHeaders {
  contentType: string;
  contentEncoding: string | null;
}

/** S3's smallest part but the last (5 MiB). */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
const BUCKET_NAME_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const keyFile = (key: string) => createHash('sha256').update(key).digest('hex');
const token = () => randomBytes(12).toString('hex');

/**
 * Buckets on disk under one directory. An object's bytes go to a file of their own first; the
 * object appears only when its metadata file, which names that file, is renamed into place: a
 * reader sees the whole previous object or the whole new one, never a half-written one, and an
 * upload cut off midway leaves nothing under its key (a temporary file, swept on start).
 */
export class ObjectStore {
  constructor(private readonly root: string) {}

  async open(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    for (const bucket of await fs.readdir(this.root)) {
      const dir = path.join(this.root, bucket, 'objects');
      for (const file of await fs.readdir(dir).catch(() => [] as string[]))
        if (file.endsWith('.tmp')) await fs.rm(path.join(dir, file), { force: true });
    }
  }

  async createBucket(bucket: string): Promise<void> {
    if (!BUCKET_NAME_RE.test(bucket)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');
    try {
      await fs.mkdir(path.join(this.root, bucket));
    } catch {
      throw new S3Error(
        409,
        'BucketAlreadyOwnedByYou',
        'Your previous request to create the named bucket succeeded and you already own it.',
      );
    }
    await fs.mkdir(path.join(this.root, bucket, 'objects'));
    await fs.mkdir(path.join(this.root, bucket, 'uploads'));
  }

  async assertBucket(bucket: string): Promise<void> {
    const ok = BUCKET_NAME_RE.test(bucket) && (await fs.stat(path.join(this.root, bucket)).catch(() => null))?.isDirectory();
    if (!ok) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.');
  }

  private objects = (bucket: string) => path.join(this.root, bucket, 'objects');

  async putObject(bucket: string, key: string, body: Readable, headers: ObjectHeaders): Promise<ObjectInfo> {
    await this.assertBucket(bucket);
    const dataFile = `${keyFile(key)}.${token()}.data`;
    const { size, md5 } = await this.writeFile(path.join(this.objects(bucket), dataFile), [body]);
    return this.publish(bucket, { key, size, etag: `"${md5}"`, lastModified: new Date().toISOString(), ...headers, dataFile });
  }

  async head(bucket: string, key: string): Promise<ObjectInfo> {
    await this.assertBucket(bucket);
    const raw = await fs.readFile(path.join(this.objects(bucket), `${keyFile(key)}.json`), 'utf8').catch(() => null);
    if (!raw) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    return JSON.parse(raw) as ObjectInfo;
  }

  dataPath(bucket: string, info: ObjectInfo): string {
    return path.join(this.objects(bucket), info.dataFile);
  }

  async deleteObject(bucket: string, key: string): Promise<void> {
    const info = await this.head(bucket, key).catch(() => null);
    if (!info) return;
    await fs.rm(path.join(this.objects(bucket), `${keyFile(key)}.json`), { force: true });
    await fs.rm(this.dataPath(bucket, info), { force: true });
  }

  async list(bucket: string, prefix: string): Promise<ObjectInfo[]> {
    await this.assertBucket(bucket);
    const out: ObjectInfo[] = [];
    for (const file of await fs.readdir(this.objects(bucket))) {
      if (!file.endsWith('.json')) continue;
      const raw = await fs.readFile(path.join(this.objects(bucket), file), 'utf8').catch(() => null);
      if (!raw) continue;
      const info = JSON.parse(raw) as ObjectInfo;
      if (info.key.startsWith(prefix)) out.push(info);
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  // multipart uploads: each upload is a directory of part files and its info

  private uploadDir = (bucket: string, uploadId: string) => path.join(this.root, bucket, 'uploads', uploadId);

  async createUpload(bucket: string, key: string, headers: ObjectHeaders): Promise<UploadInfo> {
    await this.assertBucket(bucket);
    const upload: UploadInfo = { uploadId: token(), key, initiated: new Date().toISOString(), ...headers };
    await fs.mkdir(this.uploadDir(bucket, upload.uploadId));
    await fs.writeFile(path.join(this.uploadDir(bucket, upload.uploadId), 'upload.json'), JSON.stringify(upload));
    return upload;
  }

  async upload(bucket: string, key: string, uploadId: string): Promise<UploadInfo> {
    await this.assertBucket(bucket);
    const raw = /^[0-9a-f]{24}$/.test(uploadId)
      ? await fs.readFile(path.join(this.uploadDir(bucket, uploadId), 'upload.json'), 'utf8').catch(() => null)
      : null;
    const upload = raw ? (JSON.parse(raw) as UploadInfo) : null;
    if (!upload || upload.key !== key)
      throw new S3Error(
        404,
        'NoSuchUpload',
        'The specified multipart upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      );
    return upload;
  }

  async putPart(bucket: string, key: string, uploadId: string, partNumber: number, body: Readable): Promise<string> {
    await this.upload(bucket, key, uploadId);
    const dir = this.uploadDir(bucket, uploadId);
    const part = path.join(dir, `part-${partNumber}`);
    const { md5, size } = await this.writeFile(`${part}.${token()}`, [body], async (file) => {
      await fs.rename(file, part);
    });
    await fs.writeFile(path.join(dir, `part-${partNumber}.json`), JSON.stringify({ etag: `"${md5}"`, size }));
    return `"${md5}"`;
  }

  async listUploads(bucket: string): Promise<UploadInfo[]> {
    await this.assertBucket(bucket);
    const out: UploadInfo[] = [];
    for (const id of await fs.readdir(path.join(this.root, bucket, 'uploads'))) {
      const raw = await fs.readFile(path.join(this.uploadDir(bucket, id), 'upload.json'), 'utf8').catch(() => null);
      if (raw) out.push(JSON.parse(raw) as UploadInfo);
    }
    return out;
  }

  async abortUpload(bucket: string, key: string, uploadId: string): Promise<void> {
    await this.upload(bucket, key, uploadId);
    await fs.rm(this.uploadDir(bucket, uploadId), { recursive: true, force: true });
  }

  /** The parts, as the client lists them, joined into the object; every part but the last at least 5 MiB. */
  async completeUpload(bucket: string, key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<ObjectInfo> {
    const upload = await this.upload(bucket, key, uploadId);
    const dir = this.uploadDir(bucket, uploadId);
    if (!parts.length)
      throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
    const md5s: Buffer[] = [];
    for (let i = 0; i < parts.length; i++) {
      const { partNumber, etag } = parts[i]!;
      if (i > 0 && partNumber <= parts[i - 1]!.partNumber)
        throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
      const raw = await fs.readFile(path.join(dir, `part-${partNumber}.json`), 'utf8').catch(() => null);
      const stored = raw ? (JSON.parse(raw) as { etag: string; size: number }) : null;
      if (!stored || stored.etag !== normalizeEtag(etag))
        throw new S3Error(400, 'InvalidPart', `Part ${partNumber} was not uploaded or its ETag does not match.`);
      if (i < parts.length - 1 && stored.size < MIN_PART_SIZE)
        throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
      md5s.push(Buffer.from(stored.etag.slice(1, -1), 'hex'));
    }
    const dataFile = `${keyFile(key)}.${token()}.data`;
    const sources = parts.map((p) => p.partNumber);
    const { size } = await this.writeFile(
      path.join(this.objects(bucket), dataFile),
      sources.map((n) => path.join(dir, `part-${n}`)),
    );
    const etag = `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${parts.length}"`;
    const info = await this.publish(bucket, {
      key,
      size,
      etag,
      lastModified: new Date().toISOString(),
      contentType: upload.contentType,
      contentEncoding: upload.contentEncoding,
      dataFile,
    });
    await fs.rm(dir, { recursive: true, force: true });
    return info;
  }

  /** Writes `sources` (streams or files) one after another to `file` through a `.tmp` name. */
  private async writeFile(
    file: string,
    sources: (Readable | string)[],
    finish: (tmp: string) => Promise<void> = (tmp) => fs.rename(tmp, file),
  ): Promise<{ size: number; md5: string }> {
    const tmp = `${file}.tmp`;
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      const out = createWriteStream(tmp);
      await pipeline(
        async function* () {
          for (const source of sources) {
            const stream = typeof source === 'string' ? createReadStream(source) : source;
            for await (const chunk of stream) yield chunk as Buffer;
          }
        },
        count,
        out,
      );
      await finish(tmp);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    return { size, md5: md5.digest('hex') };
  }

  /** Makes `info` the object under its key (one rename), then drops the bytes it replaced. */
  private async publish(bucket: string, info: ObjectInfo): Promise<ObjectInfo> {
    const meta = path.join(this.objects(bucket), `${keyFile(info.key)}.json`);
    const previous = await this.head(bucket, info.key).catch(() => null);
    const tmp = `${meta}.${token()}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(info));
    await fs.rename(tmp, meta);
    if (previous) await fs.rm(this.dataPath(bucket, previous), { force: true });
    return info;
  }
}

const normalizeEtag = (etag: string) => (etag.startsWith('"') ? etag : `"${etag}"`);
