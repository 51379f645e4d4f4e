import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { JobsSearch } from '../router';
import { Button, EmptyState, ErrorNotice, Loading, SelectField } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { DateTime } from '../ui/time';
import './jobs/jobs.css';
import { count, isActive, isJobStatus, isJobType, type Job, JOB_STATUSES, JOB_TYPE_KEYS, JOB_TYPES, statusBadge } from './jobs/kinds';
import { NewJobDialog } from './jobs/new-job-dialog';

const PAGE_SIZE = 20;

/** The API's filters from the URL's: unknown values are left out rather than sent to be refused. */
const apiQuery = (search: JobsSearch) => ({
  ...(isJobStatus(search.status) ? { status: search.status } : {}),
  ...(isJobType(search.type) ? { type: search.type } : {}),
  ...(search.q ? { q: search.q } : {}),
  ...(search.from ? { from: search.from } : {}),
  ...(search.to ? { to: search.to } : {}),
  limit: PAGE_SIZE,
  offset: search.offset ?? 0,
});

const jobsQuery = (projectId: string, search: JobsSearch) => ({
  queryKey: ['jobs', projectId, apiQuery(search)],
  queryFn: async () => unwrap(api.GET('/v1/key/projects/{projectId}/jobs', { params: { path: { projectId }, query: apiQuery(search) } })),
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

/** The search box: sent on Enter or `Search`, so the URL (and the API) is not hit at every key press. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <form
      role="search"
      className="field job-search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft.trim());
      }}
    >
      <label htmlFor="jobs-q">Search</label>
      <div className="inline">
        <input id="jobs-q" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Job id, keyword or ASIN" />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </div>
    </form>
  );
}

function DateFilter({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function Pager({ total, offset, onOffset }: { total: number; offset: number; onOffset: (o: number) => void }) {
  const last = Math.min(offset + PAGE_SIZE, total);
  return (
    <nav className="pager" aria-label="Pages of jobs">
      <Button variant="secondary" isDisabled={offset === 0} onPress={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </Button>
      <span>{total === 0 ? 'No jobs' : `${count(offset + 1)}–${count(last)} of ${count(total)} ${total === 1 ? 'job' : 'jobs'}`}</span>
      <Button variant="secondary" isDisabled={last >= total} onPress={() => onOffset(offset + PAGE_SIZE)}>
        Next
      </Button>
    </nav>
  );
}

function JobsTable({ jobs, caption }: { jobs: Job[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table className="jobs-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Targets</th>
            <th scope="col">Progress</th>
            <th scope="col">Credits</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
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
                  {JOB_TYPES[j.type].label}
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
        </tbody>
      </table>
    </div>
  );
}

export function JobsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as JobsSearch;
  const navigate = useNavigate();
  const jobs = useQuery({
    ...jobsQuery(projectId, search),
    placeholderData: keepPreviousData,
    // follow running jobs; stop once every listed job has finished
    refetchInterval: (query) => (query.state.data?.data.some((j) => isActive(j.status)) ? 3000 : false),
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

  return (
    <>
      <div className="page-head">
        <h1>Jobs</h1>
        <NewJobDialog projectId={projectId} />
      </div>
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
          options={[{ value: '', label: 'All' }, ...JOB_TYPE_KEYS.map((t) => ({ value: t, label: JOB_TYPES[t].label }))]}
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
      {jobs.data && total > 0 && (
        <>
          <JobsTable jobs={rows} caption={`Jobs of this project, newest first${filtered ? ', filtered' : ''}`} />
          <Pager total={total} offset={search.offset ?? 0} onOffset={setOffset} />
        </>
      )}
    </>
  );
}
