/**
 * The simulator's HTTP server: routes page requests, applies anti-bot rules, fault rules and
 * latency, logs requests and hands `/__sim/` to the control API. Exits (exits.ts) feed the
 * same handler with their own identity. node:http only, so it has no runtime dependencies and
 * nothing between the socket and the page buffer.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Identity, SessionRegistry, validateAntiBot, type ResolvedAntiBot } from './anti-bot';
import { handleControl, type ControlDeps } from './control-api';
import { NOT_FOUND_PAGE, statusPage } from './error-pages';
import { simulatorHosts, startExits, type ExitPool } from './exits';
import { FaultEngine } from './fault-rules';
import { createLatencySampler, validateLatency } from './latency';
import { DEFAULT_OFFERS_LAYOUT, parseOffersLayoutBody, validateOffersLayout } from './offers-layout';
import { validatePageCounts } from './page-counts';
import { validateDrift } from './drift';
import { defaultFixturesDir, loadPageStore } from './page-store';
import { createPrng } from './prng';
import { RequestLog } from './request-log';
import { resolvePage, splitTarget, type RouteOptions } from './routes';
import { LocationRegistry, glowLines, marketPostalCode, placeOf, withGlowLines } from './delivery-location';
import { ADDRESS_CHANGE_PATH, HOME_PATHS, SELECTIONS_PATH, addressChangeAnswer, homePage, selectionsFragment } from './glow-pages';
import { marketLocale, requestMarketplace } from './locale';
import type {
  AntiBotConfig,
  Fault,
  FaultRule,
  LatencyConfig,
  OffersLayout,
  PostalRefusal,
  RequestLogEntry,
  Simulator,
  SimulatorOptions,
} from './types';

const DEFAULT_SEED = 1;
const EMPTY = Buffer.alloc(0);

/**
 * Keep idle keep-alive sockets longer than typical client agents do: if the server closes an
 * idle socket just as a client reuses it, the client sees a spurious ECONNRESET that a bench
 * or chaos run would count as an injected fault.
 */
const KEEP_ALIVE_MS = 65_000;

/** What is known about a page request once it has arrived. */
interface RequestContext {
  /** Arrival time (ms since epoch). */
  at: number;
  identity: Identity;
  /** No session-id this simulator issued: the answer hands out a new one. */
  cookieless: boolean;
  /** The session's id: the cookie's, or the one this answer hands out. */
  sessionId: string;
  blocked?: true;
}

