import { type Selectable, sql, type Transaction } from 'kysely';
import { newId } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, WebhookAttemptTable, WebhookConfigTable, WebhookDeliveryTable } from '../schema';

export type WebhookConfigRow = Selectable<WebhookConfigTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

export interface WebhookConfigInput {
  id?: string;
  name: string | null;
  url: string;
  triggerAction: string;
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
   * project's rows are locked first so that two concurrent PATCHes serialize. Returns the ids
   * among `configs` that are not configurations of this project (the caller answers 400).
   */
  async replaceAll(projectId: string, configs: WebhookConfigInput[]): Promise<{ rows: WebhookConfigRow[] } | { unknownIds: string[] }> {
    return this.db.transaction().execute(async (trx) => {
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
      return { rows };
    });
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
      const inserted = rows.length
        ? await trx
            .insertInto('webhook_delivery')
            .values(rows)
            .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
            .returning(['id', 'webhook_id as webhookId'])
            .execute()
        : [];
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
  async claimAttempt(id: string, attempt: number, leaseMs: number): Promise<WebhookDeliveryRow | undefined> {
    return this.db
      .updateTable('webhook_delivery')
      .set({ locked_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempt - 1)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
      .returningAll()
      .executeTakeFirst();
  }

  async releaseClaim(id: string): Promise<void> {
    await this.db.updateTable('webhook_delivery').set({ locked_until: null }).where('id', '=', id).execute();
  }

  /** Logs an attempt and moves the delivery on (delivered, failed, or pending until `nextAttemptAt`) atomically. */
  async recordAttempt(
    delivery: Pick<WebhookDeliveryRow, 'id' | 'webhook_id' | 'project_id' | 'event_type'>,
    attempt: { number: number; success: boolean; statusCode: number | null; durationMs: number; error: string | null; final: boolean; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.logAttempt({ deliveryId: delivery.id, webhookId: delivery.webhook_id, projectId: delivery.project_id, eventType: delivery.event_type, ...attempt, test: false }, trx);
      const status = attempt.success ? 'delivered' : attempt.final ? 'failed' : 'pending';
      await trx
        .updateTable('webhook_delivery')
        .set({
          status,
          attempts: attempt.number,
          locked_until: null,
          ...(attempt.nextAttemptAt ? { next_attempt_at: attempt.nextAttemptAt } : {}),
          ...(status === 'pending' ? {} : { finished_at: new Date() }),
        })
        .where('id', '=', delivery.id)
        .execute();
    });
  }

  async markFailed(id: string): Promise<void> {
    await this.db.updateTable('webhook_delivery').set({ status: 'failed', locked_until: null, finished_at: new Date() }).where('id', '=', id).execute();
  }

  async logAttempt(
    a: { deliveryId: string | null; webhookId: string; projectId: string; eventType: string; number: number; success: boolean; statusCode: number | null; durationMs: number; error: string | null; test: boolean },
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
