import { type AlertCondition, type AlertStatus, type AlertValue, newId, type ProductSnapshotData } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema';
import type { SeriesScope } from './tracking.repository';

/** A rule as evaluation reads it: no ASIN list (matched in SQL), nothing the gateway alone shows. */
export interface RuleToEvaluate {
  id: string;
  name: string;
  condition: AlertCondition;
  cooldownSeconds: number;
  maxPerDay: number;
  notifyMembers: string[];
  /** Which of the products evaluated the rule covers; null: every one (the rule names no ASINs). */
  asins: string[] | null;
}

/** One (rule, series) state: whether its condition held on the last evaluation, and its last alert. */
export interface RuleSeriesState {
  ruleId: string;
  asin: string;
  firing: boolean;
  lastAlertAt: Date | null;
}

export interface AlertWrite {
  ruleId: string;
  ruleName: string;
  status: AlertStatus;
  asin: string;
  condition: AlertCondition;
  value: AlertValue;
  previous: AlertValue;
  baseline: number | null;
  jobId: string;
  snapshot: ProductSnapshotData;
}

export interface PriceMedians {
  median7d: number | null;
  median30d: number | null;
}

/**
 * What alert evaluation reads and writes in the tracking transaction (docs/alerts.md). Every
 * method takes the transaction that holds the series' tracked_target locks: two crawls of one
 * product evaluate its rules one after the other, never both at once.
 */
