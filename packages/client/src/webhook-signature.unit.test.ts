import * as crypto from 'node:crypto';
import {
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WebhookVerificationError,
  computeSignature,
  sign,
  verify,
  verifyOrThrow,
  type VerifyResult,
  type WebhookDelivery,
} from './webhook-signature';
// Default import = the CommonJS module object itself (not an interop copy), so a spy is seen by webhook-signature.ts.
import cryptoModule from 'node:crypto';

const SECRET = 'whsec_test_secret_0123456789';
const T = 1_700_000_000;
const BODY = JSON.stringify({
  id: 'dlv_1',
  event: 'job.completed',
  createdAt: '2023-11-14T22:13:20.000Z',
  projectId: 'prj_1',
  data: { id: 'job_1', resultsCount: 3 },
});

/** Independent reference implementation (one HMAC over the concatenated bytes). */
function refHex(secret: string, t: number | string, body: string | Buffer): string {
  const bytes = Buffer.concat([Buffer.from(`${t}.`, 'utf8'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
  return crypto.createHmac('sha256', secret).update(bytes).digest('hex');
}

const at = (now: number, toleranceSeconds?: number) => ({ now, toleranceSeconds });
const fail = (reason: string): VerifyResult => ({ ok: false, reason }) as VerifyResult;

describe('constants and types', () => {
  it('exports lower-case header names as Node presents them', () => {
    expect(SIGNATURE_HEADER).toBe('x-service-signature');
    expect(EVENT_HEADER).toBe('x-service-event');
    expect(DELIVERY_HEADER).toBe('x-service-delivery');
    expect(WEBHOOK_ID_HEADER).toBe('x-service-webhook-id');
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  it('WebhookDelivery describes the body', () => {
    const d: WebhookDelivery<{ id: string; resultsCount: number }> = JSON.parse(BODY);
    expect(d.data.resultsCount).toBe(3);
    expect(Object.keys(d).sort()).toEqual(['createdAt', 'data', 'event', 'id', 'projectId']);
  });
});

describe('sign / computeSignature', () => {
  it('matches an independently computed HMAC (known answer)', () => {
    const expected = crypto.createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
    expect(computeSignature(SECRET, T, BODY)).toBe(expected);
    expect(sign(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it('fixed test vector', () => {
    // HMAC-SHA256(key "secret", "1700000000.{}"), computed with createHmac as the reference.
    const expected = crypto.createHmac('sha256', Buffer.from('secret')).update(Buffer.from('1700000000.{}')).digest('hex');
    // Literal cross-checked with: printf '%s' '1700000000.{}' | openssl dgst -sha256 -hmac secret
    expect(expected).toBe('b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163');
    expect(sign('secret', '{}', 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('hashes a Buffer as raw bytes and a string as utf-8', () => {
    const unicode = '{"name":"Café ☕ 日本語 🚀"}';
    expect(computeSignature(SECRET, T, unicode)).toBe(refHex(SECRET, T, Buffer.from(unicode, 'utf8')));
    expect(computeSignature(SECRET, T, Buffer.from(unicode, 'utf8'))).toBe(computeSignature(SECRET, T, unicode));
    // Non-utf-8 bytes are signed as-is.
    const binary = Buffer.from([0xff, 0x00, 0xfe, 0x80]);
    expect(computeSignature(SECRET, T, binary)).toBe(refHex(SECRET, T, binary));
    expect(computeSignature(SECRET, T, new Uint8Array(binary))).toBe(refHex(SECRET, T, binary));
  });

  it('keys the HMAC with the utf-8 secret', () => {
    const secret = 'sécret-ключ';
    const expected = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${T}.${BODY}`).digest('hex');
    expect(computeSignature(secret, T, BODY)).toBe(expected);
  });

  it('defaults the timestamp to now (unix seconds)', () => {
    const before = Math.floor(Date.now() / 1000);
    const header = sign(SECRET, BODY);
    const after = Math.floor(Date.now() / 1000);
    const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)![1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
    expect(verify(SECRET, BODY, header)).toEqual({ ok: true, timestamp: t });
  });

  it.each([0, -1, 1.5, NaN, Infinity, 1e15, '1700000000' as unknown as number])('rejects timestamp %p', (t) => {
    expect(() => sign(SECRET, BODY, t)).toThrow(TypeError);
  });

  it('rejects an empty or missing secret and a non-raw body', () => {
    expect(() => sign('', BODY, T)).toThrow(TypeError);
    expect(() => sign(undefined as unknown as string, BODY, T)).toThrow(TypeError);
    expect(() => sign(SECRET, { a: 1 } as unknown as string, T)).toThrow(/express\.raw/);
  });
});

describe('verify: round trip', () => {
  it('accepts a string body', () => {
    expect(verify(SECRET, BODY, sign(SECRET, BODY, T), at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('accepts a Buffer body signed as a string and vice versa', () => {
    const buf = Buffer.from(BODY, 'utf8');
    expect(verify(SECRET, buf, sign(SECRET, BODY, T), at(T))).toEqual({ ok: true, timestamp: T });
    expect(verify(SECRET, BODY, sign(SECRET, buf, T), at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('accepts a unicode body', () => {
    const body = JSON.stringify({ title: 'Ünïcödé — 商品 🎉', price: '€9,99' });
    expect(verify(SECRET, body, sign(SECRET, body, T), at(T)).ok).toBe(true);
    expect(verify(SECRET, Buffer.from(body), sign(SECRET, body, T), at(T)).ok).toBe(true);
  });

  it('accepts an empty body', () => {
    expect(verify(SECRET, '', sign(SECRET, '', T), at(T)).ok).toBe(true);
  });

  it('accepts a header array with exactly one element', () => {
    expect(verify(SECRET, BODY, [sign(SECRET, BODY, T)], at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('tolerates whitespace around parts and upper-case hex', () => {
    const v1 = computeSignature(SECRET, T, BODY);
    expect(verify(SECRET, BODY, ` t = ${T} , v1 = ${v1.toUpperCase()} `, at(T)).ok).toBe(true);
  });

  it('accepts v1 before t', () => {
    expect(verify(SECRET, BODY, `v1=${computeSignature(SECRET, T, BODY)},t=${T}`, at(T)).ok).toBe(true);
  });

  it('works with the real clock by default', () => {
    expect(verify(SECRET, BODY, sign(SECRET, BODY)).ok).toBe(true);
  });
});

describe('verify: tampering and wrong secret', () => {
  const header = sign(SECRET, BODY, T);

  it('rejects a body with one byte changed', () => {
    const buf = Buffer.from(BODY);
    buf[10]! ^= 0x01;
    expect(verify(SECRET, buf, header, at(T))).toEqual(fail('signature_mismatch'));
    expect(verify(SECRET, BODY.replace('"resultsCount":3', '"resultsCount":4'), header, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('rejects an appended byte and a trailing newline', () => {
    expect(verify(SECRET, BODY + ' ', header, at(T))).toEqual(fail('signature_mismatch'));
    expect(verify(SECRET, BODY + '\n', header, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('rejects re-serialized JSON (different whitespace)', () => {
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verify(SECRET, pretty, header, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('rejects a tampered timestamp (even within tolerance)', () => {
    const v1 = computeSignature(SECRET, T, BODY);
    expect(verify(SECRET, BODY, `t=${T + 1},v1=${v1}`, at(T))).toEqual(fail('signature_mismatch'));
    expect(verify(SECRET, BODY, `t=${T - 1},v1=${v1}`, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('rejects a tampered signature (one hex digit)', () => {
    const v1 = computeSignature(SECRET, T, BODY);
    const flipped = (v1[0] === '0' ? '1' : '0') + v1.slice(1);
    expect(verify(SECRET, BODY, `t=${T},v1=${flipped}`, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('rejects a wrong secret', () => {
    expect(verify('other-secret', BODY, header, at(T))).toEqual(fail('signature_mismatch'));
    expect(verify(SECRET + ' ', BODY, header, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('a wrong signature with an old timestamp is signature_mismatch, not a timestamp refusal', () => {
    const old = sign('other-secret', BODY, T - 10_000);
    expect(verify(SECRET, BODY, old, at(T))).toEqual(fail('signature_mismatch'));
  });
});

describe('verify: timestamp tolerance', () => {
  const cases: Array<[string, number, number | undefined, boolean]> = [
    ['same second', 0, undefined, true],
    ['299 s old', 299, undefined, true],
    ['exactly 300 s old', 300, undefined, true],
    ['exactly 300 s in the future', -300, undefined, true],
    ['301 s old', 301, undefined, false],
    ['301 s in the future', -301, undefined, false],
    ['custom 60: 60 s old', 60, 60, true],
    ['custom 60: 61 s old', 61, 60, false],
    ['custom 60: 61 s future', -61, 60, false],
    ['custom 3600: 3600 s old', 3600, 3600, true],
    ['custom 3600: 3601 s old', 3601, 3600, false],
    ['tolerance 0: same second', 0, 0, true],
    ['tolerance 0: 1 s old', 1, 0, false],
    ['tolerance 0: 1 s future', -1, 0, false],
  ];

  it.each(cases)('%s', (_name, age, tolerance, ok) => {
    const header = sign(SECRET, BODY, T);
    const result = verify(SECRET, BODY, header, at(T + age, tolerance));
    expect(result).toEqual(ok ? { ok: true, timestamp: T } : fail('timestamp_out_of_tolerance'));
  });

  it('compares against a fractional now without rounding', () => {
    const header = sign(SECRET, BODY, T);
    expect(verify(SECRET, BODY, header, at(T + 300.5)).ok).toBe(false);
    expect(verify(SECRET, BODY, header, at(T + 299.5)).ok).toBe(true);
  });

  it.each([-1, -0.001, NaN, Infinity, -Infinity])('tolerance %p is a TypeError', (tolerance) => {
    expect(() => verify(SECRET, BODY, sign(SECRET, BODY, T), at(T, tolerance))).toThrow(TypeError);
  });

  it('a non-finite now is a TypeError', () => {
    expect(() => verify(SECRET, BODY, sign(SECRET, BODY, T), { now: NaN })).toThrow(TypeError);
  });
});

describe('verify: malformed headers', () => {
  const v1 = computeSignature(SECRET, T, BODY);

  it.each([undefined, null])('%p is missing_header', (header) => {
    expect(verify(SECRET, BODY, header, at(T))).toEqual(fail('missing_header'));
  });

  const malformed: Array<[string, string | string[]]> = [
    ['empty string', ''],
    ['whitespace', '   '],
    ['garbage', 'garbage'],
    ['missing t', `v1=${v1}`],
    ['missing v1', `t=${T}`],
    ['only unknown scheme', `t=${T},v0=${v1}`],
    ['empty v1', `t=${T},v1=`],
    ['v1 not hex', `t=${T},v1=${'z'.repeat(64)}`],
    ['v1 not hex (one char)', `t=${T},v1=${v1.slice(0, 63)}g`],
    ['v1 too short', `t=${T},v1=${v1.slice(0, 62)}`],
    ['v1 too long', `t=${T},v1=${v1}00`],
    ['v1 odd length', `t=${T},v1=${v1.slice(0, 63)}`],
    ['v1 base64', `t=${T},v1=${Buffer.from(v1, 'hex').toString('base64')}`],
    ['t empty', `t=,v1=${v1}`],
    ['t not an integer', `t=abc,v1=${v1}`],
    ['t negative', `t=-${T},v1=${v1}`],
    ['t with plus sign', `t=+${T},v1=${v1}`],
    ['t float', `t=${T}.5,v1=${v1}`],
    ['t float .0', `t=${T}.0,v1=${v1}`],
    ['t exponent', `t=1.7e9,v1=${v1}`],
    ['t hex', `t=0x6553f100,v1=${v1}`],
    ['t zero', `t=0,v1=${v1}`],
    ['t leading zero', `t=0${T},v1=${v1}`],
    ['t more than 15 digits', `t=1234567890123456,v1=${v1}`],
    ['t with inner space', `t=17 00000000,v1=${v1}`],
    ['duplicate t (same value)', `t=${T},t=${T},v1=${v1}`],
    ['duplicate t (different value)', `t=${T},v1=${v1},t=${T + 1}`],
    ['segment without =', `t=${T},v1=${v1},junk`],
    ['empty segment', `t=${T},,v1=${v1}`],
    ['trailing comma', `t=${T},v1=${v1},`],
    ['empty key', `t=${T},=x,v1=${v1}`],
    ['upper-case key T', `T=${T},v1=${v1}`],
    ['semicolon separator', `t=${T};v1=${v1}`],
    ['two headers joined by Node', `t=${T},v1=${v1}, t=${T},v1=${v1}`],
    ['header array with two values', [`t=${T},v1=${v1}`, `t=${T},v1=${v1}`]],
    ['empty header array', []],
  ];

  it.each(malformed)('%s', (_name, header) => {
    expect(verify(SECRET, BODY, header, at(T))).toEqual(fail('malformed_header'));
  });

  it('a non-string array element is malformed', () => {
    expect(verify(SECRET, BODY, [123 as unknown as string], at(T))).toEqual(fail('malformed_header'));
  });

  it('splits only on the first "=" of a part', () => {
    // "v1==<hex>" has value "=<hex>", which is not 64 hex chars.
    expect(verify(SECRET, BODY, `t=${T},v1==${v1}`, at(T))).toEqual(fail('malformed_header'));
    // An unknown scheme whose value contains "=" (e.g. base64 padding) is ignored.
    expect(verify(SECRET, BODY, `t=${T},v2=abc==,v1=${v1}`, at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('a malformed header with a stale timestamp is still malformed', () => {
    expect(verify(SECRET, BODY, `t=${T - 10_000}`, at(T))).toEqual(fail('malformed_header'));
  });
});

describe('verify: several v1 values and unknown schemes', () => {
  const right = computeSignature(SECRET, T, BODY);
  const wrong1 = computeSignature('old-secret', T, BODY);
  const wrong2 = computeSignature('older-secret', T, BODY);

  it('accepts when the second v1 is right (secret rotation)', () => {
    expect(verify(SECRET, BODY, `t=${T},v1=${wrong1},v1=${right}`, at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('accepts when the first v1 is right', () => {
    expect(verify(SECRET, BODY, `t=${T},v1=${right},v1=${wrong1}`, at(T))).toEqual({ ok: true, timestamp: T });
  });

  it('rejects when none is right', () => {
    expect(verify(SECRET, BODY, `t=${T},v1=${wrong1},v1=${wrong2}`, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('a receiver holding either secret verifies a header signed with both', () => {
    const header = `t=${T},v1=${computeSignature('new', T, BODY)},v1=${computeSignature('old', T, BODY)}`;
    expect(verify('new', BODY, header, at(T)).ok).toBe(true);
    expect(verify('old', BODY, header, at(T)).ok).toBe(true);
    expect(verify('neither', BODY, header, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('sign() with the new and the old secret gives two v1 values; either secret verifies, another does not', () => {
    const header = sign(['whsec_new', 'whsec_old'], BODY, T);
    expect(header).toBe(`t=${T},v1=${computeSignature('whsec_new', T, BODY)},v1=${computeSignature('whsec_old', T, BODY)}`);
    expect(verify('whsec_new', BODY, header, at(T))).toEqual({ ok: true, timestamp: T });
    expect(verify('whsec_old', BODY, header, at(T))).toEqual({ ok: true, timestamp: T });
    expect(verify('whsec_wrong', BODY, header, at(T))).toEqual(fail('signature_mismatch'));
    expect(sign(['whsec_new'], BODY, T)).toBe(sign('whsec_new', BODY, T));
    expect(() => sign([], BODY, T)).toThrow(TypeError);
  });

  it('skips an ill-formed v1 when a well-formed one is present', () => {
    expect(verify(SECRET, BODY, `t=${T},v1=nothex,v1=${right}`, at(T)).ok).toBe(true);
    expect(verify(SECRET, BODY, `t=${T},v1=${right.slice(2)},v1=${wrong1}`, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('ignores unknown schemes', () => {
    expect(verify(SECRET, BODY, `t=${T},v0=deadbeef,v1=${right}`, at(T))).toEqual({ ok: true, timestamp: T });
    expect(verify(SECRET, BODY, `v0=${wrong1},t=${T},v2=x,v1=${right},foo=bar`, at(T)).ok).toBe(true);
    // A correct signature under an unknown scheme is not accepted.
    expect(verify(SECRET, BODY, `t=${T},v0=${right},v1=${wrong1}`, at(T))).toEqual(fail('signature_mismatch'));
  });

  it('compares every candidate with timingSafeEqual on equal-length buffers', () => {
    const spy = jest.spyOn(cryptoModule, 'timingSafeEqual');
    try {
      // Right one first: the others must still be compared (no early exit).
      verify(SECRET, BODY, `t=${T},v1=${right},v1=${wrong1},v1=${wrong2},v1=short`, at(T));
      expect(spy).toHaveBeenCalledTimes(3);
      for (const [a, b] of spy.mock.calls) {
        expect((a as Buffer).length).toBe(32);
        expect((b as Buffer).length).toBe(32);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('verifyOrThrow', () => {
  it('returns the timestamp when valid', () => {
    expect(verifyOrThrow(SECRET, BODY, sign(SECRET, BODY, T), at(T))).toBe(T);
  });

  it.each([
    ['missing_header', undefined, T],
    ['malformed_header', 'garbage', T],
    ['signature_mismatch', sign('wrong', BODY, T), T],
    ['timestamp_out_of_tolerance', sign(SECRET, BODY, T), T + 301],
  ] as const)('throws WebhookVerificationError with reason %s', (reason, header, now) => {
    let caught: unknown;
    try {
      verifyOrThrow(SECRET, BODY, header, { now });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect(caught).toBeInstanceOf(Error);
    const e = caught as WebhookVerificationError;
    expect(e.reason).toBe(reason);
    expect(e.name).toBe('WebhookVerificationError');
    expect(e.message).toContain(reason);
  });

  it('still throws TypeError for programmer errors', () => {
    expect(() => verifyOrThrow(SECRET, BODY, sign(SECRET, BODY, T), at(T, -5))).toThrow(TypeError);
    expect(() => verifyOrThrow(SECRET, {} as unknown as string, sign(SECRET, BODY, T), at(T))).toThrow(TypeError);
    expect(() => verifyOrThrow('', BODY, sign(SECRET, BODY, T), at(T))).toThrow(TypeError);
  });
});
