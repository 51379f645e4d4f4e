import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ApiError } from '../../api/client';
import { useProjectOfPage } from '../../ui/current-project';
import { count } from '../../ui/format';
import { ErrorNotice, Loading } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { JobDeliveries } from '../destinations/job-deliveries';
import { JobActions } from './job-actions';
import { JOB_KINDS } from './job-kinds';
import { Credits, Progress } from './job-progress';
import { isActive, statusBadge } from './job-status';
import { type Job, jobQuery } from './jobs.queries';
import { marketplaceName } from './marketplaces';
import { ResultsTable } from './results-table';
import { TargetsTable } from './targets-table';
import './jobs.css';

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
          Type: {JOB_KINDS[job.type].label} <span className="muted">({job.type})</span>
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
      <JobActions job={job} />
      <h2>Targets</h2>
      <TargetsTable job={job} />
      <h2>Results</h2>
      <p className="muted">
        {count(job.resultsCount)} {job.resultsCount === 1 ? 'result' : 'results'} in all.
      </p>
      <ResultsTable job={job} />
      <JobDeliveries job={job} />
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
