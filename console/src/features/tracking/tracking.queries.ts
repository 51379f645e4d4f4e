import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Query keys of tracking: the tracked products, one product's timeline, and a comparison of two jobs. */
export const trackingKeys = {
  targets: (projectId: string) => ['tracked-targets', projectId] as const,
  timeline: (projectId: string, asin: string, marketplace: string, postalCode: string | undefined) =>
    ['timeline', projectId, asin, marketplace, postalCode ?? ''] as const,
  comparison: (projectId: string, from: string | undefined, to: string | undefined) => ['compare', projectId, from, to] as const,
};

export const trackedTargetsQuery = (projectId: string, limit: number) =>
  queryOptions({
    queryKey: trackingKeys.targets(projectId),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/tracked-targets', { params: { path: { projectId }, query: { limit } } })),
  });

/** One series: a product at one delivery location (`postalCode` absent: jobs that asked for none). */
export const timelineQuery = (projectId: string, asin: string, marketplace: string, postalCode: string | undefined) =>
  queryOptions({
    queryKey: trackingKeys.timeline(projectId, asin, marketplace, postalCode),
    queryFn: () =>
      unwrap(
        api.GET('/v1/key/projects/{projectId}/tracked-targets/{asin}/timeline', {
          params: { path: { projectId, asin }, query: { marketplace, ...(postalCode ? { postalCode } : {}), limit: 200 } },
        }),
      ),
  });

/** What differs between the result sets of two jobs (`from` the earlier, `to` the later). */
export const comparisonQuery = (projectId: string, from: string | undefined, to: string | undefined) =>
  queryOptions({
    queryKey: trackingKeys.comparison(projectId, from, to),
    queryFn: () =>
      unwrap(api.GET('/v1/key/projects/{projectId}/compare', { params: { path: { projectId }, query: { from: from!, to: to! } } })),
    enabled: !!from && !!to && from !== to,
  });
