import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ButtonPager } from '../../ui/pager';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { type Alert, recentAlertsQuery } from './alerts.queries';
import { describeCondition, formatAlertValue } from './conditions';

const PAGE = 20;

function Values({ alert }: { alert: Alert }) {
  return (
    <>
      <span>{formatAlertValue(alert, 'value')}</span>
      <span className="block muted">
        before: {formatAlertValue(alert, 'previous')}
        {alert.baseline !== null && `; baseline ${formatAlertValue(alert, 'baseline')}`}
      </span>
    </>
  );
}

/**
 * The alerts the rules fired, newest first, a page at a time (the offset in the URL); each
 * product links to its timeline in Tracking, at the alert's delivery location.
 */
export function RecentAlerts({ projectId, offset }: { projectId: string; offset: number }) {
  const navigate = useNavigate();
  const alerts = useQuery({ ...recentAlertsQuery(projectId, offset, PAGE), refetchInterval: 30_000, placeholderData: keepPreviousData });
  const rows = alerts.data?.data ?? [];
  const total = alerts.data?.pagination.total ?? 0;
  const toOffset = (next: number) =>
    void navigate({
      to: '/console/projects/$projectId/alerts',
      params: { projectId },
      search: (prev: Record<string, unknown>) => ({ ...prev, offset: next > 0 ? next : undefined }),
    });
  return (
    <section aria-labelledby="recent-alerts-heading">
      <h2 id="recent-alerts-heading">Recent alerts</h2>
      {alerts.isLoading && <Loading what="alerts" />}
      <ErrorNotice error={alerts.error} />
      {alerts.data && total === 0 && (
        <EmptyState title="No alerts yet">
          <p>An alert appears here when a rule's condition becomes true on a new crawl of a product it watches.</p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <Table
          caption="Recent alerts"
          captionHidden
          className="recent-alerts"
          columns={['Fired', 'Product', 'Rule', 'Value', 'Status', 'Job']}
        >
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <DateTime value={a.createdAt} />
              </td>
              <td>
                <Link
                  to="/console/projects/$projectId/tracking"
                  params={{ projectId }}
                  search={{ asin: a.asin, marketplace: a.marketplace, postalCode: a.postalCode ?? undefined }}
                  className="mono"
                  aria-label={`${a.asin} on ${a.marketplace}${a.postalCode ? ` at ${a.postalCode}` : ''}: timeline`}
                >
                  {a.asin}
                </Link>
                <span className="block muted">
                  {a.marketplace}, {a.postalCode ? `delivered to ${a.postalCode}` : 'default location'}
                </span>
                {a.snapshot.title && (
                  <span className="block muted alert-title" title={a.snapshot.title}>
                    {a.snapshot.title}
                  </span>
                )}
              </td>
              <td>
                {a.ruleName}
                <span className="block muted">{describeCondition(a.condition)}</span>
              </td>
              <td>
                <Values alert={a} />
              </td>
              <td>
                {a.status === 'sent' ? (
                  <span className="badge ok">sent</span>
                ) : (
                  <span className="badge warn" title="Past the rule's alerts per day: recorded, not sent">
                    suppressed
                  </span>
                )}
              </td>
              <td>
                <Link to="/console/jobs/$jobId" params={{ jobId: a.jobId }} className="mono">
                  {a.jobId}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {total > PAGE && (
        <ButtonPager label="Recent alerts pages" offset={offset} pageSize={PAGE} total={total} onOffset={toOffset}>
          {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
        </ButtonPager>
      )}
    </section>
  );
}
