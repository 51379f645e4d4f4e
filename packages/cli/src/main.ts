/**
 * `pnpm --silent admin <command> [--flags] --json`: prints one JSON object on stdout, or
 * `{"error": {...}}` and exit code 1. Migrates the database first, so it works on a fresh machine.
 */
import { parseArgs } from 'node:util';
import { AppError, PLAN_PROJECT_LIMITS_TEXT } from '@crawl/core';
import { parseEnvOrExit, postgresEnv, redisEnv } from '@crawl/config';
import { accountChangesChannel, Broadcast, createRedisConnection, type Redis } from '@crawl/redis';
import { createDb, type Db, ensureDatabase, MembershipRepository, migrateToLatest, SessionRepository, UserRepository } from '@crawl/db';
import type { ChangeBroadcast } from './announce';
import { adminDeps, commands } from './commands';
import { userCommands, userTable, type UserListing } from './user-commands';

const USAGE = `usage: pnpm --silent admin <command> [options] --json

Commands (each prints one JSON object, list-users a list; --json prints it on one line):
  create-project --name N [--org ORG_ID] [--plan starter|growth|enterprise] [--per-minute N] [--credits N]
  create-key --project P [--user U | --new-user]
  grant-credits --org ORG_ID --amount N
  set-plan --org ORG_ID --plan P [--per-minute N]
    (--per-minute: the organization's requests per minute; required with, and only with, enterprise)
  set-schedule-limits --org ORG_ID [--max-per-project N|default] [--min-interval-seconds N|default]
  set-project-limit --org ORG_ID --max N|default
    (live projects the organization may hold; default: its plan's, ${PLAN_PROJECT_LIMITS_TEXT})
  revoke-key --key-prefix X
  list-users [--search TEXT] [--limit N]
    (users who sign in, newest first; a table without --json, a JSON array with it)
  disable-user --user USER_ID | --email EMAIL
    (the user can no longer sign in; their console sessions are revoked and their API keys refused)
  enable-user --user USER_ID | --email EMAIL
  user-memberships --user USER_ID | --email EMAIL
  help, -h, --help   this text

Environment: DATABASE_URL (migrated first, created if missing); REDIS_URL and QUEUE_PREFIX, the
gateways' (changes to keys, users and organizations are broadcast to them; without Redis the
command still succeeds, with a warning, and gateways notice within AUTH_CACHE_TTL_MS).`;

/** `--help`/`-h` anywhere, or the command `help`: usage on stdout and exit 0, before any database work. */
const wantsHelp = (argv: string[]) => argv[0] === 'help' || argv.some((a) => a === '--help' || a === '-h');

function print(value: unknown, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

type Run = (db: Db, broadcast: ChangeBroadcast, flags: Record<string, string | boolean | undefined>) => Promise<unknown>;

/** The command's function with the repositories it needs, or undefined for an unknown command. */
function runner(command: string): Run | undefined {
  const tenantCommand = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (tenantCommand) {
    return (db, broadcast, flags) => tenantCommand({ ...adminDeps(db), broadcast }, flags);
  }
  const userCommand = Object.hasOwn(userCommands, command) ? userCommands[command] : undefined;
  if (userCommand) {
    return (db, broadcast, flags) =>
      userCommand(
        {
          db,
          users: new UserRepository(db),
          sessions: new SessionRepository(db),
          memberships: new MembershipRepository(db),
          broadcast,
        },
        flags,
      );
  }
  return undefined;
}

/** How long a command waits for Redis before it warns and leaves the gateways to their cache TTL. */
const REDIS_READY_TIMEOUT_MS = 3_000;

/**
 * The gateways' channel of account changes, on a connection opened only when a command has
 * something to tell (most commands never touch Redis). The connection has no offline queue, so
 * a publish waits for it to be ready, at most REDIS_READY_TIMEOUT_MS, then fails (announce warns).
 */
function gatewayChannel(redisUrl: string, queuePrefix: string): ChangeBroadcast & { close(): void } {
  let redis: Redis | undefined;
  return {
    async publish(message) {
      redis ??= createRedisConnection(redisUrl);
      await whenReady(redis, REDIS_READY_TIMEOUT_MS);
      await new Broadcast(redis, accountChangesChannel(queuePrefix)).publish(message);
    },
    close: () => redis?.disconnect(),
  };
}

function whenReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis not reachable within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

async function main(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      options: {
        json: { type: 'boolean' },
        name: { type: 'string' },
        org: { type: 'string' },
        plan: { type: 'string' },
        credits: { type: 'string' },
        project: { type: 'string' },
        user: { type: 'string' },
        'new-user': { type: 'boolean' },
        amount: { type: 'string' },
        'per-minute': { type: 'string' },
        'key-prefix': { type: 'string' },
        'max-per-project': { type: 'string' },
        'min-interval-seconds': { type: 'string' },
        max: { type: 'string' },
        email: { type: 'string' },
        search: { type: 'string' },
        limit: { type: 'string' },
      },
    });
  } catch (err) {
    print({ error: { code: 'VALIDATION_ERROR', message: (err as Error).message } }, true);
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const json = parsed.values.json === true;
  const run = command ? runner(command) : undefined;
  if (!run) {
    print({ error: { code: 'VALIDATION_ERROR', message: `unknown command ${command ?? '(none)'}` } }, json);
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const config = parseEnvOrExit({ ...postgresEnv, ...redisEnv }, process.env);
  await ensureDatabase(config.DATABASE_URL);
  const db = createDb({ url: config.DATABASE_URL, poolSize: 2 });
  const channel = gatewayChannel(config.REDIS_URL, config.QUEUE_PREFIX);
  try {
    await migrateToLatest(db);
    const result = await run(db, channel, parsed.values);
    if (command === 'list-users' && !json) process.stdout.write(userTable(result as UserListing[]));
    else print(result, json);
    return 0;
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('INTERNAL', err instanceof Error ? err.message : String(err));
    print({ error: { code: e.code, message: e.message } }, json);
    return 1;
  } finally {
    channel.close();
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`admin failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
