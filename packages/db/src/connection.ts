import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './schema';

export type Db = Kysely<Database>;

const INT8_OID = 20;

/** int8 (counts, credit sums) parsed as JS numbers: every value we store is far below 2^53. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface DbOptions {
  url: string;
  poolSize?: number;
  /** A request never waits forever for Postgres: both limits surface as 503 UNAVAILABLE. */
  connectionTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell a pool's connections apart (e.g. exports). */
  applicationName?: string;
}

const pools = new WeakMap<Db, pg.Pool>();

export function createDb(options: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    idleTimeoutMillis: 30_000,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    types,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  pools.set(db, pool);
  return db;
}

export interface PoolStats {
  /** Open connections, idle or checked out. */
  total: number;
  idle: number;
  /** Callers queued for a connection. */
  waiting: number;
}

/**
 * Connection counts of a pool made by `createDb`. A checked-out connection that never comes
 * back (total > idle with nothing running) is a leak; tests and metrics watch for it.
 */
export function poolStats(db: Db): PoolStats {
  const pool = pools.get(db);
  if (!pool) throw new Error('poolStats: this Db was not made by createDb');
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** One round trip to Postgres (readiness probes); rejects when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

const UNAVAILABLE_NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/**
 * True when an error means "Postgres cannot be reached right now" (connection refused, reset,
 * admin shutdown, pool timeout) rather than a bug. Callers answer 503 and clients retry.
 */
export function isDbUnavailableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_NET_CODES.has(code)) return true;
  // SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, cannot connect now).
  if (/^08/.test(code) || /^57P0/.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout/i.test(message);
}

/**
 * True when Postgres refused a statement for its data (SQLSTATE class 22, data exception) or a
 * constraint (class 23): the statement did nothing, and another statement with other values
 * may well succeed. Not for connection losses or timeouts, whose outcome may be unknown.
 */
export function isRefusedByData(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** Postgres error code of a unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';
}

/**
 * LISTEN on a channel with a dedicated connection, reconnecting after errors. Returns a
 * stop function. Used to wake pollers as soon as a transaction commits an event.
 */
export function listen(
  url: string,
  channel: string,
  onNotify: () => void,
  onError: (err: unknown) => void = () => undefined,
): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    c.on('notification', () => onNotify());
    c.on('error', (err) => {
      onError(err);
      c.end().catch(() => undefined);
      if (client === c) client = null;
      setTimeout(() => void connect(), 1_000).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      client = c;
      if (stopped) await c.end();
    } catch (err) {
      onError(err);
      c.end().catch(() => undefined);
      setTimeout(() => void connect(), 1_000).unref();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}
