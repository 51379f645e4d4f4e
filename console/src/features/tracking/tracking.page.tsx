import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { CompareJobs } from './compare';
import { formatMoney, formatRank } from './format';
import { Timeline } from './timeline';
import { trackedTargetsQuery } from './tracking.queries';
import './tracking.css';

type TrackingSearch = { asin?: string; marketplace?: string; postalCode?: string; from?: string; to?: string };

const TARGETS_SHOWN = 100;

export function TrackingPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as TrackingSearch;
  const navigate = useNavigate();
  const setSearch = (next: TrackingSearch) =>
    void navigate({ to: '/console/projects/$projectId/tracking', params: { projectId }, search: next, replace: true });
  const targets = useQuery(trackedTargetsQuery(projectId, TARGETS_SHOWN));
  const list = targets.data?.data ?? [];
  const total = targets.data?.pagination.total ?? 0;

  return (
    <div className="tracking">
      <h1>Tracking</h1>
      <p className="muted">
        Every product your jobs crawl is tracked: each snapshot is compared with the one before, and changes are kept.
      </p>
      {targets.isLoading && <Loading what="tracked products" />}
      <ErrorNotice error={targets.error} />
      {targets.data && list.length === 0 && (
        <EmptyState title="No tracked products yet">
          <p>
            Details and search jobs feed tracking automatically: every product they crawl gets a timeline of its price, rank and other
            fields. Run a details job on a few ASINs twice (or on a schedule) to see how they change.{' '}
            <Link to="/console/projects/$projectId/jobs" params={{ projectId }}>
              Go to jobs
            </Link>
          </p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <>
          <h2>Tracked products</h2>
          <Table
            captionHidden
            caption="Tracked products, choose one to see its timeline"
            columns={['Product', 'Marketplace', 'Deliver to', 'Title', 'Price', 'Best-sellers rank', 'Changes', 'Last changed']}
          >
            {list.map((t) => {
              // one row per product and delivery location: each location is a series of its own
              const selected =
                t.asin === search.asin &&
                t.marketplace === (search.marketplace ?? t.marketplace) &&
                (t.postalCode ?? undefined) === search.postalCode;
              return (
                <tr key={`${t.asin}-${t.marketplace}-${t.postalCode ?? ''}`}>
                  <td>
                    <Link
                      to="/console/projects/$projectId/tracking"
                      params={{ projectId }}
                      search={{ ...search, asin: t.asin, marketplace: t.marketplace, postalCode: t.postalCode ?? undefined }}
                      className="mono"
                      aria-current={selected ? 'true' : undefined}
                    >
                      {t.asin}
                    </Link>
                  </td>
                  <td>{t.marketplace}</td>
                  <td>{t.postalCode ?? <span className="muted">marketplace default</span>}</td>
                  <td className="tracked-title" title={t.snapshot?.title ?? undefined}>
                    {t.snapshot?.title ?? <span className="muted">—</span>}
                  </td>
                  <td>{formatMoney(t.snapshot?.price, t.snapshot?.currency)}</td>
                  <td>{formatRank(t.snapshot?.bestSellersRank)}</td>
                  <td>{t.changeCount}</td>
                  <td>
                    <DateTime value={t.lastChangedAt} />
                  </td>
                </tr>
              );
            })}
          </Table>
          {total > list.length && (
            <p className="muted">
              Showing the first {list.length} of {total} tracked products.
            </p>
          )}
        </>
      )}
      {search.asin ? (
        <Timeline
          projectId={projectId}
          asin={search.asin}
          marketplace={search.marketplace ?? list.find((t) => t.asin === search.asin)?.marketplace ?? 'US'}
          {...(search.postalCode ? { postalCode: search.postalCode } : {})}
        />
      ) : (
        list.length > 0 && <p className="muted">Choose a product above to see its timeline.</p>
      )}
      <CompareJobs projectId={projectId} from={search.from} to={search.to} onChange={(next) => setSearch({ ...search, ...next })} />
    </div>
  );
}
