import { Link } from '@tanstack/react-router';
import { count } from '../../ui/format';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { JOB_KINDS } from './job-kinds';
import { statusBadge } from './job-status';
import type { Job } from './jobs.queries';

/** A page of the project's jobs, each id a link to its page. */
export function JobsTable({ jobs, caption }: { jobs: Job[]; caption: string }) {
  return (
    <Table
      className="jobs-table"
      caption={caption}
      captionHidden
      columns={['Job', 'Type', 'Status', 'Targets', 'Progress', 'Credits', 'Created']}
    >
      {jobs.map((j) => {
        const done = j.progress.succeeded + j.progress.failed;
        return (
          <tr key={j.id}>
            <td className="mono nowrap">
              <Link to="/console/jobs/$jobId" params={{ jobId: j.id }}>
                {j.id}
              </Link>
            </td>
            <td>
              {JOB_KINDS[j.type].label}
              <span className="muted"> · {j.marketplace}</span>
            </td>
            <td>
              <span className={statusBadge(j.status)}>{j.status}</span>
            </td>
            <td className="targets-cell">
              <span className="nowrap">{count(j.targets.length)}</span>
              <span className="muted target-preview" title={j.targets.slice(0, 5).join('\n')}>
                {j.targets[0]}
                {j.targets.length > 1 ? ` +${count(j.targets.length - 1)}` : ''}
              </span>
            </td>
            <td className="nowrap">
              {count(done)}/{count(j.progress.total)}
              {j.progress.failed > 0 && <span className="muted"> ({count(j.progress.failed)} failed)</span>}
            </td>
            <td className="nowrap">
              {count(j.credits.consumed)}
              <span className="muted"> / {count(j.credits.reserved)}</span>
            </td>
            <td className="nowrap">
              <DateTime value={j.createdAt} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
