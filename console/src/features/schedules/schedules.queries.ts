import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { fetchJobs, type Job, jobKeys } from '../jobs/jobs.queries';

export type Schedule = Schemas['Schedule'];

/** Query keys of schedules: one list per project. */
export const scheduleKeys = {
  ofProject: (projectId: string) => ['schedules', projectId] as const,
};

export const schedulesQuery = (projectId: string) =>
  queryOptions({
    queryKey: scheduleKeys.ofProject(projectId),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/schedules', { params: { path: { projectId }, query: { limit: 100 } } })),
  });

export const createSchedule = (projectId: string, body: Schemas['CreateScheduleBody']) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/schedules', { params: { path: { projectId } }, body }));

export const setScheduleEnabled = (scheduleId: string, enabled: boolean) =>
  unwrap(api.PATCH('/v1/key/schedules/{scheduleId}', { params: { path: { scheduleId } }, body: { enabled } }));

export const deleteSchedule = (scheduleId: string) =>
  unwrap(api.DELETE('/v1/key/schedules/{scheduleId}', { params: { path: { scheduleId } } }));

/** Pages of the jobs list read to find fired jobs: the newest 500 jobs since the oldest schedule. */
const HISTORY_PAGES = 5;

/**
 * The jobs each schedule fired. The jobs list cannot filter by schedule, so this reads the project's jobs
 * created since the oldest schedule (newest first, a bounded number of pages) and groups them by `scheduleId`.
 */
export function useFiredJobs(projectId: string, schedules: Schedule[] | undefined) {
  const since = schedules?.length ? schedules.map((s) => s.createdAt).sort()[0] : undefined;
  const jobs = useQuery({
    queryKey: jobKeys.firedSince(projectId, since),
    queryFn: async () => {
      const found: Job[] = [];
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const { data, pagination } = await fetchJobs(projectId, { from: since, limit: 100, offset: page * 100 });
        found.push(...data.filter((j) => j.scheduleId));
        if (!pagination.hasMore) break;
      }
      return found;
    },
    enabled: !!since,
    refetchInterval: 30_000,
  });
  return useMemo(() => {
    if (!jobs.data) return undefined;
    const bySchedule = new Map<string, Job[]>();
    for (const job of jobs.data) bySchedule.set(job.scheduleId!, [...(bySchedule.get(job.scheduleId!) ?? []), job]);
    return bySchedule;
  }, [jobs.data]);
}
