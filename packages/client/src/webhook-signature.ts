/**
 * Sign and verify crawl-data-service webhook deliveries.
 *
 * Header: `X-Service-Signature: t=<unix-seconds>,v1=<hex hmac-sha256>`
 * Signed message: `<t>.<raw body>`, HMAC-SHA256 keyed with the webhook secret (utf-8).
 *
 * IMPORTANT: verify the RAW request body exactly as received. A body that was parsed as JSON
 * and serialised again (different whitespace, key order, number or unicode escaping) will NOT
 * verify. In express use `express.raw({ type: 'application/json' })`, not `express.json()`.
 *
 * Self-contained on purpose: it imports only `node:crypto` and nothing else of @crawl/client, so a
 * receiver that does not want the SDK can copy this one file as it is. Keep it that way.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header names as Node presents them in `req.headers` (lower-case). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
/** Stable delivery id, identical across retries; equals the body's `id`. Deduplicate on it. */
export const DELIVERY_HEADER = 'x-service-delivery';
export const WEBHOOK_ID_HEADER = 'x-service-webhook-id';

/** Default replay window: five minutes either side of the receiver's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Event names the service sends. A copy: the source is EVENT_TYPES in
 * @crawl/core (webhook-events.ts), which @crawl/client cannot import because it has no
 * dependencies; webhook-event-names.unit.test.ts fails when the two differ. The body's `event` stays a
 * plain string, so a receiver built today still parses an event added later.
 */
export const WEBHOOK_EVENT_NAMES = ['job.completed', 'job.failed', 'schedule.triggered', 'product.changed', 'product.alert'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/** JSON body of a delivery. Parse it only AFTER verifying the raw bytes. */
export interface WebhookDelivery<T = Record<string, unknown>> {
  /** Delivery id; equals the `X-Service-Delivery` header and is identical across retries. */
  id: string;
  /** Event name, e.g. `job.completed`. */
  event: string;
  /** ISO 8601 timestamp. */
  createdAt: string;
  projectId: string;
  data: T;
  /** `true` on a test delivery (`POST …/webhooks/test`), absent on live events. */
  test?: true;
}

/** Raw body as received: a Buffer/Uint8Array is hashed as bytes, a string as utf-8. */
export type WebhookBody = string | Buffer | Uint8Array;

export type VerifyFailureReason = 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailureReason };

export interface VerifyOptions {
  /** Allowed |now - t| in seconds; default 300. 0 = same second only. Negative/NaN/Infinity: TypeError. */
  toleranceSeconds?: number;
  /** Current time in unix seconds (for tests); default `Math.floor(Date.now() / 1000)`. */
  now?: number;
}

/** Thrown by {@link verifyOrThrow} for a refused delivery; `reason` says why. */
export class WebhookVerificationError extends Error {
  readonly reason: VerifyFailureReason;
  constructor(reason: VerifyFailureReason) {
    super(`Webhook signature verification failed: ${reason}`);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

// Canonical decimal, no sign, no leading zero, at most 15 digits (< 2^53, exact as a number).
const TIMESTAMP_RE = /^[1-9][0-9]{0,14}$/;
const V1_RE = /^[0-9a-fA-F]{64}$/;
const SIGNATURE_BYTES = 32;

function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('webhook secret must be a non-empty string');
  }
}

function assertBody(body: unknown): asserts body is WebhookBody {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError(
      `webhook body must be the raw request body as a string or Buffer, got ${body === null ? 'null' : typeof body}` +
        ' (a parsed JSON object cannot be verified: use express.raw({ type: "application/json" }), not express.json())',
    );
  }
}

function assertTimestamp(timestamp: unknown): asserts timestamp is number {
  if (typeof timestamp !== 'number' || !TIMESTAMP_RE.test(String(timestamp))) {
    throw new TypeError('timestamp must be a positive integer number of unix seconds (at most 15 digits)');
  }
}

