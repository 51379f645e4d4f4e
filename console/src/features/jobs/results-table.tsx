import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { count } from '../../ui/format';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ButtonPager } from '../../ui/pager';
import { Table } from '../../ui/table';
import { JOB_KINDS, type ResultColumn } from './job-kinds';
import { isActive } from './job-status';
import { fetchResults, type Job, jobKeys } from './jobs.queries';

const PAGE_SIZE = 20;

/** The job's results, 20 per page, with the columns of its type; refreshed while the job runs. */
export function ResultsTable({ job }: { job: Job }) {
  const [offset, setOffset] = useState(0);
  const running = isActive(job.status);
  const results = useQuery({
    queryKey: jobKeys.results(job, offset),
    queryFn: () => fetchResults(job.id, { limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
  });
  // the job's type says which item schema its results have (items are never told apart by their keys)
  const columns = JOB_KINDS[job.type].columns as ResultColumn<Schemas['ResultItem']>[];

  if (job.resultsPurgedAt)
    return (
      <EmptyState title="Results deleted">
        <p>This job’s results were deleted or reached the end of their retention; run the job again to crawl them anew.</p>
      </EmptyState>
    );
  if (results.isLoading) return <Loading what="results" />;
  if (results.error) return <ErrorNotice error={results.error} title="The results could not be loaded." />;
  const page = results.data;
  if (!page || page.pagination.total === 0)
    return (
      <EmptyState title={running ? 'No results yet' : 'No results'}>
        <p>{running ? 'Results appear here as targets finish.' : 'No target of this job produced a result: see the targets above.'}</p>
      </EmptyState>
    );

  const { total } = page.pagination;
  const last = Math.min(offset + PAGE_SIZE, total);
  return (
    <>
      <Table caption={`Results of job ${job.id}`} captionHidden columns={[...columns.map((c) => c.header), 'Raw']}>
        {page.data.map((item, i) => (
          <tr key={offset + i}>
            {columns.map((c) => (
              <td key={c.header} className={c.className}>
                {c.cell(item)}
              </td>
            ))}
            <td>
              <details className="raw-json nowrap">
                <summary>
                  JSON<span className="visually-hidden"> of result {offset + i + 1}</span>
                </summary>
                <pre>{JSON.stringify(item, null, 2)}</pre>
              </details>
            </td>
          </tr>
        ))}
      </Table>
      <ButtonPager label="Pages of results" offset={offset} pageSize={PAGE_SIZE} total={total} onOffset={setOffset}>
        {count(offset + 1)}–{count(last)} of {count(total)} results
      </ButtonPager>
    </>
  );
}
