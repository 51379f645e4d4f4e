import { analyticsSchema as Analytics } from '@crawl/core';
import { data } from '../operation';
import { type Resource, routesOf } from '../route';
import { analyticsQuery } from './analytics.schemas';
import { type AnalyticsService, createAnalyticsService } from './analytics.service';

const route = routesOf<AnalyticsService>();

/** Project analytics over a date range. */
export const analyticsRoutes = [
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/analytics',
    tag: 'Analytics',
    summary: 'Get analytics',
    description: 'Project analytics over a date range (default: last 30 days).',
    query: analyticsQuery,
    status: 200,
    response: data(Analytics),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const { from, to } = query();
      return { status: 200, body: { data: await service.forProject(req.principal.projectId, from, to) } };
    },
  }),
];

export const analyticsResource: Resource<AnalyticsService> = {
  routes: analyticsRoutes,
  service: createAnalyticsService,
};
