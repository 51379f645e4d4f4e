import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { Button, ErrorNotice, Loading } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { DateTime } from '../ui/time';
import './jobs/jobs.css';
import { count, isActive, type Job, JOB_TYPES, marketplaceName, statusBadge } from './jobs/kinds';
import { ResultsTable } from './jobs/results-table';

const jobQuery = (jobId: string) => ({
  queryKey: ['job', jobId],
  queryFn: async () => (await unwrap(api.GET('/v1/key/jobs/{jobId}', { params: { path: { jobId } } }))).data,
});

/** Succeeded and failed targets out of all, as a bar with its numbers for assistive technologies. */
function Progress({ job }: { job: Job }) {
  const { total, succeeded, failed } = job.progress;
  const done = succeeded + failed;
  const pct = (n: number) => (total ? `${(100 * n) / total}%` : '0%');
  const text = `${count(succeeded)} succeeded, ${count(failed)} failed, of ${count(total)} ${total === 1 ? 'target' : 'targets'}`;
  return (
    <div className="progress">
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={text}
        className="progress-track"
      >
        <span className="progress-ok" style={{ width: pct(succeeded) }} />
        <span className="progress-failed" style={{ width: pct(failed) }} />
      </div>
      <p className="progress-text">
        {text}
        {isActive(job.status) && <span className="muted"> · updating</span>}
      </p>
    </div>
  );
}

function Credits({ job }: { job: Job }) {
  const items = [
    ['Credits reserved', job.credits.reserved],
    ['Credits consumed', job.credits.consumed],
    ['Credits refunded', job.credits.refunded],
  ] as const;
  return (
    <div className="stats">
      {items.map(([label, value]) => (
        <div className="stat" key={label}>
          <span className="stat-label">{label}</span>
          <span className="stat-value">{count(value)}</span>
        </div>
      ))}
    </div>
  );
}

const finished = (job: Job) => !isActive(job.status);

/** Cancel, retry (the failed targets, or all of a failed or cancelled job) and the three exports. */
function Actions({ job }: { job: Job }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/key/jobs/{jobId}/cancel', { params: { path: { jobId: job.id } } })),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(['job', job.id], data);
      void queryClient.invalidateQueries({ queryKey: ['jobs', job.projectId] });
    },
  });
  const retry = useMutation({
    mutationFn: (targets: 'failed' | 'all') =>
      unwrap(api.POST('/v1/key/jobs/{jobId}/retry', { params: { path: { jobId: job.id } }, body: { targets } })),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(['job', data.id], data);
      void queryClient.invalidateQueries({ queryKey: ['jobs', job.projectId] });
      void navigate({ to: '/console/jobs/$jobId', params: { jobId: data.id } });
    },
  });
  // failed, or not crawled because the job was cancelled: what `Retry failed targets` crawls again
  const hasFailures = job.progress.failed > 0 || job.errors.length > 0 || job.progress.succeeded < job.progress.total;
  // the API exports completed jobs only (409 JOB_NOT_COMPLETE otherwise)
  const exportable = job.status === 'completed' && !job.resultsPurgedAt;
  const exportHref = (format: 'csv' | 'json' | 'llm') => `/v1/key/jobs/${encodeURIComponent(job.id)}/export?format=${format}`;
  return (
    <section aria-label="Actions" className="job-actions">
      <div className="row">
        {isActive(job.status) && (
          <Button variant="danger" isDisabled={cancel.isPending} onPress={() => cancel.mutate()}>
            Cancel job
          </Button>
        )}
        <Button isDisabled={!finished(job) || !hasFailures || retry.isPending} onPress={() => retry.mutate('failed')}>
          Retry failed targets
        </Button>
        <Button
          variant="secondary"
          isDisabled={(job.status !== 'failed' && job.status !== 'cancelled') || retry.isPending}
          onPress={() => retry.mutate('all')}
        >
          Retry all targets
        </Button>
        {exportable && (
          <>
            <a className="button secondary" href={exportHref('csv')} download>
              Export CSV
            </a>
            <a className="button secondary" href={exportHref('json')} download>
              Export JSON
            </a>
            <a className="button secondary" href={exportHref('llm')} download>
              Export LLM
            </a>
          </>
        )}
      </div>
      {!finished(job) && <p className="muted">Exports and retries are available once the job has finished.</p>}
      {finished(job) && job.status !== 'completed' && (
        <p className="muted">Exports are for completed jobs: retry this one to get its results.</p>
      )}
      {finished(job) && !hasFailures && <p className="muted">Every target succeeded: nothing to retry.</p>}
      {job.status === 'completed' && hasFailures && (
        <p className="muted">Retry all targets is for failed or cancelled jobs; this one completed, so retry its failed targets.</p>
      )}
      <ErrorNotice error={cancel.error} title="The job could not be cancelled." />
      <ErrorNotice error={retry.error} title="The job could not be retried." />
    </section>
  );
}

const TARGETS_SHOWN = 100;

interface Outcome {
  label: string;
  tone: 'ok' | 'bad' | '';
  detail: ReactNode;
}

