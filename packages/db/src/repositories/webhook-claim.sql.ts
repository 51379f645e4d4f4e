/**
 * The webhook deliverer's claim (WebhookDeliveryRepository.claimDue) as one function call: one
 * round trip instead of four (begin, lock, claim, commit). Claims stay serialized by a
 * transaction-scoped advisory lock, which keeps the per-endpoint cap exact across processes; the
 * claim runs after the lock is granted, so in a VOLATILE function it takes a snapshot that
 * already sees the claims committed before it (a single statement would have taken its snapshot
 * before waiting). The lock is held while the function runs and its commit, which is
 * asynchronous (a claim lost in a Postgres crash is a lease that never was: the attempt is
 * claimed again).
 *
 * The cap counts attempts in flight, not leases: each claimant (`p_owner`) passes what it holds
 * per endpoint, being sent or about to be (`p_held_*`), and the claim publishes that plus what
 * it claimed in `webhook_claimant`, until its lease time. Other claimants' published loads all
 * count. An answered attempt whose outcome is not logged yet still has its lease (no one else
 * may send it) but no longer takes a slot. No claim reads the leased deliveries.
 *
 * A claim also moves the delivery's next attempt to the end of its lease: that is when it is
 * attempted again should the claimant die, and the due deliveries the next claim reads through
 * the due index are then only those no one holds (leased ones no longer sit at its head).
 *
 * `p_skip`: endpoints the caller is holding back (paused by its circuit breaker), not claimed.
 * Rows come back in due order, each with its receiving configuration (url null when deleted).
 *
 * Migration 202611281000_webhook_claim_function applies this text, so it must stay what that
 * migration first ran, byte for byte: Postgres stores the body between the `$$` as written
 * (indentation included), and webhook-claim.sql.test.ts pins it. A new claim is a copy of this
 * text into that migration first, then a change here applied by a new migration. The SQL is a
 * string in a .ts module rather than a .sql file because tsc copies no .sql file into dist, and
 * the migration runs from dist (`pnpm migrate`, the image's `packages/db/dist/migrate-main.js`).
 */
export const WEBHOOK_CLAIM_DUE_SQL = `
    create or replace function webhook_claim_due(
      p_owner text, p_limit int, p_lease_ms int, p_endpoint_cap int, p_held_webhooks text[], p_held_counts int[], p_skip text[]
    )
    returns table (
      id text, webhook_id text, project_id text, event_type text, body text, attempts int, max_attempts int,
      manual boolean, url text, enabled boolean, secret_encrypted text, previous_secret_encrypted text
    )
    language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      v_lease interval := make_interval(secs => p_lease_ms / 1000.0);
    begin
      perform set_config('synchronous_commit', 'off', true);
      perform pg_advisory_xact_lock(726351002);
      return query
        with mine as (
          select h.webhook_id, h.n from unnest(p_held_webhooks, p_held_counts) as h(webhook_id, n)
        ), busy as (
          select u.webhook_id, sum(u.n)::int as held from (
            select h.webhook_id, h.n from webhook_claimant c, unnest(c.webhook_ids, c.held) as h(webhook_id, n)
            where c.claimant_id <> p_owner and c.expires_at > now()
            union all
            select m.webhook_id, m.n from mine m
          ) u group by u.webhook_id
        ), candidates as (
          select d.id, d.webhook_id, d.next_attempt_at from webhook_delivery d
          where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
            and d.webhook_id not in (select b.webhook_id from busy b where b.held >= p_endpoint_cap)
            and d.webhook_id <> all (coalesce(p_skip, '{}'))
          order by d.next_attempt_at
          limit greatest(p_limit * 4, 200)
        ), ranked as (
          select c.id, c.next_attempt_at,
                 coalesce(b.held, 0) + row_number() over (partition by c.webhook_id order by c.next_attempt_at, c.id) as slot
          from candidates c left join busy b on b.webhook_id = c.webhook_id
        ), picks as (
          select r.id, r.next_attempt_at from ranked r where r.slot <= p_endpoint_cap order by r.next_attempt_at limit p_limit
        ), claimed as (
          update webhook_delivery d set locked_until = now() + v_lease, next_attempt_at = now() + v_lease, locked_by = p_owner
          from picks where d.id = picks.id and d.status = 'pending' and (d.locked_until is null or d.locked_until < now())
          returning d.id, d.webhook_id, d.project_id, d.event_type, d.body, d.attempts, d.max_attempts,
                    d.resend_requested_at is not null as manual, picks.next_attempt_at
        ), load as (
          select x.webhook_id, sum(x.n)::int as n from (
            select k.webhook_id, 1 as n from claimed k
            union all
            select m.webhook_id, m.n from mine m
          ) x group by x.webhook_id
        ), published as (
          insert into webhook_claimant (claimant_id, webhook_ids, held, expires_at)
          select p_owner, coalesce(array_agg(l.webhook_id), '{}'), coalesce(array_agg(l.n), '{}'), now() + v_lease from load l
          on conflict (claimant_id) do update
            set webhook_ids = excluded.webhook_ids, held = excluded.held, expires_at = excluded.expires_at
        )
        select k.id, k.webhook_id, k.project_id, k.event_type, k.body, k.attempts, k.max_attempts, k.manual,
               c.url, c.enabled, c.secret_encrypted,
               case when c.previous_secret_expires_at > now() then c.previous_secret_encrypted end
        from claimed k left join webhook_config c on c.id = k.webhook_id
        order by k.next_attempt_at;
      -- Claimants that stopped (or crashed) long ago.
      delete from webhook_claimant where expires_at < now() - interval '1 minute';
    end
    $$`;
