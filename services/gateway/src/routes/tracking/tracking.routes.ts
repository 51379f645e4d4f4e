import {
  AppError,
  comparisonSchema as Comparison,
  ID_PATTERN,
  normalizeAsin,
  timelineSchema as Timeline,
  trackedTargetSchema as TrackedTarget,
} from '@crawl/core';
import { data, list } from '../operation';
import { type Resource, routesOf } from '../route';
import { compareQuery, timelineQuery, trackedTargetsQuery } from './tracking.schemas';
import { createTrackingService, type TrackingService } from './tracking.service';

const route = routesOf<TrackingService>();

/** Tracked targets, a product's timeline, comparison of two result sets. */
export const trackingRoutes = [
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/tracked-targets',
    tag: 'Change tracking',
    summary: 'List tracked products',
    description:
      'Tracked products with their latest snapshot and change counts: one entry per product and delivery location (`postalCode`, null for jobs that asked for none). Searchable by `q` (ASIN prefix or title) and sortable by `sort=field:asc|desc`.',
    query: trackedTargetsQuery,
    status: 200,
    response: list(TrackedTarget),
    errors: [403],
    handler: async ({ req, service, query }) => {
      return { status: 200, body: await service.list({ projectId: req.principal.projectId, ...query() }) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/tracked-targets/{asin}/timeline',
    tag: 'Change tracking',
    summary: "Get a tracked product's timeline",
    description:
      'Snapshots of one product at one delivery location (`postalCode`; absent: jobs that asked for none), newest first, with the changes between them.',
    query: timelineQuery,
    status: 200,
    response: Timeline,
    errors: [403, 404],
    handler: async ({ req, service, query }) => {
      const q = query();
      const asin = normalizeAsin(String(req.params.asin));
      if (!asin) throw new AppError('NOT_FOUND', `Product ${String(req.params.asin)} was never crawled in this project.`);
      const series = { projectId: req.principal.projectId, marketplace: q.marketplace, postalCode: q.postalCode ?? '' };
      return { status: 200, body: await service.timeline(series, asin, q.limit) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/compare',
    tag: 'Change tracking',
    operationId: 'compareJobs',
    summary: 'Compare two jobs',
    description: 'Compare the result sets of two jobs of the project: the products only in one of them, in both, changed or moved.',
    query: compareQuery,
    status: 200,
    response: data(Comparison),
    errors: [403, 404, 410],
    handler: async ({ req, service, query }) => {
      const q = query();
      for (const id of [q.from, q.to]) if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `Job ${id} not found.`);
      return { status: 200, body: { data: await service.compare(req.principal.projectId, q.from, q.to) } };
    },
  }),
];

export const trackingResource: Resource<TrackingService> = {
  routes: trackingRoutes,
  service: createTrackingService,
};
