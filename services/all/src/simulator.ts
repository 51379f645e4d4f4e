import { parseArgs } from 'node:util';
import { PortInUseError } from '@crawl/observability';
import { type Simulator, startSimulator } from '@crawl/simulator';

export const ALL_USAGE = `usage: node services/all/dist/main.js [--simulator [--simulator-port N]]
  (pnpm start / pnpm start:sim)
  --simulator          also start the marketplace simulator in this process and crawl it
                       instead of the real marketplaces (sets MARKETPLACE_ORIGIN_OVERRIDE)
  --simulator-port N   its port (default 0: any free port; the origin is printed)
  -h, --help           this text`;

export interface AllOptions {
  simulator: boolean;
  simulatorPort: number;
  help: boolean;
}

/** Flags of `pnpm start`; throws a one-line Error on a bad one. */
export function parseAllArgs(argv: string[]): AllOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { simulator: { type: 'boolean' }, 'simulator-port': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const raw = values['simulator-port'];
  const port = raw === undefined ? 0 : Number(raw);
  if (!/^\d+$/.test(raw ?? '0') || port > 65_535) throw new Error(`--simulator-port must be a port number (0-65535), got ${raw}`);
  return { simulator: values.simulator === true || raw !== undefined, simulatorPort: port, help: values.help === true };
}

/**
 * The simulator on 127.0.0.1, in this process: one command runs the whole stack against it
 * (the walk-through's second `pnpm start` used to collide with the first on :8080). Port 0 by
 * default, so it never collides with anything; a taken `--simulator-port` is one line and exit 1.
 */
export async function startLocalSimulator(port: number): Promise<Simulator> {
  try {
    return await startSimulator({ port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new PortInUseError('--simulator-port', port, code);
    throw err;
  }
}
