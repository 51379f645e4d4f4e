import type {
  AlertWrite,
  AlertStateRepository,
  Database,
  EventRepository,
  PriceMedians,
  RuleSeriesState,
  RuleToEvaluate,
  SeriesScope,
  Transaction,
} from '@crawl/db';
import { type ConditionResult, decide, evaluateCondition, needsMedians, type PageObservation } from './alert-conditions';
import { productAlertData } from './event-data';
import type { ProductSnapshot } from './product-snapshot';

export interface AlertEvaluationDeps {
  alerts: AlertStateRepository;
  events: EventRepository;
}

/** One product of a crawl, as the tracking transaction recorded it. */
export interface ObservedProduct extends PageObservation {
  asin: string;
  /** The product's merged last known state (what product.changed carries). */
  merged: ProductSnapshot;
}

/** What one observation does to a rule's memory of one product: the state to keep (null: unchanged) and the alert it fires. */
export interface RuleStep {
  state: RuleSeriesState | null;
  alert: ConditionResult | null;
}

/**
 * One rule on one product-page observation at `now`: the condition, the transition and the
 * cooldown (decide). The tracking transaction and the preview's replay of stored snapshots
 * (alert-replay.ts) both take this step, so a preview counts what evaluation fires.
 */
export function stepRule(
  rule: Pick<RuleToEvaluate, 'id' | 'condition' | 'cooldownSeconds'>,
  product: PageObservation & { asin: string },
  state: RuleSeriesState | undefined,
  medians: PriceMedians | undefined,
  now: Date,
): RuleStep {
  const result = evaluateCondition(rule.condition, product, medians);
  const decision = decide(result, product, state, rule.cooldownSeconds, now);
  if (!decision) return { state: null, alert: null };
  const alert = decision.verdict === 'alert';
  const changed = alert || (state ? state.firing !== decision.firing : decision.firing);
  return {
    state: changed
      ? { ruleId: rule.id, asin: product.asin, firing: decision.firing, lastAlertAt: alert ? now : (state?.lastAlertAt ?? null) }
      : null,
    alert: alert ? result : null,
  };
}

/**
 * Evaluates the project's enabled rules in scope on a crawl's product-page observations, inside
 * the tracking transaction that recorded them (docs/alerts.md): state per (rule, series),
 * alerts sent or suppressed by the rule's daily cap, the `product.alert` events in the outbox and
 * the members' mails in theirs. All of it commits with the snapshots or not at all, so a worker
 * killed in between loses no alert and a redelivered task (whose target is already recorded)
 * sends none twice. Costs one query when no rule is in scope.
 */
export async function evaluateAlertRules(
  deps: AlertEvaluationDeps,
  trx: Transaction<Database>,
  series: SeriesScope,
  jobId: string,
  products: ObservedProduct[],
): Promise<number> {
  const observed = products;
  if (!observed.length) return 0;
  const asins = observed.map((p) => p.asin);
  const rules = await deps.alerts.rulesInScope(trx, series, asins);
  if (!rules.length) return 0;
  const [states, medians] = await Promise.all([
    deps.alerts.states(
      trx,
      series,
      rules.map((r) => r.id),
      asins,
    ),
    rules.some((r) => needsMedians(r.condition)) ? deps.alerts.priceMedians(trx, series, asins) : Promise.resolve(undefined),
  ]);
  const stateOf = new Map(states.map((s) => [`${s.ruleId} ${s.asin}`, s]));
  const now = new Date();
  const changed: RuleSeriesState[] = [];
  const fired: { rule: (typeof rules)[number]; write: Omit<AlertWrite, 'status'> }[] = [];
  for (const rule of rules) {
    for (const product of observed) {
      if (rule.asins && !rule.asins.includes(product.asin)) continue;
      const step = stepRule(rule, product, stateOf.get(`${rule.id} ${product.asin}`), medians?.get(product.asin), now);
      if (step.state) changed.push(step.state);
      if (!step.alert) continue;
      const result = step.alert;
      fired.push({
        rule,
        write: {
          ruleId: rule.id,
          ruleName: rule.name,
          asin: product.asin,
          condition: rule.condition,
          value: result.value,
          previous: result.previous,
          baseline: result.baseline,
          jobId,
          snapshot: product.merged,
        },
      });
    }
  }
  await deps.alerts.saveStates(trx, series, changed);
  if (!fired.length) return 0;
  // the daily caps of every rule that fired, in one statement (day rows locked in rule id order)
  const counts = new Map<string, number>();
  for (const f of fired) counts.set(f.rule.id, (counts.get(f.rule.id) ?? 0) + 1);
  const allowances = await deps.alerts.takeDailyAllowances(
    trx,
    rules.filter((r) => counts.has(r.id)).map((r) => ({ ruleId: r.id, count: counts.get(r.id)!, maxPerDay: r.maxPerDay })),
  );
  const used = new Map<string, number>();
  const writes: AlertWrite[] = fired.map((f) => {
    const n = used.get(f.rule.id) ?? 0;
    used.set(f.rule.id, n + 1);
    return { ...f.write, status: n < (allowances.get(f.rule.id) ?? 0) ? 'sent' : 'suppressed' };
  });
  const ids = await deps.alerts.insertAlerts(trx, series, writes);
  const sent = writes.map((write, i) => ({ write, alertId: ids[i]! })).filter((x) => x.write.status === 'sent');
  await deps.events.insertMany(
    trx,
    sent.map(({ write, alertId }) => ({
      projectId: series.projectId,
      type: 'product.alert' as const,
      data: productAlertData({ alertId, marketplace: series.marketplace, postalCode: series.postalCode, ...write }),
    })),
  );
  const notify = new Map(rules.map((r) => [r.id, r.notifyMembers]));
  const mails = sent.flatMap(({ write, alertId }) => notify.get(write.ruleId)!.map((userId) => ({ alertId, userId })));
  await deps.alerts.queueMails(trx, series.projectId, mails);
  return writes.length;
}
