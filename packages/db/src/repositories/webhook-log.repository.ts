import { type Selectable, sql } from 'kysely';
import type { EventType } from '@crawl/core';
import type { Db } from '../connection';
import type { DeliveryStatus, WebhookAttemptTable, WebhookDeliveryTable } from '../schema';

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
export type ResendResult = { delivery: DeliveryLogRow } | { refused: 'not_found' | 'pending' | 'webhook_disabled' };

const DELIVERY_COLUMNS = ['id', 'webhook_id', 'event_type', 'status', 'attempts', 'next_attempt_at', 'created_at', 'finished_at'] as const;

/**
 * The delivery log as the API shows it, and the operations that ask for more attempts (resend,
 * bulk replay). Every query is scoped by project. A resend or replay re-arms the delivery for
 * exactly one more attempt (`max_attempts` = attempts + 1), due at once, with the same id and
 * body; the deliverer signs it anew. Only a delivered or failed delivery is re-armed, so a
 * delivery already waiting for its attempt is never sent twice because of a repeated request.
 */
export class WebhookLogRepository {
  constructor(private readonly db: Db) {}

  async listDeliveries(projectId: string, filter: DeliveryFilter, limit: number, offset: number): Promise<{ rows: DeliveryLogRow[]; total: number }> {
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
    return this.db.selectFrom('webhook_delivery').select(DELIVERY_COLUMNS).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
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

  /** Re-arms one delivered or failed delivery of the project for one more attempt. */
  async resend(projectId: string, id: string): Promise<ResendResult> {
    const { rows } = await sql<DeliveryLogRow>`
      update webhook_delivery d
      set status = 'pending', max_attempts = d.attempts + 1, next_attempt_at = now(), resend_requested_at = now(), finished_at = null, locked_until = null
      from webhook_config c
      where d.id = ${id} and d.project_id = ${projectId} and d.status <> 'pending' and c.id = d.webhook_id and c.enabled
      returning d.id, d.webhook_id, d.event_type, d.status, d.attempts, d.next_attempt_at, d.created_at, d.finished_at`.execute(this.db);
    if (rows[0]) return { delivery: rows[0] };
    const found = await this.findDelivery(projectId, id);
    if (!found) return { refused: 'not_found' };
    return { refused: found.status === 'pending' ? 'pending' : 'webhook_disabled' };
  }

  /**
   * Re-arms up to `limit` failed deliveries of the project created in [from, to], oldest first,
   * whose webhook is enabled; `hasMore` when more remain. Re-armed deliveries are pending, so a
   * repeated call (a retry after a lost answer) never re-arms them again while they wait, and
   * continues with the rest. SKIP LOCKED: two concurrent calls split the work.
   */
  async replayFailed(projectId: string, filter: DeliveryFilter & { from: Date }, limit: number): Promise<{ ids: string[]; hasMore: boolean }> {
    const matching = (alias: string) => sql`
      ${sql.ref(`${alias}.project_id`)} = ${projectId} and ${sql.ref(`${alias}.status`)} = 'failed' and ${sql.ref(`${alias}.created_at`)} >= ${filter.from}
      ${filter.to ? sql`and ${sql.ref(`${alias}.created_at`)} <= ${filter.to}` : sql``}
      ${filter.webhookId ? sql`and ${sql.ref(`${alias}.webhook_id`)} = ${filter.webhookId}` : sql``}
      ${filter.event ? sql`and ${sql.ref(`${alias}.event_type`)} = ${filter.event}` : sql``}
      and exists (select 1 from webhook_config c where c.id = ${sql.ref(`${alias}.webhook_id`)} and c.enabled)`;
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        update webhook_delivery d
        set status = 'pending', max_attempts = d.attempts + 1, next_attempt_at = now(), resend_requested_at = now(), finished_at = null, locked_until = null
        where d.id in (
          select f.id from webhook_delivery f where ${matching('f')}
          order by f.created_at, f.id limit ${limit} for update skip locked
        )
        returning d.id`.execute(trx);
      const more = await sql<{ more: boolean }>`select exists (select 1 from webhook_delivery r where ${matching('r')}) as more`.execute(trx);
      return { ids: rows.map((r) => r.id), hasMore: more.rows[0]!.more };
    });
  }
}
