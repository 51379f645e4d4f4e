#!/usr/bin/env node
/**
 * CLI: runs the simulator as its own process (chaos run, demos, manual testing) until
 * SIGTERM/SIGINT. Faults are then driven through the `/__sim/` control API.
 *
 *   node packages/simulator/dist/main.js [--port 9100] [--fixtures DIR] [--no-any-asin]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startSimulator } from './server';
import type { FaultRule, SimulatorOptions } from './types';

const USAGE = `usage: node packages/simulator/dist/main.js [options]
  --port N                   listen port (default 9100; 0 = random)
  --host H                   bind address (default 127.0.0.1)
  --fixtures DIR             folder of saved pages (default: the repository's shared fixtures)
  --no-fixtures              serve only the built-in synthetic pages
  --no-any-asin              404 for ASINs without a page of their own
  --no-any-keyword           404 for keywords without a page of their own
  --seed N                   seed of the fault PRNG (default 1)
  --details-template FILE    details fixture used for unknown ASINs
  --search-template FILE     search fixture used for unknown keywords
  --faults JSON|@FILE        initial fault rules (JSON array, inline or from a file)`;

function intArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

function parse(argv: string[]): { options: SimulatorOptions; faults: FaultRule[] } {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      fixtures: { type: 'string' },
      'no-fixtures': { type: 'boolean' },
      'no-any-asin': { type: 'boolean' },
      'no-any-keyword': { type: 'boolean' },
      seed: { type: 'string' },
      'details-template': { type: 'string' },
      'search-template': { type: 'string' },
      faults: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.fixtures !== undefined && values['no-fixtures']) throw new Error('--fixtures and --no-fixtures are exclusive');
  const options: SimulatorOptions = {
    port: intArg('port', values.port) ?? 9100,
    host: values.host,
    fixturesDir: values['no-fixtures'] ? null : values.fixtures,
    anyAsin: !values['no-any-asin'],
    anyKeyword: !values['no-any-keyword'],
    seed: intArg('seed', values.seed),
    detailsTemplate: values['details-template'],
    searchTemplate: values['search-template'],
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
  console.log(`simulator listening on ${sim.url}`);

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
