import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { S3Error } from './s3-error';

/**
 * AWS Signature Version 4, checked the way S3 checks it (docs/destinations.md, "The local S3
 * server"): the canonical request is rebuilt from what arrived, signed with the secret the access
 * key names, and compared with the `Signature` of the `Authorization` header. A wrong secret, an
 * unknown key, a changed header, path or query all fail, as they do on AWS. Only header
 * authentication is accepted (no presigned URLs, no anonymous requests).
 */

export interface Credential {
  accessKeyId: string;
  secretAccessKey: string;
  /** A key that may read and list but not write (its writes are `AccessDenied`). */
  readOnly?: boolean;
}

/** What a verified request carries on: its key, and what signed chunks are checked with. */
export interface VerifiedRequest {
  credential: Credential;
  /** The `x-amz-content-sha256` value: a hex digest, `UNSIGNED-PAYLOAD` or a `STREAMING-...` mode. */
  payloadHash: string;
  /** For signed aws-chunked bodies: each chunk's signature chains from the previous one. */
  chunkSigning: { signingKey: Buffer; amzDate: string; scope: string; seedSignature: string };
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const AUTHORIZATION_RE =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
/** S3 refuses a request signed more than 15 minutes away from its own clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants it for query names and values. */
const uriEncode = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      const name = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      const value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
      return [uriEncode(name), uriEncode(value)] as const;
    });
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ');
}

/** `20261203T184500Z` as a time. */
function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

export function signingKey(secret: string, date: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
}

export interface SignedRequest {
  method: string;
  /** The path as it arrived (S3 signs it encoded once, as sent). */
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

export function verifySignature(
  request: SignedRequest,
  lookup: (accessKeyId: string) => Credential | undefined,
  region: string,
  now = Date.now(),
): VerifiedRequest {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) throw new S3Error(403, 'AccessDenied', 'Anonymous requests are not allowed: sign the request (SigV4).');
  const m = AUTHORIZATION_RE.exec(authorization);
  if (!m) throw new S3Error(400, 'AuthorizationHeaderMalformed', `The Authorization header is not a ${ALGORITHM} header for s3.`);
  const [, accessKeyId, date, signedRegion, signedHeaderList, signature] = m as unknown as [string, string, string, string, string, string];
  const credential = lookup(accessKeyId);
  if (!credential) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (signedRegion !== region)
    throw new S3Error(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region '${signedRegion}' is wrong; expecting '${region}'.`,
    );

  const amzDate = headerValue(request.headers, 'x-amz-date') ?? '';
  const at = parseAmzDate(amzDate);
  if (Number.isNaN(at) || !amzDate.startsWith(date))
    throw new S3Error(403, 'AccessDenied', 'x-amz-date is missing or does not match the credential date.');
  if (Math.abs(now - at) > MAX_SKEW_MS)
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');

  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (!payloadHash) throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256.');
  const signedHeaders = signedHeaderList.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256'])
    if (!signedHeaders.includes(required)) throw new S3Error(403, 'AccessDenied', `The header ${required} must be signed.`);

  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headerValue(request.headers, name) ?? ''}\n`).join('');
  const canonicalRequest = [
    request.method,
    request.rawPath || '/',
    canonicalQuery(request.rawQuery),
    canonicalHeaders,
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = signingKey(credential.secretAccessKey, date, region);
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');

  return { credential, payloadHash, chunkSigning: { signingKey: key, amzDate, scope, seedSignature: signature } };
}

const EMPTY_SHA256 = sha256Hex('');

/** The signature a chunk of a `STREAMING-AWS4-HMAC-SHA256-PAYLOAD` body must carry. */
export function chunkSignature(signing: VerifiedRequest['chunkSigning'], previous: string, chunkSha256: string): string {
  const stringToSign = ['AWS4-HMAC-SHA256-PAYLOAD', signing.amzDate, signing.scope, previous, EMPTY_SHA256, chunkSha256].join('\n');
  return createHmac('sha256', signing.signingKey).update(stringToSign).digest('hex');
}
