import {
  AppError,
  costEstimateSchema as CostEstimate,
  inDocumentedOrder,
  jobResourceSchema as Job,
  llmExportSchema as LlmExport,
  resultItemSchema as ResultItem,
} from '@crawl/core';
import { toJobResource } from '@crawl/jobs';
import type { Request } from 'express';
import { z } from 'zod';
import type { HandlerResult } from '../../handler-result';
import type { IdempotencyOptions } from '../../middleware/idempotency';
import { ATTACHMENT, CREDITS_REMAINING, data, idempotencyHeader, list, LOCATION, REPLAYED } from '../operation';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { assertResultsAvailable, type JobWithRetention } from './job-results.service';
import { CreateJobBody, emptyBody, exportQuery, jobIdParams, listJobsQuery, resultsQuery, RetryJobBody, retryBody } from './jobs.schemas';
import { createJobsService, type JobsService } from './jobs.service';

/**
 * A job-creating answer: Location, and X-Credits-Remaining = the organization's balance after
 * this job's reservation: `creditsRemaining` when the request created the job (the balance its
 * reservation left), else read now. A replayed answer carries the balance at replay time, not
 * the one of the first answer: it is what the client can spend now, and the job in the body
 * tells what was reserved.
 */
async function withCreatedHeaders(
  service: JobsService,
  req: Request,
  result: HandlerResult<202>,
  creditsRemaining: number | undefined,
): Promise<HandlerResult<202>> {
  const id = (result.body as { data?: { id?: string } })?.data?.id;
  const balance = creditsRemaining ?? (await service.creditsRemaining(req.principal.organizationId));
  const headers = {
    ...result.headers,
    ...(id ? { Location: `/v1/key/jobs/${id}` } : {}),
    ...(balance !== undefined ? { 'X-Credits-Remaining': String(balance) } : {}),
  };
  return { ...result, headers };
}

function pagination(total: number, limit: number, offset: number) {
  return { total, limit, offset, hasMore: offset + limit < total };
}

const loadJob = async (service: JobsService, req: Request) => {
  const params = jobIdParams.safeParse(req.params);
  const job: JobWithRetention | undefined = params.success ? await service.find(params.data.jobId, req.principal.projectId) : undefined;
  if (!job) throw new AppError('NOT_FOUND', `Job ${String(req.params.jobId)} not found.`);
  return job;
};

/** A job created under an Idempotency-Key whose request died before answering: answer with it. */
const recoverJob = (service: JobsService): IdempotencyOptions<202> => ({
  recover: async (jobId, req) => {
    const job = await service.find(jobId, req.principal.projectId);
    return job ? { status: 202, body: { data: toJobResource(job) } } : undefined;
  },
});

const route = routesOf<JobsService>();

