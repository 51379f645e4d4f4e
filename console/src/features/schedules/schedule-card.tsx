import { Link } from '@tanstack/react-router';
import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import { Button, ErrorNotice } from '../../ui/forms';
import { useCan } from '../../ui/permissions';
import { Table } from '../../ui/table';
import { DateTime, formatTime, viewerZone } from '../../ui/time';
import type { Job } from '../jobs/jobs.queries';
import { describeCron, nextRuns } from './cron';
import { deleteSchedule, type Schedule, scheduleKeys, setScheduleEnabled } from './schedules.queries';

const HISTORY_SHOWN = 10;

function DeleteSchedule({ schedule }: { schedule: Schedule }) {
  const remove = useWrite(() => deleteSchedule(schedule.id), scheduleKeys.ofProject(schedule.projectId));
  return (
    <ConfirmAction
      label="Delete"
      ariaLabel={`Delete schedule ${schedule.cron}`}
      title={`Delete the schedule “${schedule.cron}”?`}
      confirmLabel="Delete schedule"
      action={remove}
      pendingStyle="disabled"
    >
      <p>It stops firing at once. The jobs it already created stay.</p>
    </ConfirmAction>
  );
}

const LAST_RUN: Record<NonNullable<Schedule['lastRunStatus']>, string> = {
  created: 'created a job',
  skipped_insufficient_credits: 'skipped: not enough credits',
};

/** One schedule: what and when it crawls, its next five runs (UTC and the viewer's zone), its switch, and the jobs it fired. */
export function ScheduleCard({ schedule, history }: { schedule: Schedule; history: Job[] | undefined }) {
  const writer = useCan('data.write', schedule.projectId);
  const toggle = useWrite((enabled: boolean) => setScheduleEnabled(schedule.id, enabled), scheduleKeys.ofProject(schedule.projectId));
  const runs = schedule.enabled ? nextRuns(schedule.cron, 5) : [];
  const { type, targets, config } = schedule.crawlConfig;
  const headingId = `schedule-${schedule.id}`;
  return (
    <article className="schedule" aria-labelledby={headingId}>
      <div className="page-head">
        <h2 id={headingId}>
          <code>{schedule.cron}</code>
        </h2>
        <span className={`badge ${schedule.enabled ? 'ok' : 'warn'}`}>{schedule.enabled ? 'Enabled' : 'Disabled'}</span>
      </div>
      <p>{describeCron(schedule.cron) ?? <span className="muted">(no description for this expression)</span>}</p>
      <p className="muted">
        Crawls <strong>{type}</strong> on {config.marketplace}: {targets.slice(0, 3).join(', ')}
        {targets.length > 3 ? ` and ${targets.length - 3} more` : ''}.
      </p>
      {writer.allowed && (
        <div className="row">
          <Button
            variant="secondary"
            isDisabled={toggle.isPending}
            onPress={() => toggle.mutate(!schedule.enabled)}
            aria-label={`${schedule.enabled ? 'Disable' : 'Enable'} schedule ${schedule.cron}`}
          >
            {schedule.enabled ? 'Disable' : 'Enable'}
          </Button>
          <DeleteSchedule schedule={schedule} />
        </div>
      )}
      <ErrorNotice error={toggle.error} />

      {schedule.enabled ? (
        <Table wrap="table-wrap schedule-runs" caption={`Next runs of ${schedule.cron}`} columns={['UTC', `Your time (${viewerZone()})`]}>
          {runs.map((d) => (
            <tr key={d.getTime()}>
              <td>
                <time dateTime={d.toISOString()}>{formatTime(d, { utc: true })}</time>
              </td>
              <td>{formatTime(d)}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p className="muted">Disabled: no runs until you enable it again (the next run is then computed from that moment).</p>
      )}

      <h3>Fired jobs</h3>
      <p className="muted">
        Last run: <DateTime value={schedule.lastRunAt} />
        {schedule.lastRunStatus && ` (${LAST_RUN[schedule.lastRunStatus]})`}
        {schedule.lastJobId && (
          <>
            {' '}
            ·{' '}
            <Link to="/console/jobs/$jobId" params={{ jobId: schedule.lastJobId }} className="mono">
              {schedule.lastJobId}
            </Link>
          </>
        )}
      </p>
      {history && history.length > 0 && (
        <Table captionHidden caption={`Jobs fired by ${schedule.cron}, newest first`} columns={['Job', 'Status', 'Created', 'Results']}>
          {history.slice(0, HISTORY_SHOWN).map((j) => (
            <tr key={j.id}>
              <td>
                <Link to="/console/jobs/$jobId" params={{ jobId: j.id }} className="mono">
                  {j.id}
                </Link>
              </td>
              <td>
                <span className={`badge ${j.status === 'completed' ? 'ok' : j.status === 'failed' ? 'bad' : 'warn'}`}>{j.status}</span>
              </td>
              <td>
                <DateTime value={j.createdAt} />
              </td>
              <td>{j.resultsCount}</td>
            </tr>
          ))}
        </Table>
      )}
      {history && history.length > HISTORY_SHOWN && (
        <p className="muted">
          The {HISTORY_SHOWN} newest of {history.length} jobs found.
        </p>
      )}
      {history && history.length === 0 && !schedule.lastJobId && <p className="muted">It has not fired yet.</p>}
    </article>
  );
}
