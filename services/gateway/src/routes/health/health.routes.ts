import { livenessSchema as Liveness, readinessSchema as Readiness } from '@crawl/core';
import { data } from '../operation';
import { type Resource, routesOf } from '../route';
import { HealthService } from './health.service';

const route = routesOf<HealthService>();

/** Liveness and readiness: unauthenticated, outside /v1/key. */
export const healthRoutes = [
  route({
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    operationId: 'getLiveness',
    summary: 'Liveness',
    description: 'Answers 200 while the process is up.',
    status: 200,
    response: data(Liveness),
    errors: [],
    access: 'public',
    handler: () => ({ status: 200, body: { data: { status: 'ok' } } }),
  }),
  route({
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    operationId: 'getReadiness',
    summary: 'Readiness',
    description: 'Answers 200 when Postgres and Redis are reachable, 503 with the same body otherwise.',
    status: 200,
    response: data(Readiness),
    errors: [],
    access: 'public',
    handler: async ({ service }) => {
      const { postgres, redis } = await service.readiness();
      const ready = postgres && redis;
      return { status: ready ? 200 : 503, body: { data: { status: ready ? 'ready' : 'unavailable', postgres, redis } } };
    },
  }),
];

export const healthResource: Resource<HealthService> = {
  routes: healthRoutes,
  service: (ctx) => new HealthService(ctx),
};