function hmac(secret: string, timestamp: string, body: WebhookBody): Buffer {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestamp}.`, 'utf8');
  if (typeof body === 'string') mac.update(body, 'utf8');
  else mac.update(body);
  return mac.digest();
}

/** Hex HMAC-SHA256 of `<timestamp>.<body>` keyed with `secret` (the `v1` value). */
export function computeSignature(secret: string, timestamp: number, body: WebhookBody): string {
  assertSecret(secret);
  assertTimestamp(timestamp);
  assertBody(body);
  return hmac(secret, String(timestamp), body).toString('hex');
}

/**
 * Full `X-Service-Signature` header value `t=<timestamp>,v1=<hex>`; timestamp defaults to now.
 * Several secrets (a rotation in progress: new first, then old) give one `v1=` per secret,
 * `t=<timestamp>,v1=<new>,v1=<old>`; a receiver holding either secret verifies it.
 */
export function sign(secret: string | readonly string[], body: WebhookBody, timestamp: number = Math.floor(Date.now() / 1000)): string {
  const secrets: readonly string[] = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is needed to sign');
  return `t=${timestamp},${secrets.map((s) => `v1=${computeSignature(s, timestamp, body)}`).join(',')}`;
}

interface ParsedHeader {
  /** The timestamp exactly as it appears in the header (this is what was signed). */
  t: string;
  /** Decoded v1 candidates that are well-formed (64 hex chars). */
  v1: Buffer[];
}

/** Returns null when the header is malformed. */
function parseHeader(value: string): ParsedHeader | null {
  let t: string | undefined;
  const v1: Buffer[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null; // segment without key=value (also empty segments / empty header)
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === '') return null;
    if (key === 't') {
      if (t !== undefined) return null; // duplicate t
      if (!TIMESTAMP_RE.test(val)) return null;
      t = val;
    } else if (key === 'v1') {
      // Ill-formed v1 candidates can never match; they are skipped (a mismatch), and the header
      // is malformed only if no well-formed v1 remains.
      if (V1_RE.test(val)) v1.push(Buffer.from(val, 'hex'));
    }
    // Unknown schemes (v0=, v2=, ...) are ignored.
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, v1 };
}

function resolveOptions(options: VerifyOptions | undefined): { tolerance: number; now: number } {
  const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }
  const now = options?.now ?? Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new TypeError('now must be a finite number of unix seconds');
  }
  return { tolerance, now };
}

/**
 * Verify a delivery. Expected refusals are returned as `{ ok: false, reason }`; only programmer
 * errors (empty secret, non-raw body, bad options) throw a TypeError.
 *
 * Order of checks: header present -> header well-formed -> signature -> timestamp window.
 * `timestamp_out_of_tolerance` is reported only for a signature that is otherwise valid, so a
 * forged or wrong signature is always `signature_mismatch` whatever its timestamp: an unauthenticated
 * sender learns nothing about the receiver's clock or window from the reason.
 *
 * Several `v1=` entries are accepted (secret rotation): the delivery is valid if ANY matches.
 * Every candidate is compared with `timingSafeEqual`, without early exit.
 */
export function verify(
  secret: string,
  rawBody: WebhookBody,
  header: string | string[] | undefined | null,
  options?: VerifyOptions,
): VerifyResult {
  assertSecret(secret);
  assertBody(rawBody);
  const { tolerance, now } = resolveOptions(options);

  if (header === undefined || header === null) return { ok: false, reason: 'missing_header' };
  let value: unknown = header;
  if (Array.isArray(header)) {
    if (header.length !== 1) return { ok: false, reason: 'malformed_header' };
    value = header[0];
  }
  if (typeof value !== 'string') return { ok: false, reason: 'malformed_header' };

  const parsed = parseHeader(value);
  if (parsed === null) return { ok: false, reason: 'malformed_header' };

  const expected = hmac(secret, parsed.t, rawBody);
  let matched = false;
  for (const candidate of parsed.v1) {
    // Candidates are always 32 bytes (validated as 64 hex chars); never compare unequal lengths.
    if (candidate.length !== SIGNATURE_BYTES) continue;
    // Non-short-circuit OR: every candidate is compared.
    matched = timingSafeEqual(candidate, expected) || matched;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  const timestamp = Number(parsed.t);
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  return { ok: true, timestamp };
}

/** Like {@link verify} but throws {@link WebhookVerificationError} on refusal; returns the timestamp. */
export function verifyOrThrow(
  secret: string,
  rawBody: WebhookBody,
  header: string | string[] | undefined | null,
  options?: VerifyOptions,
): number {
  const result = verify(secret, rawBody, header, options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  return result.timestamp;
}