/**
 * What became of each target. The job lists its failed targets (errors) and those with a note;
 * the others succeeded once it has finished, except those a cancel stopped before they were crawled:
 * the progress counts say how many those are, not which (unless none of the rest succeeded).
 */
function outcomes(job: Job): (target: string) => Outcome {
  const errors = new Map(job.errors.map((e) => [e.target, e]));
  const notes = new Map(job.notes.map((n) => [n.target, n]));
  const { total, succeeded, failed } = job.progress;
  const notCrawled = total - succeeded - failed;
  return (target) => {
    const error = errors.get(target);
    if (error)
      return {
        label: 'failed',
        tone: 'bad',
        detail: (
          <span className="outcome-failed">
            <code>{error.code}</code> {error.message}
          </span>
        ),
      };
    const note = notes.get(target);
    if (note)
      return {
        label: 'succeeded',
        tone: 'ok',
        detail: (
          <>
            <code>{note.code}</code> {note.message}
          </>
        ),
      };
    if (!finished(job)) return { label: 'pending', tone: '', detail: <span className="muted">Not finished yet</span> };
    if (notCrawled <= 0) return { label: 'succeeded', tone: 'ok', detail: <span className="muted">—</span> };
    if (succeeded === 0)
      return { label: 'not crawled', tone: '', detail: <span className="muted">The job ended before this target was crawled.</span> };
    return {
      label: 'succeeded or not crawled',
      tone: '',
      detail: <span className="muted">The job ended with {count(notCrawled)} targets not crawled; the results show which succeeded.</span>,
    };
  };
}

/** Every target with its outcome: failed (code and message), succeeded (with a note), pending or not crawled. */
function TargetsTable({ job }: { job: Job }) {
  const [all, setAll] = useState(false);
  const outcomeOf = outcomes(job);
  const shown = all ? job.targets : job.targets.slice(0, TARGETS_SHOWN);
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Targets of job {job.id} and their outcome</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => {
              const outcome = outcomeOf(t);
              return (
                <tr key={t}>
                  <td className="mono target-cell">{t}</td>
                  <td>
                    <span className={`badge ${outcome.tone}`.trim()}>{outcome.label}</span>
                  </td>
                  <td>{outcome.detail}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {job.targets.length > TARGETS_SHOWN && (
        <div className="row">
          <Button variant="secondary" onPress={() => setAll(!all)}>
            {all ? `Show the first ${TARGETS_SHOWN} targets` : `Show all ${count(job.targets.length)} targets`}
          </Button>
        </div>
      )}
    </>
  );
}

function JobView({ job }: { job: Job }) {
  return (
    <>
      <p>
        <Link to="/console/projects/$projectId/jobs" params={{ projectId: job.projectId }}>
          ← Jobs
        </Link>
      </p>
      <h1 className="job-title">
        Job <span className="mono">{job.id}</span>
      </h1>
      <div className="job-meta">
        <span>
          Status: <span className={statusBadge(job.status)}>{job.status}</span>
        </span>
        <span>
          Type: {JOB_TYPES[job.type].label} <span className="muted">({job.type})</span>
        </span>
        <span>Marketplace: {marketplaceName(job.marketplace)}</span>
        {job.pages !== null && <span>Pages per target: {job.pages}</span>}
        {job.sort && <span>Sort: {job.sort}</span>}
        {job.lang && <span>Language: {job.lang}</span>}
        {job.retryOf && (
          <span>
            Retry of{' '}
            <Link to="/console/jobs/$jobId" params={{ jobId: job.retryOf }} className="mono">
              {job.retryOf}
            </Link>
          </span>
        )}
        {job.scheduleId && (
          <span>
            From schedule <span className="mono">{job.scheduleId}</span>
          </span>
        )}
      </div>
      <Progress job={job} />
      <Credits job={job} />
      <dl className="times">
        <dt>Created</dt>
        <dd>
          <DateTime value={job.createdAt} withSeconds />
        </dd>
        <dt>Started</dt>
        <dd>
          <DateTime value={job.startedAt} withSeconds />
        </dd>
        <dt>Finished</dt>
        <dd>
          <DateTime value={job.finishedAt} withSeconds />
        </dd>
      </dl>
      <Actions job={job} />
      <h2>Targets</h2>
      <TargetsTable job={job} />
      <h2>Results</h2>
      <p className="muted">{count(job.resultsCount)} results in all.</p>
      <ResultsTable job={job} />
    </>
  );
}

export function JobPage() {
  const { jobId } = useParams({ strict: false }) as { jobId: string };
  const job = useQuery({
    ...jobQuery(jobId),
    // follow the job until it has finished
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 2000 : false),
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
  });
  useProjectOfPage(job.data?.projectId);

  if (job.isLoading) return <Loading what="the job" />;
  if (job.error) {
    const notFound = job.error instanceof ApiError && job.error.status === 404;
    return (
      <>
        <h1 className="job-title">
          Job <span className="mono">{jobId}</span>
        </h1>
        <ErrorNotice error={job.error} title={notFound ? 'Job not found.' : 'The job could not be loaded.'} />
        {notFound && <p>It does not exist, or it belongs to a project you are not a member of.</p>}
      </>
    );
  }
  return job.data ? <JobView job={job.data} /> : null;
}
