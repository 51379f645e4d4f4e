import { randomUUID } from 'node:crypto';
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
      // Each event with the enabled configurations subscribed to it, in the same round trip.
      const { rows: events } = await sql<{
        id: string;
        type: string;
        created_at: Date;
        project_id: string;
        data: unknown;
        webhook_ids: string[];
      }>`
        select e.id, e.type, e.created_at, e.project_id, e.data,
               array(select c.id from webhook_config c
                     where c.project_id = e.project_id and c.trigger_action = e.type and c.enabled order by c.id) as webhook_ids
        from event e
        where e.dispatched_at is null
        order by e.created_at
        limit ${limit}
        for update of e skip locked`.execute(trx);
      if (!events.length) return { events: 0, deliveries: [] as { id: string; webhookId: string }[] };
      const rows = events.flatMap((event) =>
        event.webhook_ids.map((webhookId) => {
          const id = newId('dlv');
          return {
            id,
            event_id: event.id,
            webhook_id: webhookId,
            project_id: event.project_id,
            event_type: event.type,
            body: buildBody(id, event),
          };
        }),
      );
      // One statement, which also marks the events dispatched. The rows go as arrays: a multi-row
      // VALUES list would cost Postgres a parse and plan of thousands of parameters. The events
      // go as a list, which plans as primary key lookups whatever the table's statistics say.
      const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
      const { rows: inserted } = await sql<{ id: string; webhookId: string }>`
        with inserted as (
          insert into webhook_delivery (id, event_id, webhook_id, project_id, event_type, body)
          select * from unnest(
            ${col((r) => r.id)}::text[], ${col((r) => r.event_id)}::text[], ${col((r) => r.webhook_id)}::text[],
            ${col((r) => r.project_id)}::text[], ${col((r) => r.event_type)}::text[], ${col((r) => r.body)}::text[]
          )
          on conflict (event_id, webhook_id) do nothing
          returning id, webhook_id
        ), dispatched as (
          update event set dispatched_at = now() where id in (${sql.join(events.map((e) => e.id))})
        )
        select id, webhook_id as "webhookId" from inserted`.execute(trx);
      return { events: events.length, deliveries: inserted };
    });
  }

  /**
   * Claims up to `limit` due attempts for `leaseMs` in one round trip (the `webhook_claim_due`
   * function): pending deliveries whose next attempt time has come and that no live lease
   * holds, in due order. An endpoint gets at most `endpointCap` attempts in flight across all
   * processes: endpoints at their cap are skipped (a dead receiver holds at most that many and
   * never starves the others), and the others get the slots they have left. The due deliveries
   * are read a bounded window at a time, never all of them. Claims are serialized by an advisory
   * lock held for the call only, which makes the cap exact. A lease held by a crashed process
   * expires and its attempt is claimed again: an attempt is never lost.
   *
   * `claimant.owner` names the caller across its claims, and `claimant.held` says what it holds
   * per endpoint now (being sent or about to be): answered attempts no longer take slots, logged
   * or not. Each claim publishes the caller's load (held plus claimed) until its lease time;
   * other claimants count by their last published loads. A claim without an owner counts what
   * it claims until its lease time. Endpoints in `claimant.skip` are not claimed.
   */
  async claimDue(
    limit: number,
    leaseMs: number,
    endpointCap: number,
    claimant: { owner?: string; held?: ReadonlyMap<string, number>; skip?: readonly string[] } = {},
  ): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const held = [...(claimant.held ?? new Map<string, number>())].filter(([, n]) => n > 0);
    const { rows } = await sql<ClaimedDelivery>`
      select * from webhook_claim_due(
        ${claimant.owner ?? randomUUID()}::text, ${limit}::int, ${Math.round(leaseMs)}::int, ${endpointCap}::int,
        ${held.map(([id]) => id)}::text[], ${held.map(([, n]) => n)}::int[], ${[...(claimant.skip ?? [])]}::text[]
      )`.execute(this.db);
    return rows;
  }

  /**
   * Holds an endpoint's pending deliveries back until `until` without counting an attempt: the
   * due ones that no other process is sending, and `released` (claimed by the caller and not
   * sent, whose leases end here). Attempts are only ever made later than scheduled, never
   * earlier, and keep their number and budget. Returns how many deliveries were held back.
   */
  async deferEndpoint(webhookId: string, until: Date, released: readonly string[] = []): Promise<number> {
    const mine = released.length ? sql`id in (${sql.join([...released])})` : sql`false`;
    const { numAffectedRows } = await sql`
      update webhook_delivery
      set next_attempt_at = case when ${mine} then ${until.toISOString()}::timestamptz
                                 else greatest(next_attempt_at, ${until.toISOString()}::timestamptz) end,
          locked_until = null
      where webhook_id = ${webhookId} and status = 'pending'
        and (${mine} or (next_attempt_at < ${until.toISOString()}::timestamptz and (locked_until is null or locked_until < now())))`.execute(
      this.db,
    );
    return Number(numAffectedRows ?? 0);
  }

  /** A claimant stopping: its published load no longer takes its endpoints' slots. */
  async retireClaimant(owner: string): Promise<void> {
    await this.db.deleteFrom('webhook_claimant').where('claimant_id', '=', owner).execute();
  }

  /**
   * Gives back claims that were not sent (a deliverer shutting down): due again at once for any
   * process, instead of when their leases expire. The caller holds those leases, still live.
   */
  async releaseClaims(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('webhook_delivery')
      .set({ locked_until: null, next_attempt_at: sql<Date>`now()` })
      .where('id', 'in', [...ids])
      .where('status', '=', 'pending')
      .execute();
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
   * deliveries waiting for a later attempt are failed at once, and so is a delivery whose
   * attempt is logged after its endpoint was disabled.
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
        set status = case when i.success then 'delivered' when i.final or e.disabled then 'failed' else 'pending' end,
            attempts = i.attempt, locked_until = null, resend_requested_at = null,
            next_attempt_at = coalesce(i.next_attempt_at, d.next_attempt_at),
            finished_at = case when i.success or i.final or e.disabled then now() end
        -- an attempt that ends after its endpoint was disabled (sent before, or logged behind the
        -- batch that disabled it) fails its delivery like the others waiting there
        from input i left join lateral (select not c.enabled as disabled from webhook_config c where c.id = i.webhook_id) e on true
        -- Pending at the attempt before, written so that only the primary key can find the rows:
        -- a plain status test would let the planner scan every pending delivery through the due
        -- index whenever its statistics lag behind a burst (a cost growing with the backlog).
        where d.id = i.delivery_id and (case when d.status = 'pending' then d.attempts end) = i.attempt - 1
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
