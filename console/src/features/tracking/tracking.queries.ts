import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Query keys of tracking: the tracked products, one product's timeline, and a comparison of two jobs. */
export const trackingKeys = {
  targets: (projectId: string, view?: TargetsView) => ['tracked-targets', projectId, view ?? {}] as const,
  alerts: (projectId: string, asin: string) => ['alerts', projectId, { asin }] as const,
  timeline: (projectId: string, asin: string, marketplace: string, postalCode: string | undefined) =>
    ['timeline', projectId, asin, marketplace, postalCode ?? ''] as const,
  comparison: (projectId: string, from: string | undefined, to: string | undefined) => ['compare', projectId, from, to] as const,
};

/** What the list shows: a search, a sort (`field:asc|desc`), a page. */
export interface TargetsView {
  q?: string;
  sort?: string;
  offset?: number;
  limit: number;
  marketplace?: string;
}

export const trackedTargetsQuery = (projectId: string, view: TargetsView) =>
  queryOptions({
    queryKey: trackingKeys.targets(projectId, view),
    queryFn: () =>
      unwrap(
        api.GET('/v1/key/projects/{projectId}/tracked-targets', {
          params: {
            path: { projectId },
            query: {
              limit: view.limit,
              ...(view.q ? { q: view.q } : {}),
              ...(view.sort ? { sort: view.sort } : {}),
              ...(view.offset ? { offset: view.offset } : {}),
              ...(view.marketplace ? { marketplace: view.marketplace } : {}),
            },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });

/** The alerts a product fired (newest first, the latest 100): markers on its chart. */
export const productAlertsQuery = (projectId: string, asin: string) =>
  queryOptions({
    queryKey: trackingKeys.alerts(projectId, asin),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/alerts', { params: { path: { projectId }, query: { asin, limit: 100 } } })),
  });

/** One series: a product at one delivery location (`postalCode` absent: jobs that asked for none). */
export const timelineQuery = (projectId: string, asin: string, marketplace: string, postalCode: string | undefined, limit = 1000) =>
  queryOptions({
    queryKey: trackingKeys.timeline(projectId, asin, marketplace, postalCode),
    queryFn: () =>
      unwrap(
        api.GET('/v1/key/projects/{projectId}/tracked-targets/{asin}/timeline', {
          params: { path: { projectId, asin }, query: { marketplace, ...(postalCode ? { postalCode } : {}), limit } },
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
