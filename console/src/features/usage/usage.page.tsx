import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useProjectOfPage } from '../../ui/current-project';
import { count } from '../../ui/format';
import { ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { CreditsChart } from './credits-chart';
import { bucketsFromDaily, bucketsFromLedger } from './credits-series';
import { LedgerLegend, LedgerTable } from './ledger-table';
import { asRange, RANGES, type RangeKey, type RangeWindow, rangeWindow } from './range';
import { analyticsQuery, ledgerAllQuery, ledgerPageQuery } from './usage.queries';

const PAGE = 20;

type UsageSearch = { range?: string; offset?: number };

/**
 * Credits per bucket. 7 d and 30 d: the analytics `daily` series (per UTC day, computed by the API).
 * 24 h: the API has no hourly series, so the range's ledger entries are read and summed per hour here.
 */
function useCreditBuckets(projectId: string, range: RangeKey, window: RangeWindow) {
  const hourly = range === '24h';
  const daily = useQuery({ ...analyticsQuery(projectId, window.from, window.to), enabled: !hourly });
  const ledger = useQuery({ ...ledgerAllQuery(projectId, window.from, window.to), enabled: hourly });
  const buckets = useMemo(() => {
    if (hourly) return ledger.data ? bucketsFromLedger(ledger.data.entries, window.buckets, window.bucketMs) : null;
    return daily.data ? bucketsFromDaily(daily.data.data.daily, window.buckets) : null;
  }, [hourly, ledger.data, daily.data, window]);
  const query = hourly ? ledger : daily;
  return { buckets, partial: hourly && ledger.data?.complete === false, isLoading: query.isLoading, error: query.error };
}

export function UsagePage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as UsageSearch;
  const navigate = useNavigate();
  const range = asRange(search.range);
  const offset = search.offset ?? 0;
  // one window per range choice, so that paging the ledger does not move it
  const window = useMemo(() => rangeWindow(range, Date.now()), [range]);
  const usage = useQuery(ledgerPageQuery(projectId, window.from, window.to, offset, PAGE));
  const credits = useCreditBuckets(projectId, range, window);
  const rangeLabel = RANGES.find((r) => r.value === range)!.label;
  const setSearch = (next: UsageSearch) => void navigate({ to: '/console/projects/$projectId/usage', params: { projectId }, search: next });

  const data = usage.data?.data;
  const pagination = usage.data?.pagination;
  return (
    <>
      <div className="page-head">
        <h1>Usage</h1>
        <div className="filters">
          <SelectField<RangeKey>
            label="Range"
            value={range}
            onChange={(value) => setSearch({ range: value })}
            options={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          />
        </div>
      </div>
      {usage.isLoading && <Loading what="usage" />}
      <ErrorNotice error={usage.error} />
      {data && (
        <div className="stats">
          <div className="stat">
            <span className="stat-label">Credit balance</span>
            <output className="stat-value" aria-label="Credit balance">
              {count(data.balance)}
            </output>
            <span className="stat-label">shared by the organization’s projects</span>
          </div>
          <div className="stat">
            <span className="stat-label">Plan</span>
            <span className="stat-value">{data.plan[0]!.toUpperCase() + data.plan.slice(1)}</span>
          </div>
          <div className="stat">
            <span className="stat-label">Rate limit</span>
            <span className="stat-value">{count(data.rateLimit.limit)}</span>
            <span className="stat-label">
              requests per {data.rateLimit.windowSeconds === 1 ? 'second' : `${data.rateLimit.windowSeconds} s`} per user
            </span>
          </div>
          <div className="stat">
            <span className="stat-label">{rangeLabel}</span>
            <span className="stat-value">{count(data.credits.consumed)}</span>
            <span className="stat-label">
              consumed · {count(data.credits.reserved)} reserved · {count(data.credits.refunded)} refunded · {count(data.credits.granted)}{' '}
              granted
            </span>
          </div>
        </div>
      )}

      <h2>{range === '24h' ? 'Credits per hour' : 'Credits per day'}</h2>
      {credits.isLoading && <Loading what={range === '24h' ? 'credits per hour' : 'credits per day'} />}
      <ErrorNotice error={credits.error} />
      {credits.partial && (
        <p className="notice">This range has more ledger entries than the chart reads; the hourly numbers are partial.</p>
      )}
      {credits.buckets && <CreditsChart buckets={credits.buckets} hourly={range === '24h'} rangeLabel={rangeLabel} />}

      <h2>Ledger</h2>
      {data && (
        <p className="muted">
          From <DateTime value={data.range.from} /> to <DateTime value={data.range.to} />: this project’s reservations, consumption and
          refunds, and the organization’s grants.
        </p>
      )}
      {data && data.ledger.length === 0 && (
        <div className="empty">
          <p className="empty-title">No credit movements in this range</p>
          <p>
            Jobs reserve credits when they are created.{' '}
            <Link to="/console/projects/$projectId/jobs" params={{ projectId }}>
              Create a job
            </Link>{' '}
            or choose a longer range.
          </p>
        </div>
      )}
      {data && data.ledger.length > 0 && (
        <>
          <LedgerLegend />
          <LedgerTable entries={data.ledger} />
        </>
      )}
      {pagination && pagination.total > PAGE && (
        <nav className="pager" aria-label="Ledger pages">
          {offset > 0 ? (
            <Link
              to="/console/projects/$projectId/usage"
              params={{ projectId }}
              search={{ range: search.range, offset: Math.max(0, offset - PAGE) }}
            >
              Previous
            </Link>
          ) : (
            <span className="muted">Previous</span>
          )}
          <span>
            {offset + 1}–{Math.min(offset + PAGE, pagination.total)} of {pagination.total}
          </span>
          {pagination.hasMore ? (
            <Link to="/console/projects/$projectId/usage" params={{ projectId }} search={{ range: search.range, offset: offset + PAGE }}>
              Next
            </Link>
          ) : (
            <span className="muted">Next</span>
          )}
        </nav>
      )}
    </>
  );
}
