import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../api/client';
import { EmptyState, ErrorNotice, Loading } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { CreateScheduleDialog } from './schedules/create-dialog';
import { ScheduleCard } from './schedules/schedule-card';
import './schedules/schedules.css';

/** Pages of the jobs list read to find fired jobs: the newest 500 jobs since the oldest schedule. */
const HISTORY_PAGES = 5;

/**
 * The jobs each schedule fired. The jobs list cannot filter by schedule, so this reads the project's jobs
 * created since the oldest schedule (newest first, a bounded number of pages) and groups them by `scheduleId`.
 */
function useFiredJobs(projectId: string, schedules: Schemas['Schedule'][] | undefined) {
  const since = schedules?.length ? schedules.map((s) => s.createdAt).sort()[0] : undefined;
  const jobs = useQuery({
    queryKey: ['jobs', projectId, 'fired-since', since],
    queryFn: async () => {
      const found: Schemas['Job'][] = [];
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const { data, pagination } = await unwrap(
          api.GET('/v1/key/projects/{projectId}/jobs', {
            params: { path: { projectId }, query: { from: since, limit: 100, offset: page * 100 } },
          }),
        );
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
    const bySchedule = new Map<string, Schemas['Job'][]>();
    for (const job of jobs.data) bySchedule.set(job.scheduleId!, [...(bySchedule.get(job.scheduleId!) ?? []), job]);
    return bySchedule;
  }, [jobs.data]);
}

export function SchedulesPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const schedules = useQuery({
    queryKey: ['schedules', projectId],
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/schedules', { params: { path: { projectId }, query: { limit: 100 } } })),
    refetchInterval: 30_000,
  });
  const list = schedules.data?.data;
  const fired = useFiredJobs(projectId, list);
  return (
    <>
      <div className="page-head">
        <h1>Schedules</h1>
        <CreateScheduleDialog projectId={projectId} />
      </div>
      <p className="muted">A schedule starts a crawl at each time of its cron expression, in UTC, and reserves its credits like any job.</p>
      {schedules.isLoading && <Loading what="schedules" />}
      <ErrorNotice error={schedules.error} />
      {list && list.length === 0 && (
        <EmptyState title="No schedules yet">
          <p>Create one to crawl the same products or keywords every day or week; each run feeds tracking.</p>
        </EmptyState>
      )}
      {list?.map((s) => (
        <ScheduleCard key={s.id} schedule={s} history={fired ? (fired.get(s.id) ?? []) : undefined} />
      ))}
      {schedules.data && schedules.data.pagination.total > (list?.length ?? 0) && (
        <p className="muted">
          Showing {list?.length} of {schedules.data.pagination.total} schedules.
        </p>
      )}
    </>
  );
}
