import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ErrorNotice } from '../../ui/forms';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { destinationKeys, destinationsQuery, fetchDeliveries } from './destinations.queries';
import { LastError, statusBadge } from './delivery-log';
import { formatBytes } from './format';
import './destinations.css';

/**
 * The job page's `Destinations`: for each destination of the project, where this job's export
 * went (status and key), or why nothing went there. Nothing at all when the project has none.
 */
export function JobDeliveries({ job }: { job: { id: string; projectId: string; status: string; scheduleId: string | null } }) {
  const { projectId } = job;
  const destinations = useQuery(destinationsQuery(projectId));
  const list = destinations.data ?? [];
  const deliveries = useQueries({
    queries: list.map((d) => ({
      queryKey: destinationKeys.ofJob(projectId, d.id, job.id),
      queryFn: async () => (await fetchDeliveries(d.id, { jobId: job.id, offset: 0, limit: 1 })).data[0] ?? null,
      refetchInterval: (q: { state: { data?: { status: string } | null } }) =>
        q.state.data?.status === 'pending' ||
        (!q.state.data && job.status !== 'completed' && job.status !== 'failed' && job.status !== 'cancelled')
          ? 3000
          : false,
    })),
  });
  if (!list.length) return destinations.error ? <ErrorNotice error={destinations.error} /> : null;
  return (
    <section aria-labelledby="job-destinations-heading" className="job-destinations">
      <h2 id="job-destinations-heading">Destinations</h2>
      <Table caption="Destinations of this job" captionHidden columns={['Destination', 'Status', 'Key', 'Last error', 'Delivered']}>
        {list.map((d, i) => {
          const q = deliveries[i];
          const delivery = q?.data;
          return (
            <tr key={d.id}>
              <td>
                <Link to="/console/projects/$projectId/destinations" params={{ projectId }} search={{ destination: d.id }}>
                  {d.name}
                </Link>
              </td>
              {delivery ? (
                <>
                  <td>
                    <span className={statusBadge[delivery.status]}>{delivery.status}</span>
                    {delivery.bytes !== null && <span className="block muted">{formatBytes(delivery.bytes)}</span>}
                  </td>
                  <td className="key mono">{delivery.key}</td>
                  <td>
                    <LastError delivery={delivery} />
                  </td>
                  <td className="nowrap">
                    <DateTime value={delivery.deliveredAt} withSeconds />
                  </td>
                </>
              ) : (
                <td colSpan={4} className="muted">
                  {q?.error ? (
                    <ErrorNotice error={q.error} />
                  ) : q?.isLoading ? (
                    'Loading…'
                  ) : job.status !== 'completed' ? (
                    'Nothing yet: a job is exported when it completes.'
                  ) : d.scheduleIds && !(job.scheduleId && d.scheduleIds.includes(job.scheduleId)) ? (
                    'Not sent here: this destination takes only the jobs of its schedules.'
                  ) : (
                    'Not sent here: the job completed before this destination was added.'
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </Table>
    </section>
  );
}
