import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database, PageCheckpoint } from '../schema';
import { CRAWL_SPEC_COLUMNS, crawlSpecOf } from './job.repository';

/**
 * The targets of jobs, one row each: what a worker crawls, the checkpoint of a multi-page
 * target, its outcome, and the bulk endings of a cancelled or failed job.
 */
export class JobTargetRepository {
  constructor(private readonly db: Db) {}

  /** Targets of a job that produced no result (failed, cancelled, or never crawled), in job order. */
  async targetsWithoutResult(jobId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('job_target')
      .select('target')
      .where('job_id', '=', jobId)
      .where('status', '!=', 'succeeded')
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.target);
  }

  /** Marks every not-yet-finished target cancelled; returns how many were. */
  async cancelPendingTargets(trx: Transaction<Database>, jobId: string): Promise<number> {
    const result = await trx
      .updateTable('job_target')
      .set({
        status: 'cancelled',
        error_code: 'CANCELLED',
        error_message: 'job cancelled before this target was crawled',
        finished_at: new Date(),
      })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Marks every not-yet-finished target failed with one code; returns the targets it failed. */
  async failPendingTargets(trx: Transaction<Database>, jobId: string, code: string, message: string): Promise<string[]> {
    const rows = await trx
      .updateTable('job_target')
      .set({ status: 'failed', error_code: code, error_message: message, finished_at: new Date() })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .returning('target')
      .execute();
    return rows.map((r) => r.target);
  }

  /** A job's targets released into the queue and not finished: what a restart re-adds when lost. */
  async releasedPendingTargetIndexes(jobId: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('job_target')
      .select('idx')
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .where('released_at', 'is not', null)
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.idx);
  }

  /** What a worker needs to crawl one target (its job's spec with it), or undefined when the job or target is gone. */
  async findTargetContext(jobId: string, idx: number) {
    const row = await this.db
      .selectFrom('job_target as t')
      .innerJoin('job as j', 'j.id', 't.job_id')
      .select([
        'j.project_id as projectId',
        'j.status as jobStatus',
        ...CRAWL_SPEC_COLUMNS.map((column) => `j.${column}` as const),
        't.target',
        't.status as targetStatus',
        't.page_checkpoint as pageCheckpoint',
      ])
      .where('t.job_id', '=', jobId)
      .where('t.idx', '=', idx)
      .executeTakeFirst();
    if (!row) return undefined;
    const { projectId, jobStatus, target, targetStatus, pageCheckpoint } = row;
    return { jobId, idx, projectId, jobStatus, target, targetStatus, pageCheckpoint, spec: crawlSpecOf(row) };
  }

  /** Whether a target is still to be crawled: pending, of a running job (a cheap check between pages). */
  async isTargetPending(jobId: string, idx: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('job_target as t')
      .innerJoin('job as j', 'j.id', 't.job_id')
      .select('t.idx')
      .where('t.job_id', '=', jobId)
      .where('t.idx', '=', idx)
      .where('t.status', '=', 'pending')
      .where('j.status', '=', 'running')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records the pages a still pending target crawled so far (a retried task goes on from the
   * next page). False when the target is no longer pending (cancelled meanwhile).
   */
  async saveCheckpoint(jobId: string, idx: number, checkpoint: PageCheckpoint): Promise<boolean> {
    const result = await this.db
      .updateTable('job_target')
      .set({ page_checkpoint: JSON.stringify(checkpoint) })
      .where('job_id', '=', jobId)
      .where('idx', '=', idx)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * pending -> succeeded/failed for one target. Returns false when the target is no longer
   * pending (cancelled, or finished by an earlier run of a task that was redelivered after a
   * crash): the caller then discards its results, so no target is ever stored twice.
   */
  async finishTarget(
    trx: Transaction<Database>,
    jobId: string,
    idx: number,
    outcome: { status: 'succeeded' | 'failed'; attempts: number; pagesCrawled: number; errorCode?: string; errorMessage?: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('job_target')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        pages_crawled: outcome.pagesCrawled,
        page_checkpoint: null,
        error_code: outcome.errorCode ?? null,
        error_message: outcome.errorMessage ?? null,
        finished_at: new Date(),
      })
      .where('job_id', '=', jobId)
      .where('idx', '=', idx)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
