import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, newId } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, WebhookAttemptTable, WebhookConfigTable, WebhookDeliveryTable } from '../schema';

export type WebhookConfigRow = Selectable<WebhookConfigTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

/** A claimed attempt with its receiving configuration (url null when the config was deleted). */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  project_id: string;
  event_type: string;
  body: string;
  url: string | null;
  enabled: boolean | null;
  secret_encrypted: string | null;
}

export interface WebhookConfigInput {
  id?: string;
  name: string | null;
  url: string;
  triggerAction: EventType;
  enabled: boolean;
  secretEncrypted: string;
}

/** Webhook configurations of a project. */
export class WebhookConfigRepository {
  constructor(private readonly db: Db) {}

  async list(projectId: string): Promise<WebhookConfigRow[]> {
    return this.db.selectFrom('webhook_config').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('id').execute();
  }

  async find(projectId: string, id: string): Promise<WebhookConfigRow | undefined> {
    return this.db.selectFrom('webhook_config').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  async findById(id: string): Promise<WebhookConfigRow | undefined> {
    return this.db.selectFrom('webhook_config').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Replaces every configuration of the project in one transaction (spec 4.5 rule 1). The
   * project row is locked first so that concurrent PATCHes serialize: locking the project's
   * configuration rows was not enough, since a project with none has no row to lock and ten
   * concurrent PATCHes each inserted their 20. The cap is checked again on what the
   * transaction wrote, before it commits. Returns the ids among `configs` that are not
   * configurations of this project (the caller answers 400).
   */
  async replaceAll(
    projectId: string,
    configs: WebhookConfigInput[],
    maxConfigs: number,
  ): Promise<{ rows: WebhookConfigRow[] } | { unknownIds: string[] } | { tooMany: number }> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('project').select('id').where('id', '=', projectId).forUpdate().execute();
      const existing = await trx.selectFrom('webhook_config').select('id').where('project_id', '=', projectId).forUpdate().execute();
      const known = new Set(existing.map((r) => r.id));
      const unknownIds = configs.filter((c) => c.id && !known.has(c.id)).map((c) => c.id!);
      if (unknownIds.length) return { unknownIds };
      const keep = configs.filter((c) => c.id).map((c) => c.id!);
      let del = trx.deleteFrom('webhook_config').where('project_id', '=', projectId);
      if (keep.length) del = del.where('id', 'not in', keep);
      await del.execute();
      const now = new Date();
      for (const [position, c] of configs.entries()) {
        const values = { name: c.name, url: c.url, trigger_action: c.triggerAction, enabled: c.enabled, secret_encrypted: c.secretEncrypted, position, updated_at: now };
        if (c.id) await trx.updateTable('webhook_config').set(values).where('id', '=', c.id).execute();
        else await trx.insertInto('webhook_config').values({ id: newId('whk'), project_id: projectId, ...values }).execute();
      }
      const rows = await trx.selectFrom('webhook_config').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('id').execute();
      // Throwing rolls the transaction back: nothing over the cap is ever committed.
      if (rows.length > maxConfigs) throw new CapExceeded(rows.length);
      return { rows };
    }).catch((err: unknown) => {
      if (err instanceof CapExceeded) return { tooMany: err.count };
      throw err;
    });
  }
}

class CapExceeded extends Error {
  constructor(readonly count: number) {
    super(`${count} webhook configurations`);
  }
}

/** Outbox dispatch, deliveries and the attempt log. */
export class WebhookDeliveryRepository {
  constructor(private readonly db: Db) {}

  /**
   * Turns undispatched events into deliveries (one per event x enabled subscribed
   * configuration), in one transaction with marking the events dispatched. SKIP LOCKED lets
   * several webhook services dispatch at once without taking the same events.
   */
  async dispatchEvents(limit: number, buildBody: (deliveryId: string, event: { id: string; type: string; created_at: Date; project_id: string; data: unknown }) => string) {
    return this.db.transaction().execute(async (trx) => {
      const events = await trx
        .selectFrom('event')
        .select(['id', 'type', 'created_at', 'project_id', 'data'])
        .where('dispatched_at', 'is', null)
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (!events.length) return { events: 0, deliveries: [] as { id: string; webhookId: string }[] };
      const projectIds = [...new Set(events.map((e) => e.project_id))];
      const configs = await trx
        .selectFrom('webhook_config')
        .select(['id', 'project_id', 'trigger_action'])
        .where('project_id', 'in', projectIds)
        .where('enabled', '=', true)
        .execute();
      const rows = events.flatMap((event) =>
        configs
          .filter((c) => c.project_id === event.project_id && c.trigger_action === event.type)
          .map((c) => {
            const id = newId('dlv');
            return { id, event_id: event.id, webhook_id: c.id, project_id: event.project_id, event_type: event.type, body: buildBody(id, event) };
          }),
      );
      const inserted: { id: string; webhookId: string }[] = [];
      for (let i = 0; i < rows.length; i += 500) {
        inserted.push(
          ...(await trx
            .insertInto('webhook_delivery')
            .values(rows.slice(i, i + 500))
            .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
            .returning(['id', 'webhook_id as webhookId'])
            .execute()),
        );
      }
      await trx
        .updateTable('event')
        .set({ dispatched_at: new Date() })
        .where('id', 'in', events.map((e) => e.id))
        .execute();
      return { events: events.length, deliveries: inserted };
    });
  }

