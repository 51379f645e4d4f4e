import { AppError, ID_PATTERN, schedulePolicy } from '@crawl/core';
import { createScheduleBody, patchScheduleBody } from '@crawl/jobs';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { IdempotencyRepository } from '@crawl/db';
import { requireOwnProject } from '../../middleware/auth';
import { type IdempotencyOptions, withIdempotency } from '../../middleware/idempotency';
import { intQueryParam, parseOrThrow } from '../../validation';
import { type ScheduleService, toScheduleResource } from './schedules.service';

export const schedulesQuery = z
  .object({
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();

const emptyBody = z.union([z.undefined(), z.object({}).strict()]);

/** The plan's schedule limits with the organization's overrides (admin set-schedule-limits). */
const policyOf = (req: Request) =>
  schedulePolicy(req.principal.plan, { maxPerProject: req.principal.maxSchedulesPerProject, minIntervalSeconds: req.principal.minScheduleIntervalSeconds });

function scheduleId(req: Request): string {
  const id = String(req.params.scheduleId);
  if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `Schedule ${id} not found.`);
  return id;
}

/** Schedules: create, list, GET, PATCH and DELETE of one. */
export function schedulesRouter(service: ScheduleService, idempotency: IdempotencyRepository): Router {
  const router = Router();

  /** A schedule created under an Idempotency-Key whose request died before answering: answer with it. */
  const recoverSchedule: IdempotencyOptions = {
    recover: async (id, req) => {
      const row = await service.find(id, req.principal.projectId);
      return row ? { status: 201, body: { data: toScheduleResource(row) } } : undefined;
    },
  };

  // Same Stripe model as job creation: a lost answer retried with its key never makes a second schedule.
  router.post('/projects/:projectId/schedules', requireOwnProject, async (req, res) => {
    const body = parseOrThrow(createScheduleBody, req.body, 'body');
    const result = await withIdempotency(idempotency, req, res, recoverSchedule, async ({ key }) => ({
      status: 201,
      body: { data: await service.create(req.principal, body, policyOf(req), key) },
    }));
    const schedule = (result.body as { data: { id: string } }).data;
    res.status(result.status).setHeader('Location', `/v1/key/schedules/${schedule.id}`);
    res.json(result.body);
  });

  router.get('/projects/:projectId/schedules', requireOwnProject, async (req, res) => {
    const { limit, offset } = parseOrThrow(schedulesQuery, req.query, 'query');
    res.json(await service.list(req.principal.projectId, limit, offset));
  });

  router.get('/schedules/:scheduleId', async (req, res) => {
    res.json({ data: toScheduleResource(await service.get(scheduleId(req), req.principal.projectId)) });
  });

  router.patch('/schedules/:scheduleId', async (req, res) => {
    const id = scheduleId(req);
    const body = parseOrThrow(patchScheduleBody, req.body, 'body');
    res.json({ data: await service.update(id, req.principal.projectId, body, policyOf(req)) });
  });

  router.delete('/schedules/:scheduleId', async (req, res) => {
    parseOrThrow(emptyBody, req.body, 'body');
    await service.delete(scheduleId(req), req.principal.projectId);
    res.status(204).end();
  });

  return router;
}
