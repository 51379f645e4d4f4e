import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, newId } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, WebhookAttemptTable, WebhookDeliveryTable } from '../schema';

export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

/** A claimed attempt with its receiving configuration (url null when the config was deleted). */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  project_id: string;
  event_type: EventType;
  body: string;
  /** Attempts made so far: the claimed attempt is number `attempts + 1`. */
  attempts: number;
  /** The attempt number this delivery may reach (5; +1 per resend or replay). */
  max_attempts: number;
  /** A resend or replay asked for this attempt. */
  manual: boolean;
  url: string | null;
  enabled: boolean | null;
  secret_encrypted: string | null;
  /** The secret of a rotation in progress (null when none or its grace is over). */
  previous_secret_encrypted: string | null;
}

/** The outcome of one attempt, as `recordAttempts` logs it. */
export interface AttemptOutcome {
  deliveryId: string;
  webhookId: string;
  projectId: string;
  eventType: string;
  number: number;
  manual: boolean;
  success: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the receiver's answer, bounded by the caller. */
  responseBody: string | null;
  /** No attempt follows a failure of this one. */
  final: boolean;
  nextAttemptAt: Date | null;
}

/**
 * When `recordAttempts` disables a failing endpoint: after failing for `afterMs` without a single
 * success. `reason` is the text recorded on it (and shown to its owner), followed by the moment
 * it started failing (ISO 8601, UTC). The deliverer decides both; this repository only applies them.
 */
export interface AutoDisablePolicy {
  afterMs: number;
  reason: string;
}

/** An endpoint that `recordAttempts` disabled after failing for too long. */
export interface DisabledEndpoint {
  id: string;
  project_id: string;
  url: string;
  failing_since: Date;
}

/** Arbitrary constant: the advisory lock that serializes delivery claims across processes. */
const CLAIM_LOCK_KEY = 726_351_002;

/** Outbox dispatch, deliveries and the attempt log. */
export class WebhookDeliveryRepository {
  constructor(private readonly db: Db) {}