  /**
   * Claims attempt `attempt` of a pending delivery for `leaseMs`: only one process sends a
   * given attempt, and a claim held by a crashed process expires.
   */
  async claimAttempt(id: string, attempt: number, leaseMs: number): Promise<ClaimedDelivery | undefined> {
    // The receiving configuration comes back in the same round trip (null when deleted).
    return this.db
      .updateTable('webhook_delivery')
      .set({ locked_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempt - 1)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
      .returning(['id', 'webhook_id', 'project_id', 'event_type', 'body'])
      .returning((eb) => [
        eb.selectFrom('webhook_config as c').select('c.url').whereRef('c.id', '=', 'webhook_delivery.webhook_id').as('url'),
        eb.selectFrom('webhook_config as c').select('c.enabled').whereRef('c.id', '=', 'webhook_delivery.webhook_id').as('enabled'),
        eb.selectFrom('webhook_config as c').select('c.secret_encrypted').whereRef('c.id', '=', 'webhook_delivery.webhook_id').as('secret_encrypted'),
      ])
      .executeTakeFirst();
  }

  async releaseClaim(id: string): Promise<void> {
    await this.db.updateTable('webhook_delivery').set({ locked_until: null }).where('id', '=', id).execute();
  }

  /**
   * Logs an attempt and moves the delivery on (delivered, failed, or pending until
   * `nextAttemptAt`) in one statement. The state moves only from the attempt before this one:
   * a worker whose lease ran out mid-send, while another took the attempt over and delivered
   * it, still logs what it saw but can no longer turn `delivered` back into pending or failed.
   */
  async recordAttempt(
    delivery: Pick<WebhookDeliveryRow, 'id' | 'webhook_id' | 'project_id' | 'event_type'>,
    attempt: { number: number; success: boolean; statusCode: number | null; durationMs: number; error: string | null; final: boolean; nextAttemptAt: Date | null },
  ): Promise<void> {
    const status = attempt.success ? 'delivered' : attempt.final ? 'failed' : 'pending';
    await sql`
      with logged as (
        insert into webhook_attempt (delivery_id, webhook_id, project_id, event_type, attempt, test, success, status_code, duration_ms, error)
        values (${delivery.id}, ${delivery.webhook_id}, ${delivery.project_id}, ${delivery.event_type}, ${attempt.number}, false,
                ${attempt.success}, ${attempt.statusCode}, ${Math.round(attempt.durationMs)}, ${attempt.error})
      )
      update webhook_delivery
      set status = ${status}, attempts = ${attempt.number}, locked_until = null,
          next_attempt_at = coalesce(${attempt.nextAttemptAt}::timestamptz, next_attempt_at),
          finished_at = case when ${status} = 'pending' then null else now() end
      where id = ${delivery.id} and status = 'pending' and attempts = ${attempt.number - 1}`.execute(this.db);
  }

  async markFailed(id: string): Promise<void> {
    await this.db.updateTable('webhook_delivery').set({ status: 'failed', locked_until: null, finished_at: new Date() }).where('id', '=', id).execute();
  }

  async logAttempt(
    a: { deliveryId: string | null; webhookId: string; projectId: string; eventType: EventType; number: number; success: boolean; statusCode: number | null; durationMs: number; error: string | null; test: boolean },
    executor: Db | Transaction<Database> = this.db,
  ): Promise<void> {
    await executor
      .insertInto('webhook_attempt')
      .values({
        delivery_id: a.deliveryId,
        webhook_id: a.webhookId,
        project_id: a.projectId,
        event_type: a.eventType,
        attempt: a.number,
        test: a.test,
        success: a.success,
        status_code: a.statusCode,
        duration_ms: Math.round(a.durationMs),
        error: a.error,
      })
      .execute();
  }

  async recentAttempts(projectId: string, limit: number): Promise<WebhookAttemptRow[]> {
    return this.db.selectFrom('webhook_attempt').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(limit).execute();
  }

  /** Pending deliveries whose next attempt is overdue by `graceMs` and not claimed: their task may be lost. */
  async findOverdue(graceMs: number, limit: number): Promise<Pick<WebhookDeliveryRow, 'id' | 'attempts'>[]> {
    return this.db
      .selectFrom('webhook_delivery')
      .select(['id', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<', new Date(Date.now() - graceMs))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  async findById(id: string): Promise<WebhookDeliveryRow | undefined> {
    return this.db.selectFrom('webhook_delivery').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
