import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, WEBHOOK_MAX_MANUAL_ATTEMPTS, WEBHOOK_REARM_COOLDOWN_MS } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, DeliveryStatus, WebhookAttemptTable, WebhookDeliveryTable } from '../schema';

export type DeliveryLogRow = Pick<
  Selectable<WebhookDeliveryTable>,
  'id' | 'webhook_id' | 'event_type' | 'status' | 'attempts' | 'next_attempt_at' | 'created_at' | 'finished_at'
>;
export type DeliveryAttemptRow = Pick<
  Selectable<WebhookAttemptTable>,
  'delivery_id' | 'attempt' | 'manual' | 'success' | 'status_code' | 'duration_ms' | 'error' | 'response_body' | 'created_at'
>;

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: EventType;
  webhookId?: string;
  from?: Date;
  to?: Date;
}

/** Why a resend was refused, or the re-armed delivery. */
export type ResendResult = { delivery: DeliveryLogRow } | { refused: 'not_found' | 'pending' | 'webhook_disabled' | 'manual_cap' };

/**
 * What a replay call re-armed, or why it re-armed nothing: another replay of the project is in
 * progress (`busy`), or the project's hourly budget is spent (`budget`: part of it comes back
 * after `retryAfterSeconds`).
 */
export type ReplayResult = { ids: string[]; hasMore: boolean } | { refused: 'busy' } | { refused: 'budget'; retryAfterSeconds: number };

export interface ManualAttemptLimits {
  /** Resends and replays one delivery may get in all. */
  maxManualAttempts: number;
  /** A replay skips a delivery re-armed less than this long ago. */
  cooldownMs: number;
}

/** Arbitrary constant: with the project's hash, the advisory lock a replay holds for its duration. */
export const WEBHOOK_REPLAY_LOCK_KEY = 726_351_003;

const DELIVERY_COLUMNS = ['id', 'webhook_id', 'event_type', 'status', 'attempts', 'next_attempt_at', 'created_at', 'finished_at'] as const;

/**
 * The delivery log as the API shows it, and the operations that ask for more attempts (resend,
 * bulk replay). Every query is scoped by project. A resend or replay re-arms the delivery for
 * exactly one more attempt (`max_attempts` = attempts + 1), due at once, with the same id and
 * body; the deliverer signs it anew. Only a delivered or failed delivery is re-armed, so a
 * delivery already waiting for its attempt is never sent twice because of a repeated request.
 */
export class WebhookLogRepository {
  private readonly limits: ManualAttemptLimits;

  constructor(
    private readonly db: Db,
    limits: Partial<ManualAttemptLimits> = {},
  ) {
    this.limits = { maxManualAttempts: WEBHOOK_MAX_MANUAL_ATTEMPTS, cooldownMs: WEBHOOK_REARM_COOLDOWN_MS, ...limits };
  }

