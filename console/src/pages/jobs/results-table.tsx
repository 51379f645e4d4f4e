import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';
import { Button, EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { count, isActive, type Job, type JobType } from './kinds';

const PAGE_SIZE = 20;

type Money = Schemas['Money'] | null;
type Item = Schemas['ResultItem'];

interface Column<T> {
  header: string;
  cell: (item: T) => ReactNode;
  className?: string;
}

const money = (m: Money) =>
  m ? (
    <span className="nowrap">
      {m.amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} {m.currency}
    </span>
  ) : (
    <span className="muted">—</span>
  );
const maybe = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? <span className="muted">—</span> : v);
const yesNo = (v: boolean | null) => (v === null ? <span className="muted">—</span> : v ? 'Yes' : 'No');
const rating = (v: number | null) => (v === null ? <span className="muted">—</span> : `${v.toFixed(1)} / 5`);
const asin = (v: string) => <span className="mono">{v}</span>;
const title = (text: string | null, url?: string | null) =>
  text && url ? (
    <a href={url} target="_blank" rel="noreferrer noopener">
      {text}
    </a>
  ) : (
    maybe(text)
  );

/** The main fields of each job type's items; the whole item is one click away (`Raw`). */
const COLUMNS: { [T in JobType]: Column<never>[] } = {
  details: [
    { header: 'ASIN', cell: (i: Schemas['DetailsResultItem']) => asin(i.asin) },
    { header: 'Title', cell: (i: Schemas['DetailsResultItem']) => title(i.title, i.url), className: 'cell-title' },
    { header: 'Brand', cell: (i: Schemas['DetailsResultItem']) => maybe(i.brand) },
    { header: 'Price', className: 'nowrap', cell: (i: Schemas['DetailsResultItem']) => money(i.price) },
    { header: 'Rating', className: 'nowrap', cell: (i: Schemas['DetailsResultItem']) => rating(i.rating) },
    { header: 'Reviews', cell: (i: Schemas['DetailsResultItem']) => maybe(i.reviewsCount === null ? null : count(i.reviewsCount)) },
    { header: 'Availability', cell: (i: Schemas['DetailsResultItem']) => i.availability.status.replace(/_/g, ' ') },
  ],
  search: [
    { header: 'Keyword', cell: (i: Schemas['SearchResultItem']) => i.keyword },
    { header: 'Position', className: 'nowrap', cell: (i: Schemas['SearchResultItem']) => `${i.position} (page ${i.page})` },
    { header: 'ASIN', cell: (i: Schemas['SearchResultItem']) => asin(i.asin) },
    { header: 'Title', cell: (i: Schemas['SearchResultItem']) => title(i.title, i.url), className: 'cell-title' },
    { header: 'Price', className: 'nowrap', cell: (i: Schemas['SearchResultItem']) => money(i.price) },
    { header: 'Rating', className: 'nowrap', cell: (i: Schemas['SearchResultItem']) => rating(i.rating) },
    { header: 'Sponsored', cell: (i: Schemas['SearchResultItem']) => yesNo(i.isSponsored) },
  ],
  offers: [
    { header: 'ASIN', cell: (i: Schemas['OfferResultItem']) => asin(i.asin) },
    { header: 'Position', className: 'nowrap', cell: (i: Schemas['OfferResultItem']) => i.position },
    { header: 'Price', className: 'nowrap', cell: (i: Schemas['OfferResultItem']) => money(i.price) },
    { header: 'Shipping', className: 'nowrap', cell: (i: Schemas['OfferResultItem']) => money(i.shipping) },
    { header: 'Condition', cell: (i: Schemas['OfferResultItem']) => maybe(i.condition) },
    { header: 'Seller', cell: (i: Schemas['OfferResultItem']) => maybe(i.seller?.name) },
    { header: 'Buy box', cell: (i: Schemas['OfferResultItem']) => yesNo(i.isBuyBox) },
  ],
  bestsellers: [
    { header: 'List', cell: (i: Schemas['BestsellerResultItem']) => maybe(i.category) },
    { header: 'Rank', className: 'nowrap', cell: (i: Schemas['BestsellerResultItem']) => `#${i.rank}` },
    { header: 'ASIN', cell: (i: Schemas['BestsellerResultItem']) => asin(i.asin) },
    { header: 'Title', cell: (i: Schemas['BestsellerResultItem']) => title(i.title, i.url), className: 'cell-title' },
    { header: 'Price', className: 'nowrap', cell: (i: Schemas['BestsellerResultItem']) => money(i.price) },
    { header: 'Rating', className: 'nowrap', cell: (i: Schemas['BestsellerResultItem']) => rating(i.rating) },
  ],
  reviews: [
    { header: 'ASIN', cell: (i: Schemas['ReviewResultItem']) => asin(i.asin) },
    { header: 'Rating', className: 'nowrap', cell: (i: Schemas['ReviewResultItem']) => rating(i.rating) },
    { header: 'Title', cell: (i: Schemas['ReviewResultItem']) => maybe(i.title), className: 'cell-title' },
    { header: 'Author', cell: (i: Schemas['ReviewResultItem']) => maybe(i.author) },
    { header: 'Date', className: 'nowrap', cell: (i: Schemas['ReviewResultItem']) => maybe(i.date ?? i.dateText) },
    { header: 'Verified', cell: (i: Schemas['ReviewResultItem']) => yesNo(i.verifiedPurchase) },
    { header: 'Helpful', cell: (i: Schemas['ReviewResultItem']) => maybe(i.helpfulVotes) },
  ],
};

/** The job's results, 20 per page, with the columns of its type; refreshed while the job runs. */
export function ResultsTable({ job }: { job: Job }) {
  const [offset, setOffset] = useState(0);
  const running = isActive(job.status);
  const results = useQuery({
    // a new count (or the end of the job) is a new page: results are read again as the job's poll reports them
    queryKey: ['job-results', job.id, offset, job.resultsCount, job.status],
    queryFn: async () =>
      unwrap(api.GET('/v1/key/jobs/{jobId}/results', { params: { path: { jobId: job.id }, query: { limit: PAGE_SIZE, offset } } })),
    placeholderData: keepPreviousData,
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
  });
  const columns = COLUMNS[job.type] as Column<Item>[];

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
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Results of job {job.id}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col">
                  {c.header}
                </th>
              ))}
              <th scope="col">Raw</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label="Pages of results">
        <Button variant="secondary" isDisabled={offset === 0} onPress={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
          Previous
        </Button>
        <span>
          {count(offset + 1)}–{count(last)} of {count(total)} results
        </span>
        <Button variant="secondary" isDisabled={last >= total} onPress={() => setOffset(offset + PAGE_SIZE)}>
          Next
        </Button>
      </nav>
    </>
  );
}
