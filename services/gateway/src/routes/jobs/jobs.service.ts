import { type JobSpec, TurnBatcher } from '@crawl/core';
import {
  type CreditRepository,
  type JobRepository,
  JobTargetRepository,
  type JobRow,
  type ProjectPrincipal,
  ReleaseWindowRepository,
  type ResultJob,
  type ResultRepository,
} from '@crawl/db';
import { JobService, ReleaseWindow, type RetryTargets } from '@crawl/jobs';
import type { Response } from 'express';
import type { ExportFormat } from '@crawl/exports';
import { streamExport } from '../../export/stream';
import type { GatewayContext } from '../../context';
import type { ExportGate } from '../../export/export-gate';
import { createJobResultsService, type JobResultsService, type JobWithRetention } from './job-results.service';
import type { listJobsQuery } from './jobs.schemas';
import type { z } from 'zod';

interface JobKey {
  id: string;
  projectId: string;
}

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
  /**
   * Job reads of one turn of the event loop share a statement (clients polling their jobs):
   * each starts after its request arrived, so it is as fresh as a read of its own.
   */
  private readonly reads = new TurnBatcher<JobKey, JobWithRetention | undefined>((keys) => this.findMany(keys));

  constructor(private readonly deps: JobsServiceDeps) {}

  /** The job if it is the project's, with its retention state. */
  find(jobId: string, projectId: string): Promise<JobWithRetention | undefined> {
    return this.reads.add({ id: jobId, projectId });
  }

  private async findMany(keys: JobKey[]): Promise<(JobWithRetention | undefined)[]> {
    if (keys.length === 1) return [await this.deps.jobs.findInProject(keys[0]!.id, keys[0]!.projectId)];
    const unique = [...new Map(keys.map((k) => [`${k.projectId} ${k.id}`, k])).values()];
    const rows = new Map((await this.deps.jobs.findManyInProjects(unique)).map((row) => [`${row.project_id} ${row.id}`, row]));
    return keys.map((k) => rows.get(`${k.projectId} ${k.id}`));
  }

  /** The new job, and the organization's balance right after its reservation. */
  create(spec: JobSpec, principal: ProjectPrincipal, options: { idempotencyKey: string | undefined }) {
    return this.deps.jobService.accept(spec, principal, options);
  }

  estimate(spec: JobSpec, principal: ProjectPrincipal) {
    return this.deps.jobService.estimate(spec, principal);
  }

  list(projectId: string, query: z.output<typeof listJobsQuery>) {
    return this.deps.jobs.list({ projectId, ...query });
  }

  /** A page of the job's items, each read as an item of its type's current schema (ResultRepository). */
  resultsPage(job: ResultJob, limit: number, offset: number) {
    return this.deps.results.page(job, limit, offset);
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

  /** Streams a completed job's results as a file (export/stream.ts). */
  export(job: JobRow, format: ExportFormat, res: Response): Promise<void> {
    return streamExport(this.deps, job, format, res);
  }
}

/**
 * Creating, estimating, retrying and cancelling jobs (packages/jobs), as the gateway does it: a
 * cancel refills the organization's release window at once (CRAWL_ORG_WINDOW).
 */
export function createJobService(ctx: Pick<GatewayContext, 'db' | 'jobs' | 'credits' | 'producer' | 'log' | 'settings'>): JobService {
  const { db, producer, log } = ctx;
  return new JobService({
    db,
    jobs: ctx.jobs,
    targets: new JobTargetRepository(db),
    credits: ctx.credits,
    producer,
    log,
    releases: new ReleaseWindow({ db, windows: new ReleaseWindowRepository(db), producer, log, window: ctx.settings.crawlOrgWindow }),
  });
}

/** The jobs resource's service, built from the gateway's shared infrastructure. */
export const createJobsService = (ctx: GatewayContext): JobsService =>
  new JobsService({
    jobs: ctx.jobs,
    results: ctx.results,
    credits: ctx.credits,
    exportGate: ctx.exportGate,
    jobService: createJobService(ctx),
    jobResults: createJobResultsService(ctx),
  });
