import http from 'node:http';
import https from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { CookieJar } from 'tough-cookie';

/** Current desktop browsers; a session keeps one so its cookies and fingerprint agree. */
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];

export interface CrawlSession {
  readonly id: number;
  userAgent: string;
  cookieJar: CookieJar;
  agents: { http: http.Agent; https: https.Agent };
  proxy: string | null;
}

function keepAliveAgents(proxy: string | null) {
  const common = { keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' as const };
  if (!proxy) return { http: new http.Agent(common), https: new https.Agent(common) };
  return { http: new HttpProxyAgent({ ...common, proxy }), https: new HttpsProxyAgent({ ...common, proxy }) };
}

/** A browser-like session through `proxy` (or direct): its own cookie jar, user agent and keep-alive agents. */
export function createSession(id: number, proxy: string | null): CrawlSession {
  return { id, userAgent: USER_AGENTS[id % USER_AGENTS.length]!, cookieJar: new CookieJar(), agents: keepAliveAgents(proxy), proxy };
}

/**
 * A session of `base`'s exit with a cookie jar of its own (a delivery location's, see
 * location-sessions.ts): same user agent, and the exit's keep-alive agents, since sockets carry
 * no location and one pool of them per exit bounds the sockets whatever the sessions. Never
 * destroyed with destroySession (the agents are the exit's).
 */
export function cookieSession(base: CrawlSession, id: number): CrawlSession {
  return { id, userAgent: base.userAgent, cookieJar: new CookieJar(), agents: base.agents, proxy: base.proxy };
}

/** After a refusal: new cookies and another user agent, same exit. */
export function freshIdentity(session: CrawlSession): void {
  session.cookieJar = new CookieJar();
  session.userAgent = USER_AGENTS[(USER_AGENTS.indexOf(session.userAgent) + 1) % USER_AGENTS.length]!;
}

export function destroySession(session: CrawlSession): void {
  session.agents.http.destroy();
  session.agents.https.destroy();
}
