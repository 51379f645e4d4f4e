import type { CreditRepository, JobRepository, JobRow, ProjectPrincipal, ResultRepository } from '@crawl/db';
import type { JobBody, JobService, RetryTargets } from '@crawl/jobs';
import type { Response } from 'express';
import { streamExport } from './export';
import type { ExportGate } from './export-gate';
import type { JobResultsService, JobWithRetention } from './job-results.service';
import type { listJobsQuery } from './jobs.schemas';
import type { z } from 'zod';

export interface JobsServiceDeps {
  jobs: JobRepository;
  results: ResultRepository;
  credits: CreditRepository;
  /** Creating, estimating, retrying and cancelling jobs (credits, queueing): packages/jobs. */
  jobService: JobService;
  /** DELETE /jobs/{id}: results removal. */
  jobResults: JobResultsService;
  exportGate: ExportGate;
}

/**
 * The jobs resource of the API: what its routes ask of jobs, their results and the credits,
 * so that the routes never reach a repository themselves.
 */
export class JobsService {
  constructor(private readonly deps: JobsServiceDeps) {}

  /** The job if it is the project's, with its retention state. */
  find(jobId: string, projectId: string): Promise<JobWithRetention | undefined> {
    return this.deps.jobs.findInProject(jobId, projectId);
  }

  create(body: JobBody, principal: ProjectPrincipal, options: { idempotencyKey: string | undefined }) {
    return this.deps.jobService.create(body, principal, options);
  }

  estimate(body: JobBody, principal: ProjectPrincipal) {
    return this.deps.jobService.estimate(body, principal);
  }

  list(projectId: string, query: z.output<typeof listJobsQuery>) {
    return this.deps.jobs.list({ projectId, ...query });
  }

  resultsPage(jobId: string, limit: number, offset: number) {
    return this.deps.results.page(jobId, limit, offset);
  }

  retry(jobId: string, principal: ProjectPrincipal, options: { idempotencyKey: string | undefined; targets: RetryTargets }) {
    return this.deps.jobService.retry(jobId, principal, options);
  }

  cancel(jobId: string, projectId: string) {
    return this.deps.jobService.cancel(jobId, projectId);
  }

  deleteResults(jobId: string, projectId: string): Promise<JobWithRetention> {
    return this.deps.jobResults.deleteResults(jobId, projectId);
  }

  /** The organization's credit balance (X-Credits-Remaining), undefined when it has no account row. */
  creditsRemaining(organizationId: string) {
    return this.deps.credits.balance(organizationId);
  }

  /** Streams a completed job's results as a file (export.ts). */
  export(job: JobRow, format: 'json' | 'csv' | 'llm', res: Response): Promise<void> {
    return streamExport(this.deps, job, format, res);
  }
}
