import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import { Button, ErrorNotice } from '../../ui/forms';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { type AlertRule, alertKeys, deleteAlertRule, setAlertRuleEnabled } from './alerts.queries';
import { describeCondition } from './conditions';
import { formatDuration } from './duration';

const ASINS_SHOWN = 3;

function Scope({ rule }: { rule: AlertRule }) {
  const products = !rule.asins ? (
    'Every tracked product'
  ) : (
    <>
      <span className="mono">{rule.asins.slice(0, ASINS_SHOWN).join(', ')}</span>
      {rule.asins.length > ASINS_SHOWN && ` and ${rule.asins.length - ASINS_SHOWN} more`}
    </>
  );
  return (
    <>
      {products}
      <span className="block muted">
        {rule.marketplace ?? 'any marketplace'}
        {rule.postalCode && `, delivered to ${rule.postalCode}`}
      </span>
    </>
  );
}

/**
 * What the rule is doing, as the API reports it (docs/alerts.md): disabled, or firing and cooling
 * down (counts of products), else armed. Words in every badge: colour is never the only signal.
 */
function State({ rule }: { rule: AlertRule }) {
  if (!rule.enabled) return <span className="badge">Disabled</span>;
  const { firing, coolingDown } = rule.state;
  if (!firing && !coolingDown) return <span className="badge ok">Armed</span>;
  return (
    <span className="badges">
      {firing > 0 && (
        <span className="badge bad">
          Firing: {firing} {firing === 1 ? 'product' : 'products'}
        </span>
      )}
      {coolingDown > 0 && <span className="badge warn">Cooling down: {coolingDown}</span>}
    </span>
  );
}

function RuleActions({ rule, nameId }: { rule: AlertRule; nameId: string }) {
  const invalidates = alertKeys.ofProject(rule.projectId);
  const toggle = useWrite((enabled: boolean) => setAlertRuleEnabled(rule.id, enabled), invalidates);
  const remove = useWrite(() => deleteAlertRule(rule.id), invalidates);
  return (
    <>
      <div className="actions">
        <Button variant="secondary" isDisabled={toggle.isPending} aria-describedby={nameId} onPress={() => toggle.mutate(!rule.enabled)}>
          {rule.enabled ? 'Disable' : 'Enable'}
        </Button>
        <ConfirmAction
          label="Delete"
          describedBy={nameId}
          title={`Delete the alert rule “${rule.name}”?`}
          confirmLabel="Delete rule"
          action={remove}
          pendingStyle="disabled"
        >
          <p>It stops watching at once. The alerts it fired stay listed under Recent alerts.</p>
        </ConfirmAction>
      </div>
      <ErrorNotice error={toggle.error} />
    </>
  );
}

/** The project's rules with their state, today's counts and, for writers, Disable/Enable and Delete. */
export function RulesTable({ rules, canWrite }: { rules: AlertRule[]; canWrite: boolean }) {
  return (
    <Table
      caption="Alert rules"
      captionHidden
      className="rules"
      columns={['Name', 'State', 'Condition', 'Products', 'Last alert', 'Cooldown · cap', canWrite && ACTIONS]}
    >
      {rules.map((r) => {
        const nameId = `rule-${r.id}`;
        return (
          <tr key={r.id}>
            <td id={nameId}>{r.name}</td>
            <td>
              <State rule={r} />
            </td>
            <td>{describeCondition(r.condition)}</td>
            <td>
              <Scope rule={r} />
            </td>
            <td>
              <DateTime value={r.state.lastAlertAt} />
              <span className="block muted">
                today: {r.state.alertsToday} sent{r.state.suppressedToday > 0 && `, ${r.state.suppressedToday} suppressed`}
              </span>
            </td>
            <td>
              {formatDuration(r.cooldownSeconds)}
              <span className="block muted">at most {r.maxPerDay} a day</span>
            </td>
            {canWrite && (
              <td>
                <RuleActions rule={r} nameId={nameId} />
              </td>
            )}
          </tr>
        );
      })}
    </Table>
  );
}