export class AlertStateRepository {
  /**
   * The enabled rules of the project whose scope covers the series and at least one of `asins`.
   * The ASIN lists are matched here, not returned: 100 rules of 1,000 ASINs stay in Postgres.
   */
  async rulesInScope(trx: Transaction<Database>, scope: SeriesScope, asins: string[]): Promise<RuleToEvaluate[]> {
    const rows = await trx
      .selectFrom('alert_rule')
      .select(['id', 'name', 'condition', 'cooldown_seconds', 'max_per_day', 'notify_members'])
      .select(
        sql<
          string[] | null
        >`case when asins is null then null else array(select a from unnest(${asins}::text[]) a where a = any(asins)) end`.as('matched'),
      )
      .where('project_id', '=', scope.projectId)
      .where('enabled', '=', true)
      .where((eb) => eb.or([eb('marketplace', 'is', null), eb('marketplace', '=', scope.marketplace as never)]))
      .where((eb) => eb.or([eb('postal_code', 'is', null), eb('postal_code', '=', scope.postalCode)]))
      .where(sql<boolean>`(asins is null or asins && ${asins}::text[])`)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      condition: r.condition,
      cooldownSeconds: r.cooldown_seconds,
      maxPerDay: r.max_per_day,
      notifyMembers: r.notify_members,
      asins: r.matched,
    }));
  }

  async states(trx: Transaction<Database>, scope: SeriesScope, ruleIds: string[], asins: string[]): Promise<RuleSeriesState[]> {
    if (!ruleIds.length || !asins.length) return [];
    const rows = await trx
      .selectFrom('alert_rule_state')
      .select(['rule_id', 'asin', 'firing', 'last_alert_at'])
      .where('rule_id', 'in', ruleIds)
      .where('marketplace', '=', scope.marketplace)
      .where('postal_code', '=', scope.postalCode)
      .where('asin', 'in', asins)
      .execute();
    return rows.map((r) => ({ ruleId: r.rule_id, asin: r.asin, firing: r.firing, lastAlertAt: r.last_alert_at }));
  }

  async saveStates(trx: Transaction<Database>, scope: SeriesScope, states: RuleSeriesState[]): Promise<void> {
    if (!states.length) return;
    await trx
      .insertInto('alert_rule_state')
      .values(
        states.map((s) => ({
          rule_id: s.ruleId,
          marketplace: scope.marketplace,
          asin: s.asin,
          postal_code: scope.postalCode,
          firing: s.firing,
          last_alert_at: s.lastAlertAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['rule_id', 'marketplace', 'asin', 'postal_code']).doUpdateSet({
          firing: (eb) => eb.ref('excluded.firing'),
          last_alert_at: (eb) => eb.ref('excluded.last_alert_at'),
        }),
      )
      .execute();
  }

  /**
   * The medians of each product's prices seen by details and offers crawls in the last 7 and 30
   * days, before this transaction's own observation: a range of the page-price index per
   * product, bounded by time rather than by the length of its history.
   */
  async priceMedians(trx: Transaction<Database>, scope: SeriesScope, asins: string[]): Promise<Map<string, PriceMedians>> {
    if (!asins.length) return new Map();
    const { rows } = await sql<{ asin: string; m7: number | null; m30: number | null }>`
      select asin,
             percentile_cont(0.5) within group (order by page_price) filter (where captured_at >= now() - interval '7 days') as m7,
             percentile_cont(0.5) within group (order by page_price) as m30
      from product_snapshot
      where project_id = ${scope.projectId} and marketplace = ${scope.marketplace} and postal_code = ${scope.postalCode}
        and asin = any(${asins}::text[]) and page_price is not null
        and captured_at >= now() - interval '30 days' and captured_at < now()
      group by asin`.execute(trx);
    return new Map(rows.map((r) => [r.asin, { median7d: r.m7, median30d: r.m30 }]));
  }

  /**
   * Counts each rule's new alerts on today's UTC day and answers how many of them may be sent
   * (the rest are suppressed), in one statement. The day rows are locked in rule id order:
   * concurrent crawls firing one rule never send more than its `maxPerDay` together, and never
   * deadlock on two rules.
   */
  async takeDailyAllowances(
    trx: Transaction<Database>,
    wanted: { ruleId: string; count: number; maxPerDay: number }[],
  ): Promise<Map<string, number>> {
    if (!wanted.length) return new Map();
    const sorted = [...wanted].sort((a, b) => (a.ruleId < b.ruleId ? -1 : 1));
    // locks (or makes) each rule's row of the day and reads what it sent so far
    const { rows } = await sql<{ rule_id: string; sent: number }>`
      insert into alert_rule_day (rule_id, day, sent, suppressed)
      select rule_id, (now() at time zone 'utc')::date, 0, 0 from unnest(${sorted.map((w) => w.ruleId)}::text[]) as w(rule_id) order by rule_id
      on conflict (rule_id, day) do update set sent = alert_rule_day.sent
      returning rule_id, sent`.execute(trx);
    const sentBefore = new Map(rows.map((r) => [r.rule_id, r.sent]));
    const allowed = new Map(sorted.map((w) => [w.ruleId, Math.max(0, Math.min(w.count, w.maxPerDay - (sentBefore.get(w.ruleId) ?? 0)))]));
    await sql`
      update alert_rule_day d set sent = d.sent + v.allowed, suppressed = d.suppressed + v.n - v.allowed
      from unnest(${sorted.map((w) => w.ruleId)}::text[], ${sorted.map((w) => allowed.get(w.ruleId)!)}::int[], ${sorted.map((w) => w.count)}::int[])
        as v(rule_id, allowed, n)
      where d.rule_id = v.rule_id and d.day = (now() at time zone 'utc')::date`.execute(trx);
    return allowed;
  }

  /** Records alerts, sent and suppressed; returns their ids in order. */
  async insertAlerts(trx: Transaction<Database>, scope: SeriesScope, alerts: AlertWrite[]): Promise<string[]> {
    if (!alerts.length) return [];
    const ids = alerts.map(() => newId('alt'));
    await trx
      .insertInto('alert')
      .values(
        alerts.map((a, i) => ({
          id: ids[i]!,
          project_id: scope.projectId,
          rule_id: a.ruleId,
          rule_name: a.ruleName,
          status: a.status,
          marketplace: scope.marketplace,
          asin: a.asin,
          postal_code: scope.postalCode,
          condition: JSON.stringify(a.condition),
          value: JSON.stringify(a.value),
          previous: JSON.stringify(a.previous),
          baseline: a.baseline,
          job_id: a.jobId,
          snapshot: JSON.stringify(a.snapshot),
        })),
      )
      .execute();
    return ids;
  }

  /** The mails of sent alerts to the members their rules notify, sent later by the mail sender (alert_mail is their outbox). */
  async queueMails(trx: Transaction<Database>, projectId: string, mails: { alertId: string; userId: string }[]): Promise<void> {
    if (!mails.length) return;
    await trx
      .insertInto('alert_mail')
      .values(mails.map((m) => ({ alert_id: m.alertId, user_id: m.userId, project_id: projectId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    await sql`select pg_notify(${ALERT_MAIL_CHANNEL}, '')`.execute(trx);
  }
}

/** Postgres NOTIFY channel raised when alert mails are queued: wakes the mail sender. */
export const ALERT_MAIL_CHANNEL = 'crawl_alert_mail';
