import { AppError, inDocumentedOrder } from '@crawl/core';
import { jobBodySchema, type JobBody, toJobResource } from '@crawl/jobs';
import { Router, type Request, type Response } from 'express';
import type { GatewayDeps } from '../../deps';
import { requireOwnProject } from '../../middleware/auth';
import { type HandlerResult, type IdempotencyOptions, withIdempotency } from '../../middleware/idempotency';
import { parseOrThrow } from '../../validation';
import { streamExport } from './export';
import { assertResultsAvailable, type JobWithRetention } from './job-results.service';
import { emptyBody, exportQuery, jobIdParams, listJobsQuery, resultsQuery, retryBody } from './jobs.schemas';

/**
 * A job-creating answer: Location, and X-Credits-Remaining = the organization's balance read
 * after the request was handled (so after this job's reservation). A replayed answer carries
 * the balance at replay time, not the one of the first answer: it is what the client can spend
 * now, and the job in the body tells what was reserved.
 */
async function sendCreated(deps: GatewayDeps, req: Request, res: Response, result: HandlerResult): Promise<void> {
  const id = (result.body as { data?: { id?: string } })?.data?.id;
  if (result.status === 202 && id) res.setHeader('Location', `/v1/key/jobs/${id}`);
  const balance = await deps.credits.balance(req.principal.organizationId);
  if (balance !== undefined) res.setHeader('X-Credits-Remaining', String(balance));
  res.status(result.status).json(result.body);
}

/** Create and estimate validate the same way: one parse of the job body. */
const parseJobBody = (req: Request): JobBody => parseOrThrow(jobBodySchema, req.body, 'body');

function pagination(total: number, limit: number, offset: number) {
  return { total, limit, offset, hasMore: offset + limit < total };
}

/** Every job endpoint. Mounted under /v1/key after authentication and rate limiting. */
export function jobsRouter(deps: GatewayDeps): Router {
  const router = Router();

  const loadJob = async (req: Request) => {
    const params = jobIdParams.safeParse(req.params);
    const job: JobWithRetention | undefined = params.success ? await deps.jobs.findInProject(params.data.jobId, req.principal.projectId) : undefined;
    if (!job) throw new AppError('NOT_FOUND', `Job ${String(req.params.jobId)} not found.`);
    return job;
  };

  /** A job created under an Idempotency-Key whose request died before answering: answer with it. */
  const recoverJob: IdempotencyOptions = {
    recover: async (jobId, req) => {
      const job = await deps.jobs.findInProject(jobId, req.principal.projectId);
      return job ? { status: 202, body: { data: toJobResource(job) } } : undefined;
    },
  };

  router.post('/projects/:projectId/jobs', requireOwnProject, async (req, res) => {
    const body = parseJobBody(req);
    const result = await withIdempotency(deps.idempotency, req, res, recoverJob, async ({ key: idempotencyKey }) => {
      const job = await deps.jobService.create(body, req.principal, { idempotencyKey });
      return { status: 202, body: { data: toJobResource(job) } };
    });
    await sendCreated(deps, req, res, result);
  });

  // Creates nothing, so no Idempotency-Key handling; one request of the rate limit, like a GET.
  router.post('/projects/:projectId/jobs/estimate', requireOwnProject, async (req, res) => {
    const body = parseJobBody(req);
    res.json({ data: await deps.jobService.estimate(body, req.principal) });
  });

  router.get('/projects/:projectId/jobs', requireOwnProject, async (req, res) => {
    const query = parseOrThrow(listJobsQuery, req.query, 'query');
    const { rows, total } = await deps.jobs.list({ projectId: req.principal.projectId, ...query });
    res.json({ data: rows.map(toJobResource), pagination: pagination(total, query.limit, query.offset) });
  });

  router.get('/jobs/:jobId', async (req, res) => {
    res.json({ data: toJobResource(await loadJob(req)) });
  });

  router.get('/jobs/:jobId/results', async (req, res) => {
    const job = await loadJob(req);
    const query = parseOrThrow(resultsQuery, req.query, 'query');
    assertResultsAvailable(job);
    const { rows, total } = await deps.results.page(job.id, query.limit, query.offset);
    res.json({ data: rows.map((r) => inDocumentedOrder(job.type, r.data)), pagination: pagination(total, query.limit, query.offset) });
  });

  router.get('/jobs/:jobId/export', async (req, res) => {
    const job = await loadJob(req);
    const { format } = parseOrThrow(exportQuery, req.query, 'query');
    assertResultsAvailable(job);
    if (job.status !== 'completed') {
      throw new AppError('JOB_NOT_COMPLETE', `Job ${job.id} is ${job.status}; export is available once it is completed.`, {
        details: { status: job.status },
      });
    }
    await streamExport(deps, job, format, res);
  });

  router.post('/jobs/:jobId/retry', async (req, res) => {
    const targets = parseOrThrow(retryBody, req.body, 'body');
    const original = await loadJob(req);
    const result = await withIdempotency(deps.idempotency, req, res, recoverJob, async ({ key: idempotencyKey }) => {
      const job = await deps.jobService.retry(original.id, req.principal, { idempotencyKey, targets });
      return { status: 202, body: { data: toJobResource(job) } };
    });
    await sendCreated(deps, req, res, result);
  });

  router.delete('/jobs/:jobId', async (req, res) => {
    const job = await loadJob(req);
    res.json({ data: toJobResource(await deps.jobResults.deleteResults(job.id, req.principal.projectId)) });
  });

  router.post('/jobs/:jobId/cancel', async (req, res) => {
    parseOrThrow(emptyBody, req.body, 'body');
    const job = await loadJob(req);
    res.json({ data: toJobResource(await deps.jobService.cancel(job.id, req.principal.projectId)) });
  });

  return router;
}
