import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { AwsChunkedDecoder } from './aws-chunked';
import { CHECKSUM_HEADERS, type Checksum, checksumFor } from './checksums';
import { S3Error } from './s3-error';
import type { VerifiedRequest } from './sigv4';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Checks the bytes of a body as they pass: the signed SHA-256 (`x-amz-content-sha256` as a hex
 * digest), `Content-MD5`, and an `x-amz-checksum-*` value sent as a header or as an aws-chunked
 * trailer. A mismatch fails the stream at its end, so the store drops what it wrote.
 */
class BodyCheck extends Transform {
  private readonly sha256: Hash | null;
  private readonly md5: Hash | null;
  private length = 0;

  constructor(
    private readonly expected: {
      sha256?: string;
      md5Base64?: string;
      length?: number;
      checksum?: { name: string; running: Checksum; value: () => string | undefined };
    },
  ) {
    super();
    this.sha256 = expected.sha256 ? createHash('sha256') : null;
    this.md5 = expected.md5Base64 ? createHash('md5') : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sha256?.update(chunk);
    this.md5?.update(chunk);
    this.expected.checksum?.running.update(chunk);
    this.length += chunk.length;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const { sha256, md5Base64, length, checksum } = this.expected;
    if (sha256 && this.sha256!.digest('hex') !== sha256)
      return done(
        new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed."),
      );
    if (md5Base64 && this.md5!.digest('base64') !== md5Base64)
      return done(new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.'));
    if (length !== undefined && length !== this.length)
      return done(new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by x-amz-decoded-content-length.'));
    if (checksum) {
      const sent = checksum.value();
      if (!sent) return done(new S3Error(400, 'InvalidRequest', `The ${checksum.name} trailer was announced but not sent.`));
      if (sent !== checksum.running.base64())
        return done(new S3Error(400, 'BadDigest', `The ${checksum.name} you specified did not match the calculated checksum.`));
    }
    done();
  }
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * The body of a write as the client meant it: aws-chunked framing taken off, every digest and
 * checksum the request carries checked. The payload modes are those of SigV4 for S3: a hex
 * SHA-256, `UNSIGNED-PAYLOAD`, and the streaming modes (signed chunks, or unsigned chunks with a
 * checksum trailer, which the AWS SDK v3 sends by default).
 */
export function requestBody(req: IncomingMessage, verified: VerifiedRequest): Readable {
  const mode = verified.payloadHash;
  const streaming = mode.startsWith('STREAMING-');
  if (streaming && mode !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' && mode !== 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD')
    throw new S3Error(501, 'NotImplemented', `This store does not accept the payload mode ${mode}.`);
  if (!streaming && mode !== 'UNSIGNED-PAYLOAD' && !HEX_SHA256.test(mode))
    throw new S3Error(400, 'InvalidArgument', 'x-amz-content-sha256 must be a SHA-256 hex digest, UNSIGNED-PAYLOAD or a STREAMING mode.');

  const decoder = streaming ? new AwsChunkedDecoder(mode === 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' ? verified.chunkSigning : null) : null;
  const trailerName = header(req, 'x-amz-trailer')?.trim().toLowerCase();
  if (trailerName && !decoder) throw new S3Error(400, 'InvalidRequest', 'x-amz-trailer needs an aws-chunked body.');
  const headerName = CHECKSUM_HEADERS.find((name) => req.headers[name] !== undefined);
  const checksumName = trailerName ?? headerName;
  const decodedLength = header(req, 'x-amz-decoded-content-length');
  const check = new BodyCheck({
    ...(HEX_SHA256.test(mode) ? { sha256: mode } : {}),
    ...(header(req, 'content-md5') ? { md5Base64: header(req, 'content-md5')! } : {}),
    ...(decoder && decodedLength !== undefined ? { length: Number(decodedLength) } : {}),
    ...(checksumName
      ? {
          checksum: {
            name: checksumName,
            running: checksumFor(checksumName),
            value: () => (trailerName ? decoder!.trailers.get(trailerName) : header(req, checksumName)),
          },
        }
      : {}),
  });
  // a client that goes away midway fails the body: the store drops what it wrote
  const cut = () => check.destroy(new S3Error(400, 'IncompleteBody', 'The connection closed before the body was complete.'));
  req.on('error', cut);
  req.on('close', () => req.complete || cut());
  // A failed check may come before the store starts reading (a small body ends at once): the
  // error stays on the stream (`errored`), and reading it throws it; this listener only keeps
  // the emitter from calling it unhandled.
  check.on('error', () => undefined);
  if (decoder) {
    decoder.on('error', (err) => check.destroy(err));
    return req.pipe(decoder).pipe(check);
  }
  return req.pipe(check);
}

/** A small body read whole (the XML of CompleteMultipartUpload), with its signed digest checked. */
export async function smallBody(req: IncomingMessage, verified: VerifiedRequest, limit = 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of requestBody(req, verified)) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new S3Error(400, 'MaxMessageLengthExceeded', 'Your request was too big.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
