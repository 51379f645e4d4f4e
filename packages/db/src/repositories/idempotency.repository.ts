import { sql } from 'kysely';
import type { Db } from '../connection';

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  /** The job or schedule the first request created, recorded on the key in the same transaction. */
  | { kind: 'recovered'; createdId: string }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

/**
 * A request holds its key at most this long: the gateway's own limits (statement timeout 30 s,
 * enqueue 2 s, pool wait 5 s) end every request sooner. An older in-flight claim belongs to a
 * gateway that died; the next request with the key takes it over.
 */
const ABANDONED_AFTER_MS = 40_000;

/**
 * Stripe-style idempotency records, one per (project, key), kept 24 h. A record without a
 * response is "in flight"; its owner either completes it or releases it on failure so that
 * the client can retry with the same key.
 */
export class IdempotencyRepository {
  constructor(
    private readonly db: Db,
    private readonly ttlMs = 24 * 60 * 60 * 1000,
  ) {}

  async claim(projectId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
    // One statement: a new key is recorded, and an expired record (dead) is replaced by a fresh
    // one, as if deleted first; a live record is left alone and read below.
    const claimed = await this.db
      .insertInto('idempotency_key')
      .values({ project_id: projectId, key, request_hash: requestHash, expires_at: new Date(Date.now() + this.ttlMs) })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'key'])
          .doUpdateSet((eb) => ({
            request_hash: eb.ref('excluded.request_hash'),
            response_status: null,
            response_body: null,
            job_id: null,
            schedule_id: null,
            created_at: sql<Date>`now()`,
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('idempotency_key.expires_at', '<', sql<Date>`now()`),
      )
      .returning('key')
      .executeTakeFirst();
    if (claimed) return { kind: 'claimed' };
    const existing = await this.db
      .selectFrom('idempotency_key')
      .select(['request_hash', 'response_status', 'response_body', 'job_id', 'schedule_id', 'created_at'])
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!existing) return this.claim(projectId, key, requestHash);
    if (existing.request_hash !== requestHash) return { kind: 'mismatch' };
    if (existing.response_status !== null) return { kind: 'replay', status: existing.response_status, body: existing.response_body };
    // The first request created its job or schedule but never stored its answer (its gateway died).
    const createdId = existing.job_id ?? existing.schedule_id;
    if (createdId) return { kind: 'recovered', createdId };
    // Compared in SQL: timestamps read back into JS lose their microseconds (found by the chaos run).
    const taken = await this.db
      .updateTable('idempotency_key')
      .set({ created_at: sql<Date>`now()` })
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .where('response_status', 'is', null)
      .where('job_id', 'is', null)
      .where('schedule_id', 'is', null)
      .where('created_at', '<', sql<Date>`now() - ${`${ABANDONED_AFTER_MS} milliseconds`}::interval`)
      .returning('key')
      .executeTakeFirst();
    if (taken) return { kind: 'claimed' };
    return { kind: 'in_progress' };
  }

  async complete(projectId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.db
      .updateTable('idempotency_key')
      .set({ response_status: status, response_body: JSON.stringify(body) })
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .execute();
  }

  async release(projectId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_key').where('project_id', '=', projectId).where('key', '=', key).execute();
  }

  async deleteExpired(): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_key')
      .where('expires_at', '<', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
