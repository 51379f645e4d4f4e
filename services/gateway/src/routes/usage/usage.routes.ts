import { paginationSchema as Pagination, usageSchema as Usage } from '@crawl/core';
import { z } from 'zod';
import { type Resource, routesOf } from '../route';
import { usageQuery } from './usage.schemas';
import { UsageService } from './usage.service';

const route = routesOf<UsageService>();

/** Usage: balance, plan, rate limit and the project's credit ledger. */
export const usageRoutes = [
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/usage',
    tag: 'Usage',
    summary: 'Get usage',
    description:
      "Credit balance, plan, rate limit and the project's credit ledger over a range (default: last 30 days); `pagination` pages `data.ledger`.",
    query: usageQuery,
    status: 200,
    response: z.object({ data: Usage, pagination: Pagination }).strict(),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const q = query();
      const { usage, total } = await service.forProject(req.principal, q);
      // `pagination` pages `data.ledger`; the rest of `data` covers the whole range.
      return {
        status: 200,
        body: { data: usage, pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + q.limit < total } },
      };
    },
  }),
];

export const usageResource: Resource<UsageService> = {
  routes: usageRoutes,
  service: (ctx) => new UsageService(ctx.credits),
};
