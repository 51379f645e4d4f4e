import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { S3Error } from './s3-error';
import { chunkSignature, type VerifiedRequest } from './sigv4';

/** The longest chunk header or trailer line accepted (a size, a signature, a checksum). */
const MAX_LINE = 1024;
const CRLF = Buffer.from('\r\n');

type State = 'header' | 'data' | 'data-end' | 'trailer';

/**
 * Decodes an `aws-chunked` body (`Content-Encoding: aws-chunked`, the framing the AWS SDK v3
 * sends streams with): `<hex size>[;chunk-signature=<sig>]\r\n<data>\r\n ... 0...\r\n`, then
 * trailer lines (`x-amz-checksum-crc32:<base64>`) and an empty line. Only the data goes on, so
 * the stored object is the bytes the client had, never the framing. With signed chunks
 * (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`) each chunk's signature is checked against the chain
 * that starts at the request's signature.
 */
export class AwsChunkedDecoder extends Transform {
  readonly trailers = new Map<string, string>();
  decodedLength = 0;
  private pending: Buffer = Buffer.alloc(0);
  private state: State = 'header';
  private remaining = 0;
  private chunkHash: Hash | null = null;
  private expectedSignature: string | null = null;
  private previousSignature: string;
  private finished = false;

  constructor(private readonly signing: VerifiedRequest['chunkSigning'] | null) {
    super();
    this.previousSignature = signing?.seedSignature ?? '';
  }

  override _transform(data: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    try {
      this.consume();
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (!this.finished || this.pending.length)
      return done(new S3Error(400, 'IncompleteBody', 'The aws-chunked body ended before its last chunk.'));
    done();
  }

  private consume(): void {
    for (;;) {
      if (this.state === 'data') {
        if (!this.pending.length) return;
        const piece = this.pending.subarray(0, this.remaining);
        this.pending = this.pending.subarray(piece.length);
        this.remaining -= piece.length;
        this.decodedLength += piece.length;
        this.chunkHash?.update(piece);
        this.push(piece);
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'data-end') {
        if (this.pending.length < 2) return;
        if (!this.pending.subarray(0, 2).equals(CRLF)) throw malformed('a chunk is not followed by CRLF');
        this.pending = this.pending.subarray(2);
        this.endChunk();
        this.state = 'header';
        continue;
      }
      const line = this.takeLine();
      if (line === null) return;
      if (this.state === 'header') this.startChunk(line);
      else if (line === '') {
        this.finished = true;
        if (this.pending.length) throw malformed('bytes after the last trailer');
        return;
      } else {
        const colon = line.indexOf(':');
        if (colon <= 0) throw malformed('a trailer line without a name');
        this.trailers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
    }
  }

  private takeLine(): string | null {
    const end = this.pending.indexOf(CRLF);
    if (end < 0) {
      if (this.pending.length > MAX_LINE) throw malformed('a header line is too long');
      return null;
    }
    const line = this.pending.subarray(0, end).toString('latin1');
    this.pending = this.pending.subarray(end + 2);
    return line;
  }

  private startChunk(line: string): void {
    if (this.finished) throw malformed('bytes after the last chunk');
    const m = /^([0-9a-fA-F]{1,16})(?:;chunk-signature=([0-9a-f]{64}))?$/.exec(line);
    if (!m) throw malformed(`a chunk header "${line.slice(0, 40)}"`);
    this.remaining = parseInt(m[1]!, 16);
    if (this.signing) {
      if (!m[2]) throw new S3Error(403, 'SignatureDoesNotMatch', 'A chunk of a signed aws-chunked body has no signature.');
      this.expectedSignature = m[2];
      this.chunkHash = createHash('sha256');
    }
    if (this.remaining > 0) {
      this.state = 'data';
      return;
    }
    // the last chunk: it is signed like any other, then come the trailers (or the empty line)
    this.endChunk();
    this.state = 'trailer';
  }

  private endChunk(): void {
    if (!this.signing || !this.chunkHash || !this.expectedSignature) return;
    const chunk = this.chunkHash.digest('hex');
    const expected = chunkSignature(this.signing, this.previousSignature, chunk);
    if (expected !== this.expectedSignature) throw new S3Error(403, 'SignatureDoesNotMatch', 'A chunk signature does not match.');
    this.previousSignature = expected;
    this.chunkHash = null;
    this.expectedSignature = null;
  }
}

const malformed = (what: string) => new S3Error(400, 'IncompleteBody', `Malformed aws-chunked body: ${what}.`);
