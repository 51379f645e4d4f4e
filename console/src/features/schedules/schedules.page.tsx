import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { CreateScheduleDialog } from './create-schedule-dialog';
import { ScheduleCard } from './schedule-card';
import { schedulesQuery, useFiredJobs } from './schedules.queries';
import './schedules.css';

export function SchedulesPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const writer = useCan('data.write', projectId);
  const schedules = useQuery({ ...schedulesQuery(projectId), refetchInterval: 30_000 });
  const list = schedules.data?.data;
  const fired = useFiredJobs(projectId, list);
  return (
    <>
      <div className="page-head">
        <h1>Schedules</h1>
        {writer.allowed && <CreateScheduleDialog projectId={projectId} />}
      </div>
      <ReadOnlyNote can={writer} />
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
