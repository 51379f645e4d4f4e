import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useProjectOfPage } from '../../ui/current-project';
import { count } from '../../ui/format';
import { EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { Table } from '../../ui/table';
import { asRange, RANGES, type RangeKey, rangeWindow } from '../usage/range';
import { analyticsQuery, ledgerPageQuery } from '../usage/usage.queries';
import { burnRate } from './burn-rate';

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
const duration = (s: number | null) => (s === null ? '—' : s < 90 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <output className="stat-value" aria-label={label}>
        {value}
      </output>
      {note && <span className="stat-label">{note}</span>}
    </div>
  );
}

/**
 * A project at a glance over a range (`?range=` 24 h / 7 d / 30 d, as on Usage): the balance and
 * how fast it runs down, jobs by status, success rate, failures by code, duration, changes and
 * webhook deliveries. The figures are the analytics resource's; the balance is the usage resource's.
 */
export function OverviewPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as { range?: string };
  const navigate = useNavigate();
  const range = asRange(search.range);
  const window = useMemo(() => rangeWindow(range, Date.now()), [range]);
  const analytics = useQuery(analyticsQuery(projectId, window.from, window.to));
  const usage = useQuery(ledgerPageQuery(projectId, window.from, window.to, 0, 1));
  const a = analytics.data?.data;
  const balance = usage.data?.data.balance;
  const rangeLabel = RANGES.find((r) => r.value === range)!.label;
  const burn = a && balance !== undefined ? burnRate(a.credits.consumed, Date.parse(a.range.to) - Date.parse(a.range.from), balance) : null;
  const failures = a ? Object.entries(a.failuresByCode).sort((x, y) => y[1] - x[1]) : [];
  const d = a?.webhookDeliveries;

  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <div className="filters">
          <SelectField<RangeKey>
            label="Range"
            value={range}
            onChange={(value) => void navigate({ to: '/console/projects/$projectId', params: { projectId }, search: { range: value } })}
            options={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          />
        </div>
      </div>
      {(analytics.isLoading || usage.isLoading) && <Loading what="the overview" />}
      <ErrorNotice error={analytics.error ?? usage.error} />
      {a && balance !== undefined && burn && (
        <>
          <div className="stats">
            <Stat label="Credit balance" value={count(balance)} note="shared by the organization’s projects" />
            <Stat
              label="Credits used"
              value={count(a.credits.consumed)}
              note={`${rangeLabel.toLowerCase()} · ${count(Math.round(burn.perDay))} per day`}
            />
            <Stat
              label="Days left"
              value={burn.daysLeft === null ? '—' : count(Math.floor(burn.daysLeft))}
              note={burn.daysLeft === null ? 'nothing consumed in this range' : 'at this range’s rate'}
            />
            <Stat label="Success rate" value={percent(a.targets.successRate)} note={`${count(a.targets.crawled)} targets crawled`} />
            <Stat
              label="Median job duration"
              value={duration(a.jobDurationSeconds.p50)}
              note={`p95 ${duration(a.jobDurationSeconds.p95)}`}
            />
            <Stat label="Changes detected" value={count(a.changesDetected)} note="on tracked products" />
          </div>

          {a.jobs.total === 0 ? (
            <EmptyState title="No jobs in this range">
              <p>
                A new project starts here:{' '}
                <Link to="/console/projects/$projectId/keys" params={{ projectId }}>
                  create an API key
                </Link>
                , then{' '}
                <Link to="/console/projects/$projectId/jobs" params={{ projectId }}>
                  create a job
                </Link>{' '}
                or{' '}
                <Link to="/console/projects/$projectId/schedules" params={{ projectId }}>
                  schedule one
                </Link>
                . Or choose a longer range.
              </p>
            </EmptyState>
          ) : (
            <Table caption="Jobs by status" columns={['Status', 'Jobs']}>
              {Object.entries(a.jobs.byStatus).map(([status, n]) => (
                <tr key={status}>
                  <td>
                    <Link to="/console/projects/$projectId/jobs" params={{ projectId }} search={{ status }}>
                      {status}
                    </Link>
                  </td>
                  <td>{count(n)}</td>
                </tr>
              ))}
            </Table>
          )}

          <Table caption="Failures by code" columns={['Code', 'Targets']}>
            {failures.length === 0 ? (
              <tr>
                <td colSpan={2} className="muted">
                  No failed targets in this range.
                </td>
              </tr>
            ) : (
              failures.map(([code, n]) => (
                <tr key={code}>
                  <td>
                    <code>{code}</code>
                  </td>
                  <td>{count(n)}</td>
                </tr>
              ))
            )}
          </Table>

          <h2>Webhook deliveries</h2>
          {d && d.succeeded + d.failed + d.pending + d.cancelled === 0 ? (
            <p className="muted">
              No deliveries in this range.{' '}
              <Link to="/console/projects/$projectId/webhooks" params={{ projectId }}>
                Add a webhook endpoint
              </Link>{' '}
              to hear when jobs finish.
            </p>
          ) : (
            d && (
              <div className="stats">
                <Stat label="Delivered" value={count(d.succeeded)} />
                <Stat label="Failed deliveries" value={count(d.failed)} />
                <Stat label="Pending deliveries" value={count(d.pending)} />
              </div>
            )
          )}
        </>
      )}
    </>
  );
}
