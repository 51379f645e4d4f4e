import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promises as fs, mkdtempSync } from 'node:fs';
import { promises as dnsPromises } from 'node:dns';
import { verify } from '@crawl/client';
import { closeDeliveryAgents, deliverWebhook, isPrivateAddress, type DeliveryRequest, UNUSABLE_HOST_REASON } from './index';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

interface Receiver {
  url: string;
  port: number;
  received: Received[];
  connections: number;
  close(): Promise<void>;
}

const servers: Receiver[] = [];

/** A real HTTP receiver on 127.0.0.1 (or `host`) that records raw request bytes. */
async function startReceiver(handler: Handler = (_q, res) => res.end('ok'), host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as net.AddressInfo).port;
  receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${receiver.port}/hooks/crawl`;
  servers.push(receiver);
  return receiver;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(() => {
  closeDeliveryAgents();
});

const SECRET = 'whsec_test_5f1d3c';
// Unusual but valid JSON: whitespace, key order, unicode (literal and escaped), big numbers.
const BODY =
  '{"id":"dlv_01","event":"job.completed", "createdAt":"2024-05-01T12:00:00.000Z",\n' +
  '  "projectId":"prj_1","data":{"z":1,"a":"Größe 🚀 \\u00e9","n":12345678901234567890,"f":1.50}}';

function request(url: string, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    url,
    secret: SECRET,
    body: BODY,
    event: 'job.completed',
    deliveryId: 'dlv_01',
    webhookId: 'wh_42',
    allowPrivate: true,
    ...overrides,
  };
}

describe('deliverWebhook', () => {
  it('sends a signed POST with the exact body bytes and the service headers', async () => {
    const receiver = await startReceiver((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await deliverWebhook(request(receiver.url, { timestamp }));

    expect(result).toEqual({
      success: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      error: null,
      responseBodySnippet: 'thanks',
    });
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hooks/crawl');
    expect(got.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(BODY, 'utf8')));
    expect(got.headers['user-agent']).toBe('CrawlDataService-Webhooks/1.0');
    expect(got.headers['x-service-event']).toBe('job.completed');
    expect(got.headers['x-service-delivery']).toBe('dlv_01');
    expect(got.headers['x-service-webhook-id']).toBe('wh_42');
    expect(got.headers['x-service-signature']).toMatch(new RegExp(`^t=${timestamp},v1=[0-9a-f]{64}$`));
    expect(got.headers['accept-encoding']).toBeUndefined();
    expect(verify(SECRET, got.body, got.headers['x-service-signature'])).toEqual({ ok: true, timestamp });
    expect(verify('another-secret', got.body, got.headers['x-service-signature'])).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('signs with the current time by default', async () => {
    const receiver = await startReceiver();
    const before = Math.floor(Date.now() / 1000);
    expect((await deliverWebhook(request(receiver.url))).success).toBe(true);
    const header = receiver.received[0]!.headers['x-service-signature'];
    const result = verify(SECRET, receiver.received[0]!.body, header);
    expect(result.ok).toBe(true);
    expect(result.ok && result.timestamp).toBeGreaterThanOrEqual(before);
  });

  it('treats any 2xx as success (204 without a body)', async () => {
    const receiver = await startReceiver((_q, res) => {
      res.writeHead(204);
      res.end();
    });
    const result = await deliverWebhook(request(receiver.url));
    expect(result).toMatchObject({ success: true, statusCode: 204, error: null, responseBodySnippet: '' });
  });

  it('reports HTTP 500 as a failure with the status code and a body snippet', async () => {
    const receiver = await startReceiver((_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom: database down');
    });
    const result = await deliverWebhook(request(receiver.url));
    expect(result).toEqual({
      success: false,
      statusCode: 500,
      durationMs: expect.any(Number),
      error: 'HTTP 500',
      responseBodySnippet: 'boom: database down',
    });
  });

  it('reports 4xx as a failure', async () => {
    const receiver = await startReceiver((_q, res) => {
      res.writeHead(410);
      res.end();
    });
    expect(await deliverWebhook(request(receiver.url))).toMatchObject({ success: false, statusCode: 410, error: 'HTTP 410' });
  });

  it('times out a receiver that never answers (statusCode null)', async () => {
    const receiver = await startReceiver(() => {
      /* never respond */
    });
    const started = Date.now();
    const result = await deliverWebhook(request(receiver.url, { timeoutMs: 300 }));
    const took = Date.now() - started;
    expect(result).toEqual({
      success: false,
      statusCode: null,
      durationMs: expect.any(Number),
      error: 'timeout after 300 ms',
      responseBodySnippet: null,
    });
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3000);
    expect(receiver.received).toHaveLength(1); // the request did arrive
  });

  it('reports a refused connection (closed port)', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    servers.splice(servers.indexOf(receiver), 1);
    const result = await deliverWebhook(request(url));
    expect(result).toMatchObject({ success: false, statusCode: null, error: 'ECONNREFUSED', responseBodySnippet: null });
  });

  it('does not follow redirects', async () => {
    const target = await startReceiver();
    const redirecting = await startReceiver((_q, res) => {
      res.writeHead(302, { location: target.url });
      res.end();
    });
    const result = await deliverWebhook(request(redirecting.url));
    expect(result).toMatchObject({ success: false, statusCode: 302, error: 'redirect not followed (HTTP 302)' });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('blocks a private literal-IP receiver when allowPrivate is false; the receiver gets nothing', async () => {
    const receiver = await startReceiver();
    const result = await deliverWebhook(request(receiver.url, { allowPrivate: false }));
    expect(result).toEqual({
      success: false,
      statusCode: null,
      durationMs: expect.any(Number),
      error:
        'blocked: is a private address (127.0.0.1): private and loopback URLs are refused unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true',
      responseBodySnippet: null,
    });
    // Numeric spellings of 127.0.0.1 and internal names are blocked too.
    for (const url of [
      `http://2130706433:${receiver.port}/`,
      `http://0x7f.1:${receiver.port}/`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
    ]) {
      const r = await deliverWebhook(request(url, { allowPrivate: false }));
      expect({ url, error: r.error }).toEqual({ url, error: expect.stringMatching(/^blocked: /) });
    }
    expect(receiver.received).toHaveLength(0);
    expect(receiver.connections).toBe(0);
  });

  it('blocks at connection time a host name that resolves to a private address (custom lookup)', async () => {
    // A name not on the internal-name list, resolved by the system resolver (/etc/hosts): the
    // only thing standing between it and the receiver is the lookup guard used by the socket.
    const name = os.hostname();
    const addresses = await dnsPromises.lookup(name, { all: true }).catch(() => []);
    const address = addresses.find((a) => isPrivateAddress(a.address));
    if (address === undefined || /\.(localhost|internal|local|localdomain|home\.arpa)$/i.test(name)) {
      console.warn(`skipped: host name ${name} does not resolve to a private address`);
      return;
    }
    const receiver = await startReceiver(undefined, address.address);
    const url = `http://${name}:${receiver.port}/hook`;

    const blocked = await deliverWebhook(request(url, { allowPrivate: false }));
    expect(blocked).toMatchObject({ success: false, statusCode: null, responseBodySnippet: null });
    expect(blocked.error).toBe(`blocked: ${UNUSABLE_HOST_REASON}`);
    // A name that does not resolve reads the same: the log tells no internal name from a missing one.
    const missing = await deliverWebhook(request('http://does-not-exist.invalid/hook', { allowPrivate: false }));
    expect(missing).toEqual({ ...blocked, durationMs: missing.durationMs });
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toHaveLength(0);

    // Same URL with allowPrivate goes through (proves the name itself works).
    const allowed = await deliverWebhook(request(url, { allowPrivate: true }));
    expect(allowed).toMatchObject({ success: true, statusCode: 200 });
    expect(receiver.received).toHaveLength(1);

    // A guarded delivery after that must not reuse the pooled socket of the allowPrivate one.
    const again = await deliverWebhook(request(url, { allowPrivate: false }));
    expect(again.error).toMatch(/^blocked: /);
    expect(receiver.received).toHaveLength(1);
  });

  it('never connects to a UNIX socket through a got `unix:` URL, even with allowPrivate', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'whd-'));
    const socketPath = path.join(dir, 'r.sock');
    let hits = 0;
    const server = http.createServer((_q, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const result = await deliverWebhook(request(`http://unix:${socketPath}:/hook`, { allowPrivate: true }));
      expect(result).toMatchObject({ success: false, statusCode: null, error: 'blocked: UNIX socket URLs are not allowed' });
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects non-http schemes and URLs with credentials without sending', async () => {
    const receiver = await startReceiver();
    const withCreds = receiver.url.replace('http://', 'http://user:pw@');
    expect((await deliverWebhook(request(withCreds))).error).toBe('blocked: credentials in the URL are not allowed');
    expect((await deliverWebhook(request('ftp://127.0.0.1/x'))).error).toBe('blocked: only http and https URLs are allowed');
    expect(receiver.connections).toBe(0);
  });

  it('never throws on bad input', async () => {
    const receiver = await startReceiver();
    const emptySecret = await deliverWebhook(request(receiver.url, { secret: '' }));
    expect(emptySecret).toMatchObject({ success: false, statusCode: null });
    expect(emptySecret.error).toMatch(/^invalid request: /);
    const badHeader = await deliverWebhook(request(receiver.url, { deliveryId: 'a\r\nx-injected: 1' }));
    expect(badHeader).toMatchObject({ success: false, statusCode: null });
    const badUrl = await deliverWebhook(request('::not a url::'));
    expect(badUrl).toMatchObject({ success: false, statusCode: null, error: 'blocked: not a valid URL' });
    expect(receiver.received).toHaveLength(0);
  });

  it('sends the same bytes with different signatures for different timestamps', async () => {
    const receiver = await startReceiver();
    await deliverWebhook(request(receiver.url, { timestamp: 1_700_000_000 }));
    await deliverWebhook(request(receiver.url, { timestamp: 1_700_000_060 }));
    const [first, second] = receiver.received as [Received, Received];
    expect(first.body.equals(second.body)).toBe(true);
    expect(first.headers['x-service-delivery']).toBe(second.headers['x-service-delivery']);
    expect(first.headers['x-service-signature']).not.toBe(second.headers['x-service-signature']);
    expect(verify(SECRET, first.body, first.headers['x-service-signature'], { now: 1_700_000_000 })).toEqual({
      ok: true,
      timestamp: 1_700_000_000,
    });
    expect(verify(SECRET, second.body, second.headers['x-service-signature'], { now: 1_700_000_060 })).toEqual({
      ok: true,
      timestamp: 1_700_000_060,
    });
  });

  it('reuses keep-alive connections for sequential deliveries', async () => {
    const receiver = await startReceiver((_q, res) => res.end('{"received":true}'));
    for (let i = 0; i < 50; i += 1) {
      const result = await deliverWebhook(request(receiver.url, { deliveryId: `dlv_${i}` }));
      expect(result.success).toBe(true);
    }
    expect(receiver.received).toHaveLength(50);
    expect(receiver.connections).toBeLessThanOrEqual(2);
  });

  it('keeps a 1 KiB snippet of a large response, never half a character, and does not buffer it', async () => {
    const big = 'é'.repeat(600_000); // ~1.2 MB
    const receiver = await startReceiver((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(big);
    });
    const result = await deliverWebhook(request(receiver.url));
    expect(result).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(result.responseBodySnippet).toBe('é'.repeat(512)); // 2 bytes each: exactly 1 KiB
    // The connection of the oversized body was dropped; the next delivery still works.
    const next = await deliverWebhook(request(receiver.url));
    expect(next).toMatchObject({ success: true, statusCode: 200 });
  });

  it('drains a small response body so the socket is reused', async () => {
    const receiver = await startReceiver((_q, res) => res.end('x'.repeat(20_000)));
    for (let i = 0; i < 5; i += 1) {
      const result = await deliverWebhook(request(receiver.url));
      expect(result.responseBodySnippet).toBe('x'.repeat(1_024));
    }
    expect(receiver.connections).toBe(1);
  });

  it('cuts the snippet before a character split by the 1 KiB limit, and replaces NUL (Postgres text has none)', async () => {
    const receiver = await startReceiver((_q, res) => res.end(`\u0000${'€'.repeat(400)}`)); // 1 + 3 x 400 bytes
    const result = await deliverWebhook(request(receiver.url));
    expect(result.responseBodySnippet).toBe(`\ufffd${'€'.repeat(341)}`); // 1 + 1023 bytes: the 342nd euro is cut
  });

  it('redacts the signing secrets should the receiver echo them', async () => {
    const receiver = await startReceiver((_q, res) => res.end('bad signature for whsec_current and whsec_previous'));
    const result = await deliverWebhook(request(receiver.url, { secret: 'whsec_current', previousSecret: 'whsec_previous' }));
    expect(result.responseBodySnippet).toBe('bad signature for [redacted] and [redacted]');
  });

  it('signs with the previous secret too during a rotation: either secret verifies', async () => {
    const receiver = await startReceiver((_q, res) => res.end());
    await deliverWebhook(request(receiver.url, { secret: 'whsec_new', previousSecret: 'whsec_old' }));
    const [got] = receiver.received;
    const header = String(got!.headers['x-service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verify('whsec_new', got!.body, header).ok).toBe(true);
    expect(verify('whsec_old', got!.body, header).ok).toBe(true);
    expect(verify('whsec_other', got!.body, header).ok).toBe(false);
  });
});
