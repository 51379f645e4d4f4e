import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import type { JobsSearch } from '../../router';
import { useProjectOfPage } from '../../ui/current-project';
import { count } from '../../ui/format';
import { Button, EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { ButtonPager } from '../../ui/pager';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { DateFilter, SearchBox } from './job-filters';
import { isJobType, JOB_KINDS, JOB_TYPES } from './job-kinds';
import { isActive, isJobStatus, JOB_STATUSES } from './job-status';
import { fetchJobs, jobKeys, type JobsQuery } from './jobs.queries';
import { JobsTable } from './jobs-table';
import { NewJobDialog } from './new-job-dialog';
import './jobs.css';

const PAGE_SIZE = 20;

/** The API's filters from the URL's: unknown values are left out rather than sent to be refused. */
const apiQuery = (search: JobsSearch): JobsQuery => ({
  ...(isJobStatus(search.status) ? { status: search.status } : {}),
  ...(isJobType(search.type) ? { type: search.type } : {}),
  ...(search.q ? { q: search.q } : {}),
  ...(search.from ? { from: search.from } : {}),
  ...(search.to ? { to: search.to } : {}),
  limit: PAGE_SIZE,
  offset: search.offset ?? 0,
});

/** The first job's request, as a user would type it with a key of this project. */
const firstJobCurl = (projectId: string) =>
  `curl -X POST ${window.location.origin}/v1/key/projects/${projectId}/jobs -H "Authorization: Bearer $CRAWL_API_KEY" -H 'Content-Type: application/json' -d '{"type":"details","targets":["B0DR8G428S"]}'`;

function FirstJob({ projectId }: { projectId: string }) {
  return (
    <EmptyState title="No jobs yet">
      <p>
        A job crawls a list of targets (keywords, products or best-seller lists) and keeps the results for you to read or export. Start one
        with <strong>New job</strong> above, or from your code with an API key:
      </p>
      <pre className="snippet">
        <code>{firstJobCurl(projectId)}</code>
      </pre>
      <p>
        Create the key on the{' '}
        <Link to="/console/projects/$projectId/keys" params={{ projectId }}>
          API keys page
        </Link>{' '}
        and put it in <code>CRAWL_API_KEY</code>.
      </p>
    </EmptyState>
  );
}

export function JobsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const writer = useCan('data.write', projectId);
  const search = useSearch({ strict: false }) as JobsSearch;
  const navigate = useNavigate();
  const query = apiQuery(search);
  const jobs = useQuery({
    queryKey: jobKeys.list(projectId, query),
    queryFn: () => fetchJobs(projectId, query),
    placeholderData: keepPreviousData,
    // follow running jobs; stop once every listed job has finished
    refetchInterval: (q) => (q.state.data?.data.some((j) => isActive(j.status)) ? 3000 : false),
  });

  /** A new filter value: back to the first page. */
  const setFilter = (patch: Partial<JobsSearch>) =>
    void navigate({
      to: '/console/projects/$projectId/jobs',
      params: { projectId },
      search: (prev: JobsSearch) => ({ ...prev, ...patch, offset: undefined }),
    });
  const setOffset = (offset: number) =>
    void navigate({
      to: '/console/projects/$projectId/jobs',
      params: { projectId },
      search: (prev: JobsSearch) => ({ ...prev, offset: offset || undefined }),
    });

  const filtered = !!(search.status || search.type || search.q || search.from || search.to);
  const rows = jobs.data?.data ?? [];
  const total = jobs.data?.pagination.total ?? 0;
  const offset = search.offset ?? 0;
  const last = Math.min(offset + PAGE_SIZE, total);
  // an offset at or past the end (an old link, a list that shrank): no rows, and the way back
  const lastPage = Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);
  const pastEnd = total > 0 && offset >= total;

  return (
    <>
      <div className="page-head">
        <h1>Jobs</h1>
        {writer.allowed && <NewJobDialog projectId={projectId} />}
      </div>
      <ReadOnlyNote can={writer} />
      <div className="filters">
        <SelectField
          label="Status"
          value={search.status ?? ''}
          onChange={(v) => setFilter({ status: v || undefined })}
          options={[{ value: '', label: 'All' }, ...JOB_STATUSES.map((s) => ({ value: s, label: s }))]}
        />
        {/* not `Type`: SelectField's id comes from its label, and the new-job dialog has its own `Type` */}
        <SelectField
          label="Job type"
          value={search.type ?? ''}
          onChange={(v) => setFilter({ type: v || undefined })}
          options={[{ value: '', label: 'All' }, ...JOB_TYPES.map((t) => ({ value: t, label: JOB_KINDS[t].label }))]}
        />
        <DateFilter id="jobs-from" label="From" value={search.from ?? ''} onChange={(v) => setFilter({ from: v || undefined })} />
        <DateFilter id="jobs-to" label="To" value={search.to ?? ''} onChange={(v) => setFilter({ to: v || undefined })} />
        <SearchBox value={search.q ?? ''} onSearch={(q) => setFilter({ q: q || undefined })} />
        {filtered && (
          <Link to="/console/projects/$projectId/jobs" params={{ projectId }} search={{}} className="clear-filters">
            Clear filters
          </Link>
        )}
      </div>
      {jobs.isLoading && <Loading what="jobs" />}
      <ErrorNotice error={jobs.error} title="The jobs could not be loaded." />
      {jobs.data && total === 0 && !filtered && <FirstJob projectId={projectId} />}
      {jobs.data && total === 0 && filtered && (
        <EmptyState title="No job matches these filters">
          <p>Widen the dates, pick another status, or clear the filters.</p>
        </EmptyState>
      )}
      {jobs.data && pastEnd && (
        <EmptyState title="No jobs on this page">
          <p>
            This project has {count(total)} {total === 1 ? 'job' : 'jobs'}
            {filtered ? ' matching these filters' : ''}, all on earlier pages.
          </p>
          <Button variant="secondary" onPress={() => setOffset(lastPage)}>
            Go to the last page
          </Button>
        </EmptyState>
      )}
      {jobs.data && total > 0 && !pastEnd && (
        <>
          <JobsTable jobs={rows} caption={`Jobs of this project, newest first${filtered ? ', filtered' : ''}`} />
          <ButtonPager label="Pages of jobs" offset={offset} pageSize={PAGE_SIZE} total={total} onOffset={setOffset}>
            {total === 0 ? 'No jobs' : `${count(offset + 1)}–${count(last)} of ${count(total)} ${total === 1 ? 'job' : 'jobs'}`}
          </ButtonPager>
        </>
      )}
    </>
  );
}