/** A real TCP RST where supported, so clients see ECONNRESET rather than a clean close. */
function resetSocket(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

function resolveFixturesDir(option: string | null | undefined): string | null {
  if (option === undefined) return defaultFixturesDir();
  if (option !== null && !existsSync(option)) throw new Error(`fixturesDir ${option} does not exist`);
  return option;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Starts a simulator on 127.0.0.1 (random port by default) and resolves once it and its exits
 * are listening. Fixtures are read and indexed before the port opens, so the first request is
 * as fast as the thousandth.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const store = await loadPageStore(resolveFixturesDir(options.fixturesDir), options);
  const routeOptions: RouteOptions = {
    anyAsin: options.anyAsin ?? true,
    anyKeyword: options.anyKeyword ?? true,
    pageCounts: new Map(),
    offersLayout: DEFAULT_OFFERS_LAYOUT,
    varied: !(options.knownValues ?? options.fixturesDir === null),
    drift: validateDrift(options.drift),
  };
  const seed = options.seed ?? DEFAULT_SEED;
  const faults = new FaultEngine(seed);
  const log = new RequestLog(options.logLimit ?? 10_000);
  const timers = new Set<NodeJS.Timeout>();
  const sessions = new SessionRegistry();
  const locations = new LocationRegistry();
  // Its own stream, so turning latency on does not shift the fault rules' probability draws.
  const latencyRandom = createPrng((seed ^ 0x5bd1e995) >>> 0);
  let latency = validateLatency(options.latency);
  let nextDelay = latency ? createLatencySampler(latency, latencyRandom) : null;
  let antiBot: ResolvedAntiBot | null = validateAntiBot(options.antiBot);
  const exitCount = options.exits ?? 0;
  if (!Number.isInteger(exitCount) || exitCount < 0 || exitCount > 1000) throw new RangeError('exits must be an integer 0..1000');

  const defer = (fn: () => void, ms: number): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const record = (req: IncomingMessage, ctx: RequestContext, status: RequestLogEntry['status']): void => {
    const entry: RequestLogEntry = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      status,
      at: ctx.at,
      headers: req.headers,
      exit: ctx.identity.exit,
    };
    if (ctx.blocked) entry.blocked = true;
    log.push(entry);
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    status: number,
    body: Buffer,
    extra?: OutgoingHttpHeaders,
  ): void => {
    record(req, ctx, status);
    const headers: OutgoingHttpHeaders = { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...extra };
    // Amazon hands every new visitor a session cookie; a crawler's cookie jar should send it back.
    if (ctx.cookieless) {
      const expires = new Date(Date.now() + 365 * 864e5).toUTCString();
      const cookie = `session-id=${ctx.sessionId}; Path=/; Expires=${expires}`;
      // The home page sets the rest of a new visitor's cookies, as Amazon's does.
      headers['set-cookie'] = HOME_PATHS.has(splitTarget(req.url ?? '/').pathname)
        ? [
            cookie,
            `session-id-time=2082787201l; Path=/; Expires=${expires}`,
            `i18n-prefs=${marketLocale(requestMarketplace(splitTarget(req.url ?? '/').query, req.headers)).currency}; Path=/; Expires=${expires}`,
          ]
        : cookie;
    }
    res.writeHead(status, headers);
    res.end(body);
  };

  /** The place the session chose on the request's marketplace, else null (the marketplace's default place). */
  const sessionPostalCode = (ctx: RequestContext, marketplace: string): string | null => {
    const location = ctx.cookieless ? null : locations.of(ctx.sessionId);
    return location && location.marketplace === marketplace ? location.postalCode : null;
  };

  /**
   * The "Deliver to" flow (docs/crawling.md, "Delivery location"): the home page, the modal's
   * selections (with the home page's token) and the address change (with the selections' token).
   * False when the request is none of them.
   */
  const serveGlow = (req: IncomingMessage, res: ServerResponse, ctx: RequestContext): boolean => {
    const { pathname, query } = splitTarget(req.url ?? '/');
    const marketplace = requestMarketplace(query, req.headers);
    const locale = marketLocale(marketplace);
    if (HOME_PATHS.has(pathname)) {
      send(req, res, ctx, 200, homePage(locale, locations.token(ctx.sessionId, 1), sessionPostalCode(ctx, marketplace)));
      return true;
    }
    const step = pathname === SELECTIONS_PATH ? 1 : pathname === ADDRESS_CHANGE_PATH ? 2 : 0;
    if (step === 0) return false;
    const json = { 'content-type': 'application/json;charset=UTF-8' };
    const token = req.headers['anti-csrftoken-a2z'];
    if (typeof token !== 'string' || !token) {
      send(req, res, ctx, 400, Buffer.from('{"error":"missing anti-csrftoken-a2z"}'), json);
      return true;
    }
    // A token belongs to the session it was handed to: none without the session's cookie.
    if (ctx.cookieless || token !== locations.token(ctx.sessionId, step)) {
      send(req, res, ctx, 403, Buffer.from('{"error":"invalid anti-csrftoken-a2z"}'), json);
      return true;
    }
    if (step === 1) {
      send(req, res, ctx, 200, selectionsFragment(locale, locations.token(ctx.sessionId, 2)));
      return true;
    }
    if (req.method !== 'POST') {
      send(req, res, ctx, 405, Buffer.from('{"error":"use POST"}'), { ...json, allow: 'POST' });
      return true;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // answered below
      }
      const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { zipCode?: unknown; locationType?: unknown };
      if (body.locationType !== 'LOCATION_INPUT' || typeof body.zipCode !== 'string')
        return send(req, res, ctx, 400, Buffer.from('{"error":"expected {locationType: LOCATION_INPUT, zipCode}"}'), json);
      const postalCode = marketPostalCode(marketplace, body.zipCode);
      if (!postalCode) return send(req, res, ctx, 200, addressChangeAnswer({ valid: false }), json);
      const refusal = locations.refusalOf(postalCode);
      const location = { marketplace, postalCode };
      // 'other-place': the answer says updated, but the session keeps the place it had.
      if (!refusal) locations.set(ctx.sessionId, location);
      const city = placeOf(marketplace, postalCode).replace(postalCode.split(' ')[0]!, '').trim() || postalCode;
      send(req, res, ctx, 200, addressChangeAnswer({ valid: true, updated: refusal?.mode !== 'not-updated', location, city }), json);
    });
    return true;
  };

  const servePage = (req: IncomingMessage, res: ServerResponse, ctx: RequestContext, replace?: [string, string][]): void => {
    if (serveGlow(req, res, ctx)) return;
    const marketplace = requestMarketplace(splitTarget(req.url ?? '/').query, req.headers);
    const postalCode = sessionPostalCode(ctx, marketplace);
    let page = resolvePage(store, routeOptions, req.url ?? '/', req.headers, postalCode);
    if (!page) return send(req, res, ctx, 404, NOT_FOUND_PAGE);
    if (postalCode) {
      // Every page's deliver-to block names the session's place (saved pages too); the offers panel's ajax pages have none.
      const shown = withGlowLines(page.body, glowLines(marketLocale(marketplace), postalCode));
      if (shown !== page.body) {
        page.release();
        page = { body: shown, release: () => {} };
      }
    }
    if (replace) {
      // Rare (tests of changed products): copy the page once and rewrite the copy.
      let text = page.body.toString('utf8');
      page.release();
      for (const [from, to] of replace) text = text.split(from).join(to);
      return send(req, res, ctx, 200, Buffer.from(text, 'utf8'));
    }
    // 'close' follows 'finish' (body handed to the kernel) or an aborted connection: either way
    // the pooled buffer is no longer read and may be patched for the next request.
    res.once('close', page.release);
    send(req, res, ctx, 200, page.body);
  };

  const applyFault = (fault: Fault, req: IncomingMessage, res: ServerResponse, ctx: RequestContext): void => {
    switch (fault.kind) {
      case 'latency':
        return defer(() => servePage(req, res, ctx), fault.ms);
      case 'status': {
        const retry = fault.status === 429 || fault.status === 503 ? { 'retry-after': '1' } : undefined;
        return send(req, res, ctx, fault.status, statusPage(fault.status), retry);
      }
      case 'captcha':
        return send(req, res, ctx, 200, store.captcha);
      case 'signin':
        // review pages lead to the unified sign-in page nowadays; other pages to the classic form
        return send(req, res, ctx, 200, (req.url ?? '').includes('/product-reviews/') ? store.signIn.unified : store.signIn.classic);
      case 'not_found':
        return send(req, res, ctx, 404, NOT_FOUND_PAGE);
      case 'empty':
        return send(req, res, ctx, 200, EMPTY);
      case 'reset':
        record(req, ctx, 'reset');
        return resetSocket(req.socket);
      case 'hang':
        // Never answered; close() destroys the socket with every other connection.
        record(req, ctx, 'hang');
        return;
      case 'rewrite':
        return servePage(req, res, ctx, fault.replace);
      case 'redirect':
        return send(req, res, ctx, fault.status ?? 302, EMPTY, { location: fault.location });
    }
  };

  /** One page request from `identity`: anti-bot rules, then faults, then the page; all after the drawn latency. */
  const handlePage = (req: IncomingMessage, res: ServerResponse, identity: Identity): void => {
    const at = Date.now();
    const cookie = SessionRegistry.cookieOf(req.headers.cookie);
    const cookieless = !sessions.isKnown(cookie);
    const ctx: RequestContext = { at, identity, cookieless, sessionId: cookieless ? sessions.issue() : cookie! };
    let answer: () => void;
    if (identity.admit(antiBot, cookieless, at)) {
      ctx.blocked = true;
      const status = antiBot?.blockStatus ?? 200;
      answer = () => send(req, res, ctx, status, store.captcha);
    } else {
      // Picked on arrival, so a rule's `times` and probability draws follow arrival order.
      const fault = faults.pick(req.url ?? '/');
      answer = fault ? () => applyFault(fault, req, res, ctx) : () => servePage(req, res, ctx);
    }
    const delay = nextDelay ? nextDelay() : 0;
    if (delay > 0) defer(answer, delay);
    else answer();
  };

  let identities: Identity[] = [];
  let direct: Identity | null = null;
  const now = (): number => Date.now();
  const exitStats = () => identities.map((i) => i.stats(now()));
  const resetExits = (): void => {
    for (const i of identities) i.reset();
    direct?.reset();
  };
  const setLatency = (value: unknown): void => {
    latency = validateLatency(value);
    nextDelay = latency ? createLatencySampler(latency, latencyRandom) : null;
  };
  const resetBlocks = (): void => {
    for (const i of [...identities, ...(direct ? [direct] : [])]) i.blockedUntil = 0;
  };
  const setAntiBot = (value: unknown): void => {
    antiBot = validateAntiBot(value);
    for (const i of identities) i.resetWindows();
    direct?.resetWindows();
    if (!antiBot) resetBlocks();
  };

  const setPageCounts = (value: unknown): void => {
    routeOptions.pageCounts = validatePageCounts(value);
  };
  const setDrift = (value: unknown): void => {
    routeOptions.drift = validateDrift(value);
  };

  const control: ControlDeps = {
    faults,
    log,
    latency: { get: () => latency, set: setLatency },
    antiBot: { get: () => antiBot, set: setAntiBot },
    pages: { get: () => Object.fromEntries(routeOptions.pageCounts ?? []), set: setPageCounts },
    offersLayout: {
      get: () => ({ layout: routeOptions.offersLayout }),
      set: (body) => {
        routeOptions.offersLayout = parseOffersLayoutBody(body);
      },
    },
    drift: { get: () => Object.fromEntries(routeOptions.drift ?? []), set: setDrift },
    exits: { list: exitStats, reset: resetExits },
    locations: {
      list: () => locations.list(),
      expire: (postalCode) => locations.expire(postalCode),
      refused: { get: () => locations.list().refused, set: (value) => locations.setRefusals(value) },
    },
    health: () => ({
      ok: true,
      fixturesDir: store.fixturesDir,
      detailsPages: store.details.size,
      searchKeys: store.searches.size,
      detailsTemplateAsin: store.detailsTemplate?.ownAsin ?? null,
      searchTemplateKeyword: store.searchTemplate?.keyword ?? null,
      offersPages: store.offers.size,
      offersLayout: routeOptions.offersLayout,
      builtInValues: routeOptions.varied ? 'varied' : 'known',
      drift: Object.fromEntries(routeOptions.drift ?? []),
      reviewPages: store.reviews.size,
      bestsellerLists: store.bestsellers.size,
      anyAsin: routeOptions.anyAsin,
      anyKeyword: routeOptions.anyKeyword,
      faults: faults.list().length,
      requests: log.size,
      latency,
      antiBot,
      exits: identities.length,
      exitUrls: identities.map((i) => i.url),
      direct: direct?.stats(now()) ?? null,
    }),
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse, identity: Identity): void => {
    if ((req.url ?? '/').startsWith('/__sim/')) return handleControl(req, res, control);
    handlePage(req, res, identity);
  };

  const server = createServer((req, res) => dispatch(req, res, direct!)); // set before listen resolves
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  const bindHost = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, bindHost);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('simulator: unexpected server address');
  // A wildcard bind is reached through loopback; a URL with 0.0.0.0 is not portable.
  const bound = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  const host = bound.includes(':') ? `[${bound}]` : bound;
  const url = `http://${host}:${address.port}`;
  direct = new Identity('direct', address.port, url);

  let exits: ExitPool | null = null;
  if (exitCount > 0) {
    try {
      exits = await startExits({
        count: exitCount,
        host: bindHost,
        portBase: options.exitPortBase ?? 0,
        simPort: address.port,
        simHosts: simulatorHosts(bound, options.host),
        keepAliveMs: KEEP_ALIVE_MS,
        handle: dispatch,
      });
    } catch (err) {
      server.closeAllConnections();
      server.close();
      throw err;
    }
    identities = exits.identities;
  }

  let closing: Promise<void> | null = null;
  return {
    url,
    port: address.port,
    exitUrls: identities.map((i) => i.url),
    setFaults: (rules: FaultRule[]) => faults.set(rules),
    addFault: (rule: FaultRule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests: () => log.list(),
    resetLog: () => log.reset(),
    exits: exitStats,
    resetExits,
    setLatency: (config: LatencyConfig | null) => setLatency(config),
    setAntiBot: (config: AntiBotConfig | null) => setAntiBot(config),
    setPageCounts: (counts: Record<string, number> | null) => setPageCounts(counts),
    setOffersLayout: (layout: OffersLayout) => {
      routeOptions.offersLayout = validateOffersLayout(layout);
    },
    setDrift: (epochs: Record<string, number> | null) => setDrift(epochs),
    locations: () => locations.list(),
    expireLocations: (postalCode?: string | null) => locations.expire(postalCode ?? null),
    setRefusedPostalCodes: (refusals: PostalRefusal[] | null) => locations.setRefusals(refusals),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        exits?.close();
        server.close(() => resolve());
        // Hung, delayed and idle keep-alive sockets would otherwise keep close() waiting forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
