import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { alertRulesQuery } from './alerts.queries';
import { NewRuleDialog } from './new-rule-dialog';
import { RecentAlerts } from './recent-alerts';
import { RulesTable } from './rules-table';
import '../../ui/admin.css';
import './alerts.css';

/** Alert rules over the project's tracked products, and the alerts they fired (docs/alerts.md). */
export function AlertsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { offset = 0 } = useSearch({ strict: false }) as { offset?: number };
  // without data.write (viewers) the page only reads, and says why once; the API answers 403 to such writes anyway
  const writer = useCan('data.write', projectId);
  const canWrite = writer.allowed;
  const rules = useQuery({ ...alertRulesQuery(projectId), refetchInterval: 30_000 });
  const list = rules.data?.data;
  return (
    <div className="alerts">
      <div className="page-head">
        <h1>Alerts</h1>
        {canWrite && <NewRuleDialog projectId={projectId} />}
      </div>
      <p className="muted">
        A rule sends <code>product.alert</code> to the webhooks subscribed to it once when its condition becomes true on a new crawl of a
        tracked product, and again only after it was false and the cooldown has passed. Prices and stock come from product pages (details
        and offers crawls), never from search cards.
      </p>
      <ReadOnlyNote can={writer} />
      <h2>Alert rules</h2>
      {rules.isLoading && <Loading what="alert rules" />}
      <ErrorNotice error={rules.error} />
      {list && list.length === 0 && (
        <EmptyState title="No alert rules yet">
          <p>
            Create one to hear when a price falls under a threshold, a product is back in stock or another seller takes the buy box. Rules
            watch what{' '}
            <Link to="/console/projects/$projectId/tracking" params={{ projectId }}>
              Tracking
            </Link>{' '}
            records.
          </p>
        </EmptyState>
      )}
      {list && list.length > 0 && <RulesTable rules={list} canWrite={canWrite} />}
      <RecentAlerts projectId={projectId} offset={offset} />
    </div>
  );
}