  /**
   * Turns undispatched events into deliveries (one per event x enabled subscribed
   * configuration), in one transaction with marking the events dispatched. SKIP LOCKED lets
   * several webhook services dispatch at once without taking the same events.
   */
  async dispatchEvents(
    limit: number,
    buildBody: (deliveryId: string, event: { id: string; type: string; created_at: Date; project_id: string; data: unknown }) => string,
  ) {
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
            return {
              id,
              event_id: event.id,
              webhook_id: c.id,
              project_id: event.project_id,
              event_type: event.type,
              body: buildBody(id, event),
            };
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
        .where(
          'id',
          'in',
          events.map((e) => e.id),
        )
        .execute();
      return { events: events.length, deliveries: inserted };
    });
  }

  /**
   * Claims up to `limit` due attempts for `leaseMs` in one statement: pending deliveries whose
   * next attempt time has come and that no live lease holds. An endpoint gets at most
   * `endpointCap` attempts in flight across all processes: endpoints at their cap are skipped
   * (a dead receiver holds at most that many and never starves the others), and the others get
   * the slots they have left. The due deliveries are read in due order, a bounded window at a
   * time, never all of them. Claims are serialized by a transaction-scoped advisory lock, which
   * makes the cap exact; it is held for this statement only. A lease held by a crashed process
   * expires and its attempt is claimed again: an attempt is never lost.
   */
  async claimDue(limit: number, leaseMs: number, endpointCap: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    return this.db.transaction().execute(async (trx) => {
      // A claim need not wait for its WAL flush: lost in a Postgres crash, the lease is simply
      // gone and the attempt claimed again (outcomes, which must hold, are committed durably).
      await sql`select set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`.execute(trx);
      const { rows } = await sql<ClaimedDelivery>`
        with busy as (
          select webhook_id, count(*)::int as leased from webhook_delivery
          where status = 'pending' and locked_until is not null and locked_until >= now()
          group by webhook_id
        ), candidates as (
          select d.id, d.webhook_id, d.next_attempt_at from webhook_delivery d
          where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
            and d.webhook_id not in (select webhook_id from busy where leased >= ${endpointCap})
          order by d.next_attempt_at
          limit ${Math.max(limit * 4, 200)}
        ), ranked as (
          select c.id, c.next_attempt_at,
                 coalesce(b.leased, 0) + row_number() over (partition by c.webhook_id order by c.next_attempt_at, c.id) as slot
          from candidates c left join busy b on b.webhook_id = c.webhook_id
        ), picks as (
          select id from ranked where slot <= ${endpointCap} order by next_attempt_at limit ${limit}
        ), claimed as (
          update webhook_delivery d set locked_until = now() + ${`${leaseMs} milliseconds`}::interval
          from picks where d.id = picks.id and d.status = 'pending' and (d.locked_until is null or d.locked_until < now())
          returning d.id, d.webhook_id, d.project_id, d.event_type, d.body, d.attempts, d.max_attempts, d.resend_requested_at is not null as manual
        )
        select claimed.*, c.url, c.enabled, c.secret_encrypted,
               case when c.previous_secret_expires_at > now() then c.previous_secret_encrypted end as previous_secret_encrypted
        from claimed left join webhook_config c on c.id = claimed.webhook_id`.execute(trx);
      return rows;
    });
  }

  /**
   * Logs a batch of attempts, moves their deliveries on (delivered, failed, or pending until
   * `nextAttemptAt`) and keeps each endpoint's health, in one statement:
   * - a delivery moves only from the attempt before the logged one, so a process whose lease ran
   *   out mid-send, while another took the attempt over and delivered it, still logs what it saw
   *   but can no longer turn `delivered` back into pending or failed;
   * - an endpoint with a success in the batch is healthy again; one with failures only is
   *   failing since its first failure, and once failing for `policy.afterMs` it is disabled
   *   with `policy.reason` (followed by when it started failing) as its reason.
   *   Healthy endpoints are not written to, so successes never contend with a PATCH.
   * Returns the endpoints this batch disabled (none when `policy` is null); their
   * deliveries waiting for a later attempt are failed at once.
   */
  async recordAttempts(attempts: AttemptOutcome[], policy: AutoDisablePolicy | null): Promise<DisabledEndpoint[]> {
    if (!attempts.length) return [];
    const col = <T>(f: (a: AttemptOutcome) => T) => attempts.map(f);
    const disableAfter = policy === null ? null : `${policy.afterMs} milliseconds`;
    const failingTooLong = sql`coalesce(c.enabled and not h.ok and c.failing_since < now() - ${disableAfter}::interval, false)`;
    const { rows } = await sql<DisabledEndpoint>`
      with input as (
        select * from unnest(
          ${col((a) => a.deliveryId)}::text[], ${col((a) => a.webhookId)}::text[], ${col((a) => a.projectId)}::text[],
          ${col((a) => a.eventType)}::text[], ${col((a) => a.number)}::int[], ${col((a) => a.manual)}::bool[],
          ${col((a) => a.success)}::bool[], ${col((a) => a.statusCode)}::int[], ${col((a) => Math.round(a.durationMs))}::int[],
          ${col((a) => a.error)}::text[], ${col((a) => a.responseBody)}::text[], ${col((a) => a.final)}::bool[],
          ${col((a) => a.nextAttemptAt?.toISOString() ?? null)}::timestamptz[]
        ) as t(delivery_id, webhook_id, project_id, event_type, attempt, manual, success, status_code, duration_ms, error, response_body, final, next_attempt_at)
      ), logged as (
        insert into webhook_attempt (delivery_id, webhook_id, project_id, event_type, attempt, test, manual, success, status_code, duration_ms, error, response_body)
        select delivery_id, webhook_id, project_id, event_type, attempt, false, manual, success, status_code, duration_ms, error, response_body from input
      ), moved as (
        update webhook_delivery d
        set status = case when i.success then 'delivered' when i.final then 'failed' else 'pending' end,
            attempts = i.attempt, locked_until = null, resend_requested_at = null,
            next_attempt_at = coalesce(i.next_attempt_at, d.next_attempt_at),
            finished_at = case when i.success or i.final then now() end
        from input i
        where d.id = i.delivery_id and d.status = 'pending' and d.attempts = i.attempt - 1
      ), health as (
        select webhook_id, bool_or(success) as ok from input group by webhook_id
      ), endpoints as (
        update webhook_config c
        set failing_since = case when h.ok then null else coalesce(c.failing_since, now()) end,
            enabled = c.enabled and not (${failingTooLong}),
            disabled_at = case when ${failingTooLong} then now() else c.disabled_at end,
            disabled_reason = case when ${failingTooLong}
              then ${policy?.reason ?? ''}::text || ' ' || to_char(c.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
              else c.disabled_reason end
        from health h
        where c.id = h.webhook_id and ((h.ok and c.failing_since is not null) or (not h.ok and c.failing_since is null) or ${failingTooLong})
        returning c.id, c.project_id, c.url, c.failing_since, c.enabled, c.disabled_at
      )
      select id, project_id, url, failing_since from endpoints where not enabled and disabled_at = now()`.execute(this.db);
    if (rows.length) {
      // Their waiting deliveries fail now (replayable once the endpoint is re-enabled) rather
      // than when their next attempt comes due; attempts in flight end by their own outcome.
      await this.db
        .updateTable('webhook_delivery')
        .set({ status: 'failed', finished_at: new Date(), locked_until: null })
        .where(
          'webhook_id',
          'in',
          rows.map((r) => r.id),
        )
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
        .execute();
    }
    return rows;
  }

  /** A pending delivery whose webhook configuration was deleted: it will never be sent. */
  async markCancelled(id: string): Promise<void> {
    await this.db
      .updateTable('webhook_delivery')
      .set({ status: 'cancelled', locked_until: null, finished_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  async markFailed(id: string): Promise<void> {
    await this.db
      .updateTable('webhook_delivery')
      .set({ status: 'failed', locked_until: null, finished_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  async logAttempt(
    a: {
      deliveryId: string | null;
      webhookId: string;
      projectId: string;
      eventType: EventType;
      number: number;
      success: boolean;
      statusCode: number | null;
      durationMs: number;
      error: string | null;
      responseBody: string | null;
      test: boolean;
    },
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
        response_body: a.responseBody,
      })
      .execute();
  }

  async recentAttempts(projectId: string, limit: number): Promise<WebhookAttemptRow[]> {
    return this.db
      .selectFrom('webhook_attempt')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async findById(id: string): Promise<WebhookDeliveryRow | undefined> {
    return this.db.selectFrom('webhook_delivery').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
