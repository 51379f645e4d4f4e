/**
 * Forward-proxy exits and the anti-bot rules over real sockets. Requests are crafted the way
 * hpagent sends them: absolute-form for HttpProxyAgent, CONNECT then origin-form inside the
 * tunnel for HttpsProxyAgent (e2e/src/simulator-realism.test.ts runs hpagent itself).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { startSimulator, type ExitStats, type Simulator } from './index';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function collect(req: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What HttpProxyAgent sends for an http target: the full URL as request target, to the proxy. */
function viaAbsolute(exitUrl: string, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const proxy = new URL(exitUrl);
  return collect(
    http.request({
      host: proxy.hostname,
      port: proxy.port,
      path: target,
      agent: false,
      headers: { host: new URL(target).host, ...headers },
    }),
  );
}

/** CONNECT `authority` through the exit: the status and, on 200, the tunnel socket. */
function connect(exitUrl: string, authority: string): Promise<{ status: number; socket: Socket }> {
  const proxy = new URL(exitUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('error', reject);
    req.end();
  });
}

/** One origin-form GET inside an established tunnel. */
function getInTunnel(socket: Socket, host: string, target: string): Promise<Answer> {
  return collect(http.request({ createConnection: () => socket, path: target, headers: { host } }));
}

const CAPTCHA = /Robot Check/;

