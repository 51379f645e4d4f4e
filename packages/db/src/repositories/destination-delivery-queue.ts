import { sql } from 'kysely';
import type { Db } from '../connection';
import type { DestinationRow } from './destination.repository';

/** A delivery a deliverer holds: the row's key, the attempt it is on, and where it writes. */
export interface ClaimedExportDelivery {
  destinationId: string;
  jobId: string;
  projectId: string;
  key: string;
  /** The attempt this claim is (1 for the first): the fence every later write checks. */
  attempt: number;
  destination: DestinationRow;
}

export interface ClaimOptions {
  /** How long the claim holds without a heartbeat: a killed deliverer's rows are free after it. */
  leaseMs: number;
  /** Deliveries of one project in flight across all deliverers: one tenant's backlog cannot take every slot. */
  perProject: number;
}

/**
 * The durable queue of export deliveries (docs/destinations.md, "Delivery"): due rows claimed one
 * at a time under a lease, fenced by their attempt number so that a deliverer whose lease ran out
 * (paused, partitioned) cannot overwrite what the one that took over recorded.
 */
export class DestinationDeliveryQueue {
  constructor(private readonly db: Db) {}

  /**
   * Claims the oldest due delivery of a project below its share of deliveries in flight, or
   * undefined when none is due. Claims are serialized by a transaction-scoped advisory lock, so the
   * per-project count is exact across processes; a claim is a few milliseconds against uploads of
   * seconds, so the lock costs no throughput.
   */
  async claim(options: ClaimOptions): Promise<ClaimedExportDelivery | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('destination_delivery_claim'))`.execute(trx);
      const claimed = await sql<{ destination_id: string; job_id: string; project_id: string; key: string; attempts: number }>`
        with busy as (
          select project_id, count(*) as n from destination_delivery
          where status = 'pending' and lease_until > now()
          group by project_id
        ), due as (
          select d.destination_id, d.job_id from destination_delivery d
          left join busy b on b.project_id = d.project_id
          where d.status = 'pending' and d.next_attempt_at <= now()
            and (d.lease_until is null or d.lease_until <= now())
            and coalesce(b.n, 0) < ${options.perProject}
          order by d.next_attempt_at, d.created_at
          limit 1
          for update of d skip locked
        )
        update destination_delivery t
        set attempts = t.attempts + 1,
            lease_until = now() + ${options.leaseMs} * interval '1 millisecond',
            updated_at = now()
        from due
        where t.destination_id = due.destination_id and t.job_id = due.job_id
        returning t.destination_id, t.job_id, t.project_id, t.key, t.attempts`.execute(trx);
      const row = claimed.rows[0];
      if (!row) return undefined;
      const destination = await trx.selectFrom('destination').selectAll().where('id', '=', row.destination_id).executeTakeFirstOrThrow();
      return {
        destinationId: row.destination_id,
        jobId: row.job_id,
        projectId: row.project_id,
        key: row.key,
        attempt: row.attempts,
        destination,
      };
    });
  }

  /** Extends a held lease; false when the claim is no longer this deliverer's (the caller stops). */
  async heartbeat(claim: ClaimedExportDelivery, leaseMs: number): Promise<boolean> {
    const result = await this.fenced(claim)
      .set({ lease_until: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delivered(claim: ClaimedExportDelivery, bytes: number): Promise<boolean> {
    const result = await this.fenced(claim)
      .set({
        status: 'delivered',
        bytes,
        lease_until: null,
        error_code: null,
        error_message: null,
        delivered_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a failed attempt: due again after `retryInMs`, or `failed` for good when null. */
  async failed(claim: ClaimedExportDelivery, error: { code: string; message: string }, retryInMs: number | null): Promise<boolean> {
    const result = await this.fenced(claim)
      .set({
        status: retryInMs === null ? 'failed' : 'pending',
        error_code: error.code,
        error_message: error.message,
        lease_until: null,
        next_attempt_at: sql`now() + ${retryInMs ?? 0} * interval '1 millisecond'`,
        updated_at: sql`now()`,
      })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claim back unspent (shutdown): due at once for another deliverer, the attempt not counted. */
  async release(claim: ClaimedExportDelivery): Promise<void> {
    await this.fenced(claim)
      .set({ lease_until: null, attempts: sql`attempts - 1`, updated_at: sql`now()` })
      .execute();
  }

  private fenced(claim: ClaimedExportDelivery) {
    return this.db
      .updateTable('destination_delivery')
      .where('destination_id', '=', claim.destinationId)
      .where('job_id', '=', claim.jobId)
      .where('status', '=', 'pending')
      .where('attempts', '=', claim.attempt);
  }
}
