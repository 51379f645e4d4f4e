import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ButtonPager } from '../../ui/pager';
import { DateTime } from '../../ui/time';
import { formatMoney, formatRank } from './format';
import { trackedTargetsQuery } from './tracking.queries';
import type { TrackingSearch } from './tracking-search';

const PAGE_SIZE = 25;

/** The columns the API sorts by (its whitelist, docs/schedules-and-tracking.md), and the direction a first press sorts in. */
const SORTABLE = {
  asin: { label: 'Product', first: 'asc' },
  title: { label: 'Title', first: 'asc' },
  price: { label: 'Price', first: 'desc' },
  changeCount: { label: 'Changes', first: 'desc' },
  lastChangedAt: { label: 'Last changed', first: 'desc' },
} as const;
type SortField = keyof typeof SORTABLE;
const DEFAULT_SORT = 'lastSeenAt:desc';

function parseSort(sort: string | undefined): { field: string; direction: 'asc' | 'desc' } {
  const [field = 'lastSeenAt', direction] = (sort ?? DEFAULT_SORT).split(':');
  return { field, direction: direction === 'desc' ? 'desc' : 'asc' };
}

/** A header cell whose sort is a button inside it; `aria-sort` on the cell says the current order. */
function SortHeader({ field, sort, onSort }: { field: SortField; sort: string | undefined; onSort: (sort: string) => void }) {
  const current = parseSort(sort);
  const active = current.field === field;
  const next = active ? (current.direction === 'asc' ? 'desc' : 'asc') : SORTABLE[field].first;
  return (
    <th scope="col" aria-sort={active ? (current.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(`${field}:${next}`)}>
        {SORTABLE[field].label}
        <span aria-hidden="true" className="sort-arrow">
          {active ? (current.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** The tracked products: searched by ASIN or title, sorted by the API, a page at a time; the row's ASIN opens its view. */
export function TrackedList({
  projectId,
  search,
  onSearch,
}: {
  projectId: string;
  search: TrackingSearch;
  onSearch: (next: Partial<TrackingSearch>) => void;
}) {
  const offset = search.offset ?? 0;
  const targets = useQuery(trackedTargetsQuery(projectId, { q: search.q, sort: search.sort, offset, limit: PAGE_SIZE }));
  const [text, setText] = useState(search.q ?? '');
  const list = targets.data?.data ?? [];
  const total = targets.data?.pagination.total ?? 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch({ q: text.trim() || undefined, offset: undefined });
  };
  const sortBy = (sort: string) => onSearch({ sort, offset: undefined });

  if (targets.isLoading) return <Loading what="tracked products" />;
  if (targets.error) return <ErrorNotice error={targets.error} />;
  if (!search.q && total === 0)
    return (
      <EmptyState title="No tracked products yet">
        <p>
          Details and search jobs feed tracking automatically: every product they crawl gets a timeline of its price, rank and other fields.
          Run a details job on a few ASINs twice (or on a schedule) to see how they change.{' '}
          <Link to="/console/projects/$projectId/jobs" params={{ projectId }}>
            Go to jobs
          </Link>
        </p>
      </EmptyState>
    );
  return (
    <section aria-labelledby="tracked-heading">
      <h2 id="tracked-heading">Tracked products</h2>
      <form role="search" className="tracked-search" onSubmit={submit}>
        <label htmlFor="tracked-q">Search by ASIN or title</label>
        <input id="tracked-q" type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="button secondary">
          Search
        </button>
        {search.q && (
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setText('');
              onSearch({ q: undefined, offset: undefined });
            }}
          >
            Clear search
          </button>
        )}
      </form>
      {list.length === 0 ? (
        <p role="status">No tracked product matches “{search.q}”.</p>
      ) : (
        <div className="table-wrap tracked-wrap">
          <table className="tracked-table">
            <caption className="visually-hidden">Tracked products, choose one to see its price history</caption>
            <thead>
              <tr>
                <SortHeader field="asin" sort={search.sort} onSort={sortBy} />
                <th scope="col">Deliver to</th>
                <SortHeader field="title" sort={search.sort} onSort={sortBy} />
                <SortHeader field="price" sort={search.sort} onSort={sortBy} />
                <th scope="col">Best-sellers rank</th>
                <SortHeader field="changeCount" sort={search.sort} onSort={sortBy} />
                <SortHeader field="lastChangedAt" sort={search.sort} onSort={sortBy} />
              </tr>
            </thead>
            <tbody>
              {list.map((t) => {
                // one row per product and delivery location: each location is a series of its own
                const selected =
                  t.asin === search.asin && t.marketplace === search.marketplace && (t.postalCode ?? undefined) === search.postalCode;
                return (
                  <tr key={`${t.asin}-${t.marketplace}-${t.postalCode ?? ''}`}>
                    <td data-label="Product">
                      <Link
                        to="/console/projects/$projectId/tracking"
                        params={{ projectId }}
                        search={{ ...search, asin: t.asin, marketplace: t.marketplace, postalCode: t.postalCode ?? undefined }}
                        className="mono"
                        aria-current={selected ? 'true' : undefined}
                        aria-label={`${t.asin}${t.postalCode ? ` at ${t.postalCode}` : ''}: open its price history`}
                      >
                        {t.asin}
                      </Link>{' '}
                      <span className="muted">{t.marketplace}</span>
                    </td>
                    <td data-label="Deliver to">{t.postalCode ?? <span className="muted">default</span>}</td>
                    <td data-label="Title" className="tracked-title" title={t.snapshot?.title ?? undefined}>
                      {t.snapshot?.title ?? <span className="muted">—</span>}
                    </td>
                    <td data-label="Price">{formatMoney(t.snapshot?.price, t.snapshot?.currency)}</td>
                    <td data-label="Best-sellers rank" className="tracked-rank">
                      {formatRank(t.snapshot?.bestSellersRank)}
                    </td>
                    <td data-label="Changes">{t.changeCount}</td>
                    <td data-label="Last changed">
                      <DateTime value={t.lastChangedAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <ButtonPager
          label="Tracked products pages"
          offset={offset}
          pageSize={PAGE_SIZE}
          total={total}
          onOffset={(o) => onSearch({ offset: o || undefined })}
        >
          {offset < total ? `${offset + 1}–${Math.min(offset + PAGE_SIZE, total)} of ${total}` : `past the last of ${total}`}
        </ButtonPager>
      )}
    </section>
  );
}