  async listDeliveries(
    projectId: string,
    filter: DeliveryFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeliveryLogRow[]; total: number }> {
    let query = this.db.selectFrom('webhook_delivery').where('project_id', '=', projectId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.event) query = query.where('event_type', '=', filter.event);
    if (filter.webhookId) query = query.where('webhook_id', '=', filter.webhookId);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<=', filter.to);
    const [rows, count] = await Promise.all([
      query.select(DELIVERY_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async findDelivery(projectId: string, id: string): Promise<DeliveryLogRow | undefined> {
    return this.db
      .selectFrom('webhook_delivery')
      .select(DELIVERY_COLUMNS)
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The last `perDelivery` attempts of each delivery, oldest first. */
  async attemptsOf(projectId: string, deliveryIds: string[], perDelivery: number): Promise<DeliveryAttemptRow[]> {
    if (!deliveryIds.length) return [];
    const { rows } = await sql<DeliveryAttemptRow>`
      select a.delivery_id, a.attempt, a.manual, a.success, a.status_code, a.duration_ms, a.error, a.response_body, a.created_at
      from unnest(${deliveryIds}::text[]) as d(id)
      cross join lateral (
        select * from webhook_attempt w
        where w.delivery_id = d.id and w.project_id = ${projectId}
        order by w.id desc limit ${perDelivery}
      ) a
      order by a.delivery_id, a.id`.execute(this.db);
    return rows;
  }

  /**
   * Re-arms one delivered or failed delivery of the project for one more attempt, unless it had
   * its manual attempts already.
   */
  async resend(projectId: string, id: string): Promise<ResendResult> {
    const { rows } = await sql<DeliveryLogRow>`
      update webhook_delivery d
      set status = 'pending', max_attempts = d.attempts + 1, next_attempt_at = now(), resend_requested_at = now(), finished_at = null, locked_until = null,
          manual_attempts = d.manual_attempts + 1, rearmed_at = now()
      from webhook_config c
      where d.id = ${id} and d.project_id = ${projectId} and d.status in ('delivered', 'failed') and d.manual_attempts < ${this.limits.maxManualAttempts}
        and c.id = d.webhook_id and c.enabled
      returning d.id, d.webhook_id, d.event_type, d.status, d.attempts, d.next_attempt_at, d.created_at, d.finished_at`.execute(this.db);
    if (rows[0]) return { delivery: rows[0] };
    const found = await this.db
      .selectFrom('webhook_delivery')
      .select(['status', 'manual_attempts'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) return { refused: 'not_found' };
    if (found.status === 'pending') return { refused: 'pending' };
    if (found.status !== 'cancelled' && found.manual_attempts >= this.limits.maxManualAttempts) return { refused: 'manual_cap' };
    return { refused: 'webhook_disabled' };
  }

  /**
   * Re-arms up to `limit` failed deliveries of the project created in [from, to], oldest first,
   * whose webhook is enabled; `hasMore` when more could be re-armed now. Re-armed deliveries are
   * pending, so a repeated call (a retry after a lost answer) never re-arms them again while they
   * wait, and continues with the rest. Three limits keep a replay loop from turning into a flood
   * of requests to the receivers:
   * - a delivery gets at most `maxManualAttempts` resends and replays in all;
   * - a delivery re-armed less than `cooldownMs` ago is skipped (and not counted in `hasMore`);
   * - the project's replays re-arm at most `budgetPerHour` deliveries in any hour: a call re-arms
   *   what is left of it, and a call with nothing left is refused with the time until the oldest
   *   replay of the hour ages out.
   * Replays of one project are serialized by a transaction-scoped advisory lock: a call while
   * another is in progress (on any gateway) is refused rather than answering an empty page whose
   * `hasMore` would send its client straight back.
   */
  async replayFailed(
    projectId: string,
    filter: DeliveryFilter & { from: Date },
    limit: number,
    budgetPerHour: number,
  ): Promise<ReplayResult> {
    const { maxManualAttempts, cooldownMs } = this.limits;
    const matching = (alias: string) => sql`
      ${sql.ref(`${alias}.project_id`)} = ${projectId} and ${sql.ref(`${alias}.status`)} = 'failed' and ${sql.ref(`${alias}.created_at`)} >= ${filter.from}
      ${filter.to ? sql`and ${sql.ref(`${alias}.created_at`)} <= ${filter.to}` : sql``}
      ${filter.webhookId ? sql`and ${sql.ref(`${alias}.webhook_id`)} = ${filter.webhookId}` : sql``}
      ${filter.event ? sql`and ${sql.ref(`${alias}.event_type`)} = ${filter.event}` : sql``}
      and ${sql.ref(`${alias}.manual_attempts`)} < ${maxManualAttempts}
      and (${sql.ref(`${alias}.rearmed_at`)} is null or ${sql.ref(`${alias}.rearmed_at`)} <= now() - ${`${cooldownMs} milliseconds`}::interval)
      and exists (select 1 from webhook_config c where c.id = ${sql.ref(`${alias}.webhook_id`)} and c.enabled)`;
    const anyLeft = async (trx: Transaction<Database>) =>
      (await sql<{ more: boolean }>`select exists (select 1 from webhook_delivery r where ${matching('r')}) as more`.execute(trx)).rows[0]!
        .more;
    return this.db.transaction().execute(async (trx): Promise<ReplayResult> => {
      const lock = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${WEBHOOK_REPLAY_LOCK_KEY}, hashtext(${projectId})) as locked`.execute(trx);
      if (!lock.rows[0]!.locked) return { refused: 'busy' };
      await sql`delete from webhook_replay where project_id = ${projectId} and created_at < now() - interval '1 hour'`.execute(trx);
      const spent = await sql<{ used: number; retry_after: number | null }>`
        select coalesce(sum(deliveries), 0)::int as used,
               ceil(extract(epoch from min(created_at) + interval '1 hour' - now()))::int as retry_after
        from webhook_replay where project_id = ${projectId}`.execute(trx);
      const left = budgetPerHour - spent.rows[0]!.used;
      if (left <= 0) {
        if (!(await anyLeft(trx))) return { ids: [], hasMore: false };
        return { refused: 'budget', retryAfterSeconds: Math.max(1, spent.rows[0]!.retry_after ?? 1) };
      }
      const { rows } = await sql<{ id: string }>`
        update webhook_delivery d
        set status = 'pending', max_attempts = d.attempts + 1, next_attempt_at = now(), resend_requested_at = now(), finished_at = null, locked_until = null,
            manual_attempts = d.manual_attempts + 1, rearmed_at = now()
        where d.id in (
          select f.id from webhook_delivery f where ${matching('f')}
          order by f.created_at, f.id limit ${Math.min(limit, left)} for update
        )
        returning d.id`.execute(trx);
      if (rows.length) await sql`insert into webhook_replay (project_id, deliveries) values (${projectId}, ${rows.length})`.execute(trx);
      return { ids: rows.map((r) => r.id), hasMore: await anyLeft(trx) };
    });
  }
}
