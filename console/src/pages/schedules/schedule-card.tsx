import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button, ErrorNotice } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { describeCron, formatLocal, formatUtc, nextRuns, viewerZone } from './cron';

type Schedule = Schemas['Schedule'];
type Job = Schemas['Job'];

const HISTORY_SHOWN = 10;

function DeleteScheduleDialog({ schedule }: { schedule: Schedule }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/key/schedules/{scheduleId}', { params: { path: { scheduleId: schedule.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['schedules', schedule.projectId] }),
  });
  return (
    <DialogTrigger onOpenChange={(open) => !open && remove.reset()}>
      <Button variant="danger" aria-label={`Delete schedule ${schedule.cron}`}>
        Delete
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">Delete the schedule “{schedule.cron}”?</Heading>
              <p>It stops firing at once. The jobs it already created stay.</p>
              <ErrorNotice error={remove.error} />
              <div className="row">
                <Button variant="danger" isDisabled={remove.isPending} onPress={() => remove.mutate(undefined, { onSuccess: close })}>
                  Delete schedule
                </Button>
                <Button variant="secondary" onPress={close} autoFocus>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

const LAST_RUN: Record<NonNullable<Schedule['lastRunStatus']>, string> = {
  created: 'created a job',
  skipped_insufficient_credits: 'skipped: not enough credits',
};

/** One schedule: what and when it crawls, its next five runs (UTC and the viewer's zone), its switch, and the jobs it fired. */
export function ScheduleCard({ schedule, history }: { schedule: Schedule; history: Job[] | undefined }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      unwrap(api.PATCH('/v1/key/schedules/{scheduleId}', { params: { path: { scheduleId: schedule.id } }, body: { enabled } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['schedules', schedule.projectId] }),
  });
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
      <div className="row">
        <Button
          variant="secondary"
          isDisabled={toggle.isPending}
          onPress={() => toggle.mutate(!schedule.enabled)}
          aria-label={`${schedule.enabled ? 'Disable' : 'Enable'} schedule ${schedule.cron}`}
        >
          {schedule.enabled ? 'Disable' : 'Enable'}
        </Button>
        <DeleteScheduleDialog schedule={schedule} />
      </div>
      <ErrorNotice error={toggle.error} />

      {schedule.enabled ? (
        <div className="table-wrap schedule-runs">
          <table>
            <caption>Next runs of {schedule.cron}</caption>
            <thead>
              <tr>
                <th scope="col">UTC</th>
                <th scope="col">Your time ({viewerZone()})</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((d) => (
                <tr key={d.getTime()}>
                  <td>
                    <time dateTime={d.toISOString()}>{formatUtc(d)}</time>
                  </td>
                  <td>{formatLocal(d)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Jobs fired by {schedule.cron}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Results</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
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
