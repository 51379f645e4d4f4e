#!/usr/bin/env node
/**
 * CLI: runs the simulator as its own process (chaos run, demos, manual testing) until
 * SIGTERM/SIGINT. Faults are then driven through the `/__sim/` control API.
 *
 *   node packages/simulator/dist/main.js [--port 9100] [--fixtures DIR] [--no-any-asin]
 *     [--latency 800:3000] [--exits 50] [--max-rps 5] [--max-cookieless-visits 3]
 *
 * Once listening it prints one human line and one JSON line (`{"event":"listening",...}` with
 * the url and the exit proxy URLs), so a parent process can learn the random exit ports.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startSimulator } from './server';
import { validateAntiBot } from './anti-bot';
import { validateLatency } from './latency';
import type { AntiBotConfig, FaultRule, LatencyConfig, SimulatorOptions } from './types';

const USAGE = `usage: node packages/simulator/dist/main.js [options]
  --port N                   listen port (default 9100; 0 = random)
  --host H                   bind address (default 127.0.0.1)
  --fixtures DIR             folder of saved pages (default: the repository's shared fixtures)
  --no-fixtures              serve only the built-in pages (with the known values, unless --varied-values)
  --known-values             built-in details and search pages show the known values ($19.99, 4.5 stars)
  --varied-values            built-in details and search pages show each product's own values
  --drift JSON               initial drift epochs, e.g. '{"*":1}' or '{"B0ABCDEFGH":2}' (see /__sim/drift)
  --no-any-asin              404 for ASINs without a page of their own
  --no-any-keyword           404 for keywords without a page of their own
  --seed N                   seed of the fault PRNG (default 1)
  --details-template FILE    details fixture used for unknown ASINs
  --search-template FILE     search fixture used for unknown keywords
  --faults JSON|@FILE        initial fault rules (JSON array, inline or from a file)
  --latency P50[:P99[:MAX]]  per-request latency in ms, log-normal fitted to p50/p99 (default off)
  --exits N                  open N forward-proxy exits, each its own client identity (default 0)
  --exit-port-base N         exit i listens on N+i (default: random free ports)
  --max-rps N                anti-bot: block an identity sending > N requests in any 1000 ms
  --max-cookieless-visits N  anti-bot: block an identity with > N cookie-less visits per window
  --cookie-window-seconds S  anti-bot: window of the cookie rule (default 60)
  --block-seconds S          anti-bot: how long a block lasts (default 60)
  --block-status 200|503     anti-bot: status of the robot-check answer (default 200)`;

function intArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

function numberArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${value}`);
  return n;
}

/** `800`, `800:3000` or `800:3000:10000` (p50, p99, cap in ms). */
function latencyArg(value: string | undefined): LatencyConfig | undefined {
  if (value === undefined) return undefined;
  const [p50, p99, max] = value.split(':').map((part) => Number(part));
  if (p50 === undefined || !Number.isFinite(p50)) throw new Error(`--latency must be P50[:P99[:MAX]] in ms, got ${value}`);
  const config: LatencyConfig = { p50Ms: p50 };
  if (p99 !== undefined) config.p99Ms = p99;
  if (max !== undefined) config.maxMs = max;
  validateLatency(config); // a bad value fails here, with the usage text
  return config;
}

function antiBotArgs(values: Record<string, string | boolean | undefined>): AntiBotConfig | undefined {
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const config: AntiBotConfig = {
    maxRps: intArg('max-rps', str('max-rps')),
    maxCookielessVisits: intArg('max-cookieless-visits', str('max-cookieless-visits')),
    cookieWindowSeconds: numberArg('cookie-window-seconds', str('cookie-window-seconds')),
    blockSeconds: numberArg('block-seconds', str('block-seconds')),
    blockStatus: str('block-status') === undefined ? undefined : (Number(str('block-status')) as 200 | 503),
  };
  const set = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as AntiBotConfig;
  if (Object.keys(set).length === 0) return undefined;
  if (set.maxRps === undefined && set.maxCookielessVisits === undefined)
    throw new Error('anti-bot flags need --max-rps or --max-cookieless-visits');
  validateAntiBot(set);
  return set;
}

function parse(argv: string[]): { options: SimulatorOptions; faults: FaultRule[] } {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      fixtures: { type: 'string' },
      'no-fixtures': { type: 'boolean' },
      'known-values': { type: 'boolean' },
      'varied-values': { type: 'boolean' },
      drift: { type: 'string' },
      'no-any-asin': { type: 'boolean' },
      'no-any-keyword': { type: 'boolean' },
      seed: { type: 'string' },
      'details-template': { type: 'string' },
      'search-template': { type: 'string' },
      faults: { type: 'string' },
      latency: { type: 'string' },
      exits: { type: 'string' },
      'exit-port-base': { type: 'string' },
      'max-rps': { type: 'string' },
      'max-cookieless-visits': { type: 'string' },
      'cookie-window-seconds': { type: 'string' },
      'block-seconds': { type: 'string' },
      'block-status': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.fixtures !== undefined && values['no-fixtures']) throw new Error('--fixtures and --no-fixtures are exclusive');
  if (values['known-values'] && values['varied-values']) throw new Error('--known-values and --varied-values are exclusive');
  const options: SimulatorOptions = {
    port: intArg('port', values.port) ?? 9100,
    host: values.host,
    fixturesDir: values['no-fixtures'] ? null : values.fixtures,
    anyAsin: !values['no-any-asin'],
    anyKeyword: !values['no-any-keyword'],
    seed: intArg('seed', values.seed),
    detailsTemplate: values['details-template'],
    searchTemplate: values['search-template'],
    latency: latencyArg(values.latency),
    exits: intArg('exits', values.exits),
    exitPortBase: intArg('exit-port-base', values['exit-port-base']),
    antiBot: antiBotArgs(values),
    knownValues: values['known-values'] ? true : values['varied-values'] ? false : undefined,
    drift: values.drift === undefined ? undefined : (JSON.parse(values.drift) as Record<string, number>),
  };
  let faults: FaultRule[] = [];
  if (values.faults !== undefined) {
    const text = values.faults.startsWith('@') ? readFileSync(values.faults.slice(1), 'utf8') : values.faults;
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) throw new Error('--faults must be a JSON array of fault rules');
    faults = parsed as FaultRule[];
  }
  return { options, faults };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const sim = await startSimulator(parsed.options);
  sim.setFaults(parsed.faults);
  console.log(`simulator listening on ${sim.url}${sim.exitUrls.length ? ` with ${sim.exitUrls.length} exits` : ''}`);
  // Machine-readable: a parent process reads the exit ports from this line (or GET /__sim/exits).
  console.log(JSON.stringify({ event: 'listening', url: sim.url, port: sim.port, exitUrls: sim.exitUrls }));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) process.exit(1); // second signal: the operator wants out now
    stopping = true;
    console.log(`simulator: ${signal}, closing`);
    // close() destroys every socket, so it cannot wait on clients; the deadline is a safety net.
    setTimeout(() => process.exit(1), 5_000).unref();
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('simulator failed to start:', err);
  process.exit(1);
});
