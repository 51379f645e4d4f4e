import { AppError, isTerminal } from '@crawl/core';
import { type JobRepository, type JobRetentionState, type JobRow, RetentionRepository } from '@crawl/db';
import { drainPurgedResults } from '@crawl/jobs';
import type { GatewayContext } from '../../context';

export type JobWithRetention = JobRow & JobRetentionState;

export interface JobResultsDeps {
  jobs: JobRepository;
  retention: RetentionRepository;
  /** Result rows per DELETE statement (the retention sweep's batch size). */
  batchSize: number;
  /**
   * How long a DELETE request deletes rows itself before answering; rows left then are deleted
   * by the scheduler's retention sweep. The results answer 410 at once either way.
   */
  inlineBudgetMs: number;
}

/**
 * Results of a job whose results were deleted or purged by retention answer 410 GONE (see
 * docs/http-api.md), results and export alike, whatever the job's status.
 */
export function assertResultsAvailable(job: JobWithRetention): void {
  if (!job.results_purged_at) return;
  throw new AppError(
    'GONE',
    `The results of job ${job.id} were deleted on ${job.results_purged_at.toISOString()} (by request or by the retention of the plan); the job itself remains.`,
  );
}

/** `DELETE /jobs/{id}`: removes a finished job's results; the job row stays as a tombstone for the ledger. */
export class JobResultsService {
  constructor(private readonly deps: JobResultsDeps) {}

  async deleteResults(jobId: string, projectId: string): Promise<JobWithRetention> {
    const job = await this.deps.jobs.findInProject(jobId, projectId);
    if (!job) throw new AppError('NOT_FOUND', `Job ${jobId} not found.`);
    const refuse = (status: JobRow['status']) =>
      new AppError(
        'INVALID_STATE',
        `Job ${jobId} is ${status}; only completed, failed or cancelled jobs can be deleted (cancel it first).`,
        { details: { status } },
      );
    if (!isTerminal(job.status)) throw refuse(job.status);
    if (!(await this.deps.retention.markDeleted(jobId, projectId))) throw refuse(job.status);
    await drainPurgedResults(this.deps.retention, jobId, this.deps.batchSize, Date.now() + this.deps.inlineBudgetMs);
    const deleted = await this.deps.jobs.findInProject(jobId, projectId);
    if (!deleted) throw new AppError('NOT_FOUND', `Job ${jobId} not found.`);
    return deleted;
  }
}

/** DELETE /jobs/{id}'s service: results go in batches, and the answer waits at most 2 s for them. */
export const createJobResultsService = (ctx: Pick<GatewayContext, 'db' | 'jobs'>): JobResultsService =>
  new JobResultsService({ jobs: ctx.jobs, retention: new RetentionRepository(ctx.db), batchSize: 5_000, inlineBudgetMs: 2_000 });
