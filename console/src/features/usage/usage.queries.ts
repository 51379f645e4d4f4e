import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

/** Query keys of usage: a page of the ledger, the ledger of a range in full (the hourly chart) and the analytics. */
export const usageKeys = {
  ledgerPage: (projectId: string, from: string, to: string, offset: number) => ['usage', projectId, from, to, offset] as const,
  ledgerAll: (projectId: string, from: string, to: string) => ['usage-ledger-all', projectId, from, to] as const,
  analytics: (projectId: string, from: string, to: string) => ['analytics', projectId, from, to] as const,
};

const fetchUsage = (projectId: string, query: { from: string; to: string; limit: number; offset: number }) =>
  unwrap(api.GET('/v1/key/projects/{projectId}/usage', { params: { path: { projectId }, query } }));

export const ledgerPageQuery = (projectId: string, from: string, to: string, offset: number, limit: number) =>
  queryOptions({
    queryKey: usageKeys.ledgerPage(projectId, from, to, offset),
    queryFn: () => fetchUsage(projectId, { from, to, limit, offset }),
    placeholderData: keepPreviousData,
  });

/** Ledger pages read for the hourly chart: 24 h of a busy project fit; beyond that the chart says it is partial. */
const HOURLY_PAGES = 20;

/** Every ledger entry of a range (up to HOURLY_PAGES pages of 100), and whether that was all of them. */
export const ledgerAllQuery = (projectId: string, from: string, to: string) =>
  queryOptions({
    queryKey: usageKeys.ledgerAll(projectId, from, to),
    queryFn: async () => {
      const entries: Schemas['LedgerEntry'][] = [];
      for (let page = 0; page < HOURLY_PAGES; page++) {
        const { data, pagination } = await fetchUsage(projectId, { from, to, limit: 100, offset: page * 100 });
        entries.push(...data.ledger);
        if (!pagination.hasMore) return { entries, complete: true };
      }
      return { entries, complete: false };
    },
  });

export const analyticsQuery = (projectId: string, from: string, to: string) =>
  queryOptions({
    queryKey: usageKeys.analytics(projectId, from, to),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/analytics', { params: { path: { projectId }, query: { from, to } } })),
  });
