import { AppError, ID_PATTERN, scheduleSchema as Schedule, schedulePolicy } from '@crawl/core';
import type { Request } from 'express';
import type { IdempotencyOptions } from '../../middleware/idempotency';
import { data, idempotencyHeader, list, LOCATION, REPLAYED } from '../operation';
import { projectActor } from '../project-audit';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { CreateScheduleBody, emptyBody, schedulesQuery, UpdateScheduleBody } from './schedules.schemas';
import { createScheduleService, type ScheduleService, toScheduleResource } from './schedules.service';

/** The plan's schedule limits with the organization's overrides (admin set-schedule-limits). */
const policyOf = (req: Request) =>
  schedulePolicy(req.principal.plan, {
    maxPerProject: req.principal.maxSchedulesPerProject,
    minIntervalSeconds: req.principal.minScheduleIntervalSeconds,
  });

function scheduleId(req: Request): string {
  const id = String(req.params.scheduleId);
  if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `Schedule ${id} not found.`);
  return id;
}

/** A schedule created under an Idempotency-Key whose request died before answering: answer with it. */
const recoverSchedule = (service: ScheduleService): IdempotencyOptions<201> => ({
  recover: async (id, req) => {
    const row = await service.find(id, req.principal.projectId);
    return row ? { status: 201, body: { data: toScheduleResource(row) } } : undefined;
  },
});

const route = routesOf<ScheduleService>();

/** Schedules: create, list, GET, PATCH and DELETE of one. */
export const schedulesRoutes = [
  // Same Stripe model as job creation: a lost answer retried with its key never makes a second schedule.
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/schedules',
    tag: 'Schedules',
    summary: 'Create a schedule',
    description: 'A schedule creates a job from its crawl config at each time of its cron expression (UTC, 5 or 6 fields).',
    body: CreateScheduleBody,
    headers: idempotencyHeader,
    status: 201,
    response: data(Schedule),
    responseHeaders: { ...LOCATION('schedule'), ...REPLAYED },
    errors: [403, 409, 422],
    handler: async ({ req, service, body, idempotent }) => {
      const schedule = body();
      const result = await idempotent(recoverSchedule(service), async ({ key }) => ({
        status: 201,
        body: { data: await service.create(projectActor(req), schedule, policyOf(req), key) },
      }));
      const created = (result.body as { data: { id: string } }).data;
      return { ...result, headers: { ...result.headers, Location: `/v1/key/schedules/${created.id}` } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/schedules',
    tag: 'Schedules',
    summary: 'List schedules',
    description: "The project's schedules.",
    query: schedulesQuery,
    status: 200,
    response: list(Schedule),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const { limit, offset } = query();
      return { status: 200, body: await service.list(req.principal.projectId, limit, offset) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/schedules/{scheduleId}',
    tag: 'Schedules',
    summary: 'Get a schedule',
    description: 'One schedule with its cron expression, crawl config and next run.',
    status: 200,
    response: data(Schedule),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: toScheduleResource(await service.get(scheduleId(req), req.principal.projectId)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/key/schedules/{scheduleId}',
    tag: 'Schedules',
    summary: 'Update a schedule',
    description: 'Change `enabled`, `cron` or `crawlConfig` of a schedule.',
    body: UpdateScheduleBody,
    status: 200,
    response: data(Schedule),
    errors: [404],
    handler: async ({ req, service, body }) => {
      const id = scheduleId(req);
      return { status: 200, body: { data: await service.update(id, projectActor(req), body(), policyOf(req)) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/key/schedules/{scheduleId}',
    tag: 'Schedules',
    summary: 'Delete a schedule',
    description: 'Delete a schedule; the jobs it created stay.',
    status: 204,
    responseDescription: 'Deleted',
    errors: [404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.delete(scheduleId(req), projectActor(req));
      return { status: 204 };
    },
  }),
];

export const schedulesResource: Resource<ScheduleService> = {
  routes: schedulesRoutes,
  service: createScheduleService,
};
