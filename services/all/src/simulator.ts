import { parseArgs } from 'node:util';
import { PortInUseError } from '@crawl/observability';
import { type Simulator, startSimulator } from '@crawl/simulator';

/**
 * What `pnpm start:sim` changes for local work, each only when the variable is not set: webhook
 * receivers on this machine are allowed (a newcomer's receiver is on loopback), and the
 * simulator, which runs in this process and has no politeness to respect, is crawled at a local
 * rate rather than the real marketplaces' 0.8 requests per second per exit.
 */
export const SIMULATOR_ENV_DEFAULTS = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', CRAWL_EXIT_RPS: '200' } as const;

export const ALL_USAGE = `usage: node services/all/dist/main.js [--simulator [--simulator-port N]]
  (pnpm start / pnpm start:sim)
  --simulator          also start the marketplace simulator in this process and crawl it
                       instead of the real marketplaces (sets MARKETPLACE_ORIGIN_OVERRIDE);
                       unless set, WEBHOOK_ALLOW_PRIVATE_URLS=${SIMULATOR_ENV_DEFAULTS.WEBHOOK_ALLOW_PRIVATE_URLS} (loopback receivers)
                       and CRAWL_EXIT_RPS=${SIMULATOR_ENV_DEFAULTS.CRAWL_EXIT_RPS} (a local politeness)
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

/**
 * The environment the services of `pnpm start:sim` read: the simulator's origin for every
 * marketplace, and the local-work defaults for the variables the user did not set (an explicit
 * value, `WEBHOOK_ALLOW_PRIVATE_URLS=false` included, always wins). Also says which were defaulted.
 */
export function simulatorEnv(env: NodeJS.ProcessEnv, simulatorUrl: string): { env: NodeJS.ProcessEnv; defaulted: string[] } {
  const out: NodeJS.ProcessEnv = { ...env, MARKETPLACE_ORIGIN_OVERRIDE: simulatorUrl };
  const defaulted: string[] = [];
  for (const [name, value] of Object.entries(SIMULATOR_ENV_DEFAULTS)) {
    if (env[name] !== undefined && env[name] !== '') continue;
    out[name] = value;
    defaulted.push(name);
  }
  return { env: out, defaulted };
}

/** The banner's lines about what is crawled and which webhook receivers are allowed. */
export function crawlingBannerLines(options: {
  override: string | null | undefined;
  simulator: boolean;
  exitRps: number;
  allowPrivateWebhooks: boolean;
  defaulted: string[];
}): string[] {
  if (!options.simulator) {
    return [
      `  crawling ${options.override ?? 'real marketplaces (`pnpm start:sim` crawls a local simulator instead)'}`,
      ...(options.allowPrivateWebhooks
        ? ['  webhooks receivers on private and loopback addresses allowed (WEBHOOK_ALLOW_PRIVATE_URLS=true)']
        : []),
    ];
  }
  const why = (name: string) => (options.defaulted.includes(name) ? 'the start:sim default; set it to change' : 'as set');
  return [
    `  crawling ${options.override} (the simulator) at CRAWL_EXIT_RPS=${options.exitRps} (${why('CRAWL_EXIT_RPS')})`,
    options.allowPrivateWebhooks
      ? `  webhooks receivers on loopback and private addresses allowed: WEBHOOK_ALLOW_PRIVATE_URLS=true (${why('WEBHOOK_ALLOW_PRIVATE_URLS')})`
      : '  webhooks receivers on loopback and private addresses refused: WEBHOOK_ALLOW_PRIVATE_URLS=false (as set)',
  ];
}
