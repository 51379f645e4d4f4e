import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { AwsChunkedDecoder } from './aws-chunked';
import { chunkSignature, signingKey } from './sigv4';

const crcBase64 = (data: Buffer) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(data) >>> 0);
  return out.toString('base64');
};

/** `data` framed as the AWS SDK frames an unsigned stream with a CRC32 trailer. */
function framed(pieces: Buffer[], trailer = crcBase64(Buffer.concat(pieces))): Buffer {
  const parts = pieces.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]);
  return Buffer.concat([...parts, Buffer.from(`0\r\nx-amz-checksum-crc32:${trailer}\r\n\r\n`)]);
}

/** Decodes `body` fed in pieces of `step` bytes (framing split anywhere, as TCP splits it). */
async function decode(body: Buffer, step: number, decoder = new AwsChunkedDecoder(null)) {
  const pieces = [];
  for (let i = 0; i < body.length; i += step) pieces.push(body.subarray(i, i + step));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(pieces).pipe(decoder)) out.push(chunk as Buffer);
  return { data: Buffer.concat(out), trailers: Object.fromEntries(decoder.trailers) };
}

describe('aws-chunked decoding', () => {
  const pieces = [Buffer.from('{"asin":"B000000001"}\n'.repeat(300)), Buffer.from('last line\n')];

  it.each([1, 3, 7, 64, 100_000])('gives back the data and its trailer whatever the read sizes (%i bytes at a time)', async (step) => {
    const { data, trailers } = await decode(framed(pieces), step);
    expect(data).toEqual(Buffer.concat(pieces));
    expect(trailers).toEqual({ 'x-amz-checksum-crc32': crcBase64(Buffer.concat(pieces)) });
  });

  it('fails a body cut before its last chunk, and framing it cannot read', async () => {
    const whole = framed(pieces);
    await expect(decode(whole.subarray(0, whole.length - 40), 64)).rejects.toMatchObject({ code: 'IncompleteBody' });
    await expect(decode(Buffer.from('zz\r\nabc\r\n'), 64)).rejects.toMatchObject({ code: 'IncompleteBody' });
    await expect(decode(Buffer.concat([Buffer.from('3\r\nabcX\r\n')]), 64)).rejects.toMatchObject({ code: 'IncompleteBody' });
  });

  it('checks signed chunks against the chain that starts at the request signature', async () => {
    const signing = {
      signingKey: signingKey('secret', '20261203', 'us-east-1'),
      amzDate: '20261203T190000Z',
      scope: '20261203/us-east-1/s3/aws4_request',
      seedSignature: 'a'.repeat(64),
    };
    const { createHash } = await import('node:crypto');
    const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const first = chunkSignature(signing, signing.seedSignature, hash(pieces[0]!));
    const last = chunkSignature(signing, first, hash(Buffer.alloc(0)));
    const body = (sig: string) =>
      Buffer.concat([
        Buffer.from(`${pieces[0]!.length.toString(16)};chunk-signature=${sig}\r\n`),
        pieces[0]!,
        Buffer.from(`\r\n0;chunk-signature=${last}\r\n\r\n`),
      ]);
    await expect(decode(body(first), 50, new AwsChunkedDecoder(signing))).resolves.toMatchObject({ data: pieces[0] });
    await expect(decode(body('b'.repeat(64)), 50, new AwsChunkedDecoder(signing))).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
  });
});