/** Every job endpoint. */
export const jobsRoutes = [
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/jobs',
    tag: 'Jobs',
    summary: 'Create a crawl job',
    description:
      'Validates the body, reserves the credits of every target and queues the crawl; answers 202 with the job and its `Location`. Send an `Idempotency-Key` to make a retry of this request safe.',
    body: CreateJobBody,
    headers: idempotencyHeader,
    status: 202,
    response: data(Job),
    responseHeaders: { ...LOCATION('job'), ...REPLAYED, ...CREDITS_REMAINING },
    errors: [402, 403, 409, 422],
    handler: async ({ req, service, body, idempotent }) => {
      const job = body();
      let creditsRemaining: number | undefined;
      const result = await idempotent(recoverJob(service), async ({ key: idempotencyKey }) => {
        const created = await service.create(job, req.principal, { idempotencyKey });
        creditsRemaining = created.creditsRemaining;
        return { status: 202, body: { data: toJobResource(created.job) } };
      });
      return withCreatedHeaders(service, req, result, creditsRemaining);
    },
  }),
  // Creates nothing, so no Idempotency-Key handling; one request of the rate limit, like a GET.
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/jobs/estimate',
    tag: 'Jobs',
    summary: 'Estimate the cost of a job',
    description:
      'Cost of a job body and whether a create would be accepted now. The body is validated like a create; nothing is created or reserved.',
    body: CreateJobBody,
    status: 200,
    response: data(CostEstimate),
    errors: [403],
    handler: async ({ req, service, body }) => {
      return { status: 200, body: { data: await service.estimate(body(), req.principal) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/jobs',
    tag: 'Jobs',
    summary: 'List jobs',
    description: "The project's jobs, newest first, filtered by status, text and creation time.",
    query: listJobsQuery,
    status: 200,
    response: list(Job),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const q = query();
      const { rows, total } = await service.list(req.principal.projectId, q);
      return { status: 200, body: { data: rows.map(toJobResource), pagination: pagination(total, q.limit, q.offset) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/jobs/{jobId}',
    tag: 'Jobs',
    summary: 'Get a job',
    description: 'One job with its status, progress, credits and errors.',
    status: 200,
    response: data(Job),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: toJobResource(await loadJob(service, req)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/jobs/{jobId}/results',
    tag: 'Jobs',
    summary: "List a job's results",
    description: "The result items of a job, paginated; each item's shape depends on the job type.",
    query: resultsQuery,
    status: 200,
    response: list(ResultItem),
    errors: [404, 410],
    handler: async ({ req, service, query }) => {
      const job = await loadJob(service, req);
      const q = query();
      assertResultsAvailable(job);
      const { rows, total } = await service.resultsPage(job, q.limit, q.offset);
      return {
        status: 200,
        body: { data: rows.map((r) => inDocumentedOrder(job.type, r.data)), pagination: pagination(total, q.limit, q.offset) },
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/jobs/{jobId}/export',
    tag: 'Jobs',
    operationId: 'exportJob',
    summary: 'Export the results of a job',
    description: 'Download the results of a completed job as a file: json, jsonl (JSON Lines), csv or the versioned llm format.',
    query: exportQuery,
    status: 200,
    responseDescription:
      'A file (Content-Disposition: attachment), streamed. `json`: the array of result items; `jsonl`: the same items, one JSON object per line; `llm`: the versioned LlmExport object; `csv`: one header row, RFC 4180',
    responseHeaders: ATTACHMENT,
    errors: [404, 409, 410],
    content: {
      'application/json': { schema: z.union([z.array(ResultItem), LlmExport]) },
      'application/x-ndjson': { schema: z.string() },
      'text/csv': { schema: z.string() },
    },
    handler: async ({ req, service, query }) => {
      const job = await loadJob(service, req);
      const { format } = query();
      assertResultsAvailable(job);
      if (job.status !== 'completed') {
        throw new AppError('JOB_NOT_COMPLETE', `Job ${job.id} is ${job.status}; export is available once it is completed.`, {
          details: { status: job.status },
        });
      }
      return { stream: (res) => service.export(job, format, res) };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/jobs/{jobId}/retry',
    tag: 'Jobs',
    summary: 'Retry a job',
    description:
      'Retry a job as a new job: every target of a failed or cancelled job (default), or `{"targets": "failed"}` for only the failed or cancelled targets of a finished job.',
    body: RetryJobBody,
    bodyOptional: true,
    headers: idempotencyHeader,
    status: 202,
    response: data(Job),
    responseHeaders: { ...LOCATION('new job'), ...REPLAYED, ...CREDITS_REMAINING },
    errors: [402, 404, 409, 422],
    handler: async ({ req, service, idempotent }) => {
      // The body may be left out: parsed with the optional form of the documented body.
      const targets = parseOrThrow(retryBody, req.body, 'body');
      const original = await loadJob(service, req);
      const result = await idempotent(recoverJob(service), async ({ key: idempotencyKey }) => {
        const job = await service.retry(original.id, req.principal, { idempotencyKey, targets });
        return { status: 202, body: { data: toJobResource(job) } };
      });
      return withCreatedHeaders(service, req, result, undefined);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/key/jobs/{jobId}',
    tag: 'Jobs',
    summary: "Delete a job's results",
    description:
      'Delete the results of a finished job. The job stays (with `resultsPurgedAt`) for the ledger, and its results and export answer 410.',
    status: 200,
    response: data(Job),
    errors: [404, 409],
    handler: async ({ req, service }) => {
      const job = await loadJob(service, req);
      return { status: 200, body: { data: toJobResource(await service.deleteResults(job.id, req.principal.projectId)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/jobs/{jobId}/cancel',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description: 'Cancel a queued or running job; the targets not crawled yet are refunded.',
    status: 200,
    response: data(Job),
    errors: [404, 409],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      const job = await loadJob(service, req);
      return { status: 200, body: { data: toJobResource(await service.cancel(job.id, req.principal.projectId)) } };
    },
  }),
];

export const jobsResource: Resource<JobsService> = {
  routes: jobsRoutes,
  service: createJobsService,
};
