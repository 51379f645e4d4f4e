import { queryOptions } from '@tanstack/react-query';
import type { paths } from '@crawl/client/openapi';
import { api, type Schemas, unwrap } from '../../api/client';

export type Job = Schemas['Job'];
export type JobType = Job['type'];
export type JobStatus = Job['status'];
export type JobBody = Schemas['CreateJobBody'];
export type JobsQuery = NonNullable<paths['/v1/key/projects/{projectId}/jobs']['get']['parameters']['query']>;
export type ExportFormat = 'csv' | 'json' | 'llm';

/**
 * Query keys of jobs. Every list of a project's jobs starts with `['jobs', projectId]`, so that
 * one invalidation after a create, cancel or retry refreshes them all (the jobs page, a
 * schedule's fired jobs, the tracking page's comparison picker).
 */
export const jobKeys = {
  ofProject: (projectId: string) => ['jobs', projectId] as const,
  list: (projectId: string, query: JobsQuery) => ['jobs', projectId, query] as const,
  firedSince: (projectId: string, since: string | undefined) => ['jobs', projectId, 'fired-since', since] as const,
  completed: (projectId: string) => ['jobs', projectId, 'completed-for-compare'] as const,
  one: (jobId: string) => ['job', jobId] as const,
  /** A page of results, read again whenever the job's poll reports a new count or status. */
  results: (job: Job, offset: number) => ['job-results', job.id, offset, job.resultsCount, job.status] as const,
  estimate: (projectId: string, body: string) => ['job-estimate', projectId, body] as const,
};

export const fetchJobs = (projectId: string, query: JobsQuery) =>
  unwrap(api.GET('/v1/key/projects/{projectId}/jobs', { params: { path: { projectId }, query } }));

export const fetchJob = async (jobId: string) => (await unwrap(api.GET('/v1/key/jobs/{jobId}', { params: { path: { jobId } } }))).data;

export const jobQuery = (jobId: string) => queryOptions({ queryKey: jobKeys.one(jobId), queryFn: () => fetchJob(jobId) });

export const fetchResults = (jobId: string, query: { limit: number; offset: number }) =>
  unwrap(api.GET('/v1/key/jobs/{jobId}/results', { params: { path: { jobId }, query } }));

export const createJob = (projectId: string, body: JobBody) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/jobs', { params: { path: { projectId } }, body }));

/** What a create with this body would cost now (the API's own validation and prices). */
export const estimateJob = async (projectId: string, body: JobBody) =>
  (await unwrap(api.POST('/v1/key/projects/{projectId}/jobs/estimate', { params: { path: { projectId } }, body }))).data;

export const cancelJob = (jobId: string) => unwrap(api.POST('/v1/key/jobs/{jobId}/cancel', { params: { path: { jobId } } }));

export const retryJob = (jobId: string, targets: 'failed' | 'all') =>
  unwrap(api.POST('/v1/key/jobs/{jobId}/retry', { params: { path: { jobId } }, body: { targets } }));

/** An export is a plain link: the browser downloads it with the session cookie. */
export const exportHref = (jobId: string, format: ExportFormat) => `/v1/key/jobs/${encodeURIComponent(jobId)}/export?format=${format}`;
