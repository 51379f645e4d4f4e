import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, newId } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, EventTable } from '../schema';

export type EventRow = Selectable<EventTable>;

/** Postgres NOTIFY channel raised by every outbox insert. */
export const EVENTS_CHANNEL = 'crawl_events';

/**
 * The outbox: events are inserted in the same transaction as the change that causes them,
 * then dispatched to webhook deliveries. A crash in between delays a delivery, never loses it.
 */
export class EventRepository {
  constructor(private readonly db: Db) {}

  async insert(trx: Transaction<Database>, event: { projectId: string; type: EventType; data: Record<string, unknown> }): Promise<string> {
    const id = newId('evt');
    await trx
      .insertInto('event')
      .values({ id, project_id: event.projectId, type: event.type, data: JSON.stringify(event.data) })
      .execute();
    // Delivered at commit (NOTIFY is transactional): wakes the webhook dispatchers at once.
    await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
    return id;
  }

  /** `insert` for several events of one transaction: one statement and one NOTIFY. Returns their ids in order. */
  async insertMany(
    trx: Transaction<Database>,
    events: { projectId: string; type: EventType; data: Record<string, unknown> }[],
  ): Promise<string[]> {
    if (!events.length) return [];
    const ids = events.map(() => newId('evt'));
    await trx
      .insertInto('event')
      .values(events.map((e, i) => ({ id: ids[i]!, project_id: e.projectId, type: e.type, data: JSON.stringify(e.data) })))
      .execute();
    await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
    return ids;
  }

  async listForProject(projectId: string): Promise<EventRow[]> {
    return this.db.selectFrom('event').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
  }
}