describe('exits', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: null, exits: 3 });
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.resetLog();
    sim.resetExits();
    sim.setAntiBot(null);
  });

  it('opens one proxy port per exit and serves absolute-form requests as that exit', async () => {
    expect(sim.exitUrls).toHaveLength(3);
    expect(new Set(sim.exitUrls.map((u) => new URL(u).port)).size).toBe(3);
    const res = await viaAbsolute(sim.exitUrls[2]!, `${sim.url}/dp/B0EXIT0002?th=1`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('value="B0EXIT0002"');
    await fetch(`${sim.url}/dp/B0DIRECT01`);
    expect(sim.requests().map((e) => [e.exit, e.path])).toEqual([
      [2, '/dp/B0EXIT0002?th=1'],
      ['direct', '/dp/B0DIRECT01'],
    ]);
    // `localhost` names the simulator too.
    expect((await viaAbsolute(sim.exitUrls[0]!, `http://localhost:${sim.port}/s?k=tv`)).status).toBe(200);
  });

  it('serves CONNECT tunnels itself, knowing the exit, with keep-alive inside the tunnel', async () => {
    const tunnel = await connect(sim.exitUrls[1]!, `127.0.0.1:${sim.port}`);
    expect(tunnel.status).toBe(200);
    const host = `127.0.0.1:${sim.port}`;
    const first = await getInTunnel(tunnel.socket, host, '/dp/B0TUNNEL01');
    expect(first.status).toBe(200);
    expect(first.body).toContain('value="B0TUNNEL01"');
    tunnel.socket.destroy();
    expect(sim.requests().map((e) => [e.exit, e.path])).toEqual([[1, '/dp/B0TUNNEL01']]);
    const stats = (await (await fetch(`${sim.url}/__sim/exits`)).json()) as ExitStats[];
    expect(stats.map((s) => [s.exit, s.requests])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(stats[1]).toMatchObject({ port: Number(new URL(sim.exitUrls[1]!).port), url: sim.exitUrls[1], blocked: 0, blockedUntil: null });
  });

  it('refuses every other host or port with 403, in both forms, and logs nothing', async () => {
    const other = http.createServer((_, res) => res.end('canary'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherPort = (other.address() as { port: number }).port;
    try {
      for (const target of [
        `http://127.0.0.1:${otherPort}/`,
        'http://example.com/dp/B0FOREIGN1',
        `https://127.0.0.1:${sim.port}/dp/B0FOREIGN1`,
      ]) {
        expect((await viaAbsolute(sim.exitUrls[0]!, target)).status).toBe(403);
      }
      for (const authority of [`127.0.0.1:${otherPort}`, 'example.com:443', `10.0.0.1:${sim.port}`, 'nonsense']) {
        const tunnel = await connect(sim.exitUrls[0]!, authority);
        expect(tunnel.status).toBe(403);
        tunnel.socket.destroy();
      }
    } finally {
      other.close();
    }
    expect(sim.requests()).toEqual([]);
    expect(sim.exits()[0]!.requests).toBe(0);
  });

  it('rate rule: more than maxRps in 1000 ms blocks that exit only, for blockSeconds, then it recovers', async () => {
    sim.setAntiBot({ maxRps: 3, blockSeconds: 0.4 });
    const target = `${sim.url}/dp/B0RATE0001`;
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await viaAbsolute(sim.exitUrls[0]!, target);
      statuses.push(CAPTCHA.test(res.body) ? `captcha ${res.status}` : String(res.status));
    }
    expect(statuses).toEqual(['200', '200', '200', 'captcha 200', 'captcha 200']);
    expect((await viaAbsolute(sim.exitUrls[1]!, target)).body).not.toMatch(CAPTCHA);
    const [blocked] = sim.exits();
    expect(blocked).toMatchObject({ requests: 5, blocked: 2, blocks: 1 });
    expect(blocked!.blockedUntil).toBeGreaterThan(Date.now());
    expect(
      sim
        .requests()
        .filter((e) => e.blocked)
        .map((e) => e.exit),
    ).toEqual([0, 0]);
    await new Promise((r) => setTimeout(r, 450));
    expect((await viaAbsolute(sim.exitUrls[0]!, target)).body).not.toMatch(CAPTCHA);
    expect(sim.exits()[0]!.blockedUntil).toBeNull();
  });

  it('cookie rule: a client that returns its session-id is fine; one without (or with a forged one) is blocked', async () => {
    sim.setAntiBot({ maxCookielessVisits: 2, blockSeconds: 30 });
    const target = `${sim.url}/dp/B0COOKIE01`;
    // Exit 0 never keeps cookies: every request is a cookie-less visit and gets a new cookie.
    const without = [];
    for (let i = 0; i < 4; i++) without.push(await viaAbsolute(sim.exitUrls[0]!, target));
    expect(without.map((r) => CAPTCHA.test(r.body))).toEqual([false, false, true, true]);
    expect(without.every((r) => r.headers['set-cookie']?.[0]?.startsWith('session-id='))).toBe(true);
    // Exit 1 keeps its jar: one cookie-less first visit, then never blocked.
    const first = await viaAbsolute(sim.exitUrls[1]!, target);
    const cookie = first.headers['set-cookie']![0]!.split(';')[0]!;
    for (let i = 0; i < 8; i++) {
      const res = await viaAbsolute(sim.exitUrls[1]!, target, { cookie: `i18n-prefs=USD; ${cookie}` });
      expect(res.body).not.toMatch(CAPTCHA);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Exit 2 sends a session-id the simulator never issued: cookie-less all the same.
    const forged = [];
    for (let i = 0; i < 3; i++) forged.push(await viaAbsolute(sim.exitUrls[2]!, target, { cookie: 'session-id=123-4567890-1234567' }));
    expect(forged.map((r) => CAPTCHA.test(r.body))).toEqual([false, false, true]);
    expect(sim.exits().map((s) => s.blocks)).toEqual([1, 0, 1]);
  });

  it('anti-bot rules over the control API, with a 503 robot check; DELETE lifts blocks', async () => {
    const put = await fetch(`${sim.url}/__sim/antibot`, {
      method: 'PUT',
      body: JSON.stringify({ maxRps: 1, blockSeconds: 60, blockStatus: 503 }),
    });
    expect(await put.json()).toEqual({ maxRps: 1, blockSeconds: 60, cookieWindowSeconds: 60, blockStatus: 503 });
    expect((await fetch(`${sim.url}/__sim/antibot`, { method: 'PUT', body: JSON.stringify({ maxRps: 0 }) })).status).toBe(400);
    await viaAbsolute(sim.exitUrls[0]!, `${sim.url}/dp/B0CTRL0001`);
    const blocked = await viaAbsolute(sim.exitUrls[0]!, `${sim.url}/dp/B0CTRL0001`);
    expect(blocked.status).toBe(503);
    expect(blocked.body).toMatch(CAPTCHA);
    expect((await fetch(`${sim.url}/__sim/antibot`, { method: 'DELETE' })).status).toBe(204);
    expect((await viaAbsolute(sim.exitUrls[0]!, `${sim.url}/dp/B0CTRL0001`)).status).toBe(200);
    expect((await fetch(`${sim.url}/__sim/exits`, { method: 'DELETE' })).status).toBe(204);
    expect(sim.exits()[0]).toMatchObject({ requests: 0, blocked: 0, blocks: 0 });
  });
});

const MAIN = path.resolve(__dirname, '../dist/main.js');
(existsSync(MAIN) ? it : it.skip)('process mode prints its exit URLs as a JSON line and serves /__sim/exits', async () => {
  const child = spawn(process.execPath, [MAIN, '--port', '0', '--no-fixtures', '--exits', '2', '--latency', '5:20', '--max-rps', '50'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const lines = createInterface({ input: child.stdout! });
    let listening: { url: string; exitUrls: string[] } | undefined;
    for await (const line of lines) {
      if (line.startsWith('{')) {
        listening = JSON.parse(line) as { url: string; exitUrls: string[] };
        break;
      }
    }
    expect(listening!.exitUrls).toHaveLength(2);
    const exits = (await (await fetch(`${listening!.url}/__sim/exits`)).json()) as ExitStats[];
    expect(exits.map((e) => e.url)).toEqual(listening!.exitUrls);
    expect((await viaAbsolute(listening!.exitUrls[1]!, `${listening!.url}/dp/B0PROCESS1`)).status).toBe(200);
    const health = (await (await fetch(`${listening!.url}/__sim/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ latency: { p50Ms: 5, p99Ms: 20 }, antiBot: { maxRps: 50 }, exits: 2 });
  } finally {
    child.kill('SIGTERM');
  }
});
