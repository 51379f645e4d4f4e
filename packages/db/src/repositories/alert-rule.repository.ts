import { type AlertCondition, type MarketplaceCode, newId } from '@crawl/core';
import { type Selectable, sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { AlertRuleTable, AlertTable, Database } from '../schema';

export type AlertRuleRow = Selectable<AlertRuleTable>;
export type AlertRow = Selectable<AlertTable>;

/** What a rule's resource shows of its products (docs/alerts.md, "Rule state"). */
export interface AlertRuleActivity {
  firing: number;
  coolingDown: number;
  lastAlertAt: Date | null;
  alertsToday: number;
  suppressedToday: number;
}

export interface AlertRuleValues {
  name: string;
  condition: AlertCondition;
  asins: string[] | null;
  marketplace: MarketplaceCode | null;
  postalCode: string | null;
  cooldownSeconds: number;
  maxPerDay: number;
  enabled: boolean;
  notifyMembers: string[];
}

type Hook<T> = (trx: Transaction<Database>, value: T) => Promise<void>;

const toColumns = (v: Partial<AlertRuleValues>) => ({
  ...(v.name !== undefined ? { name: v.name } : {}),
  ...(v.condition !== undefined ? { condition: JSON.stringify(v.condition) } : {}),
  ...(v.asins !== undefined ? { asins: v.asins } : {}),
  ...(v.marketplace !== undefined ? { marketplace: v.marketplace } : {}),
  ...(v.postalCode !== undefined ? { postal_code: v.postalCode } : {}),
  ...(v.cooldownSeconds !== undefined ? { cooldown_seconds: v.cooldownSeconds } : {}),
  ...(v.maxPerDay !== undefined ? { max_per_day: v.maxPerDay } : {}),
  ...(v.enabled !== undefined ? { enabled: v.enabled } : {}),
  ...(v.notifyMembers !== undefined ? { notify_members: v.notifyMembers } : {}),
});

export interface AlertFilter {
  projectId: string;
  ruleId?: string;
  asin?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

/** A project's alert rules, as the API writes and reads them, and their alerts. */
export class AlertRuleRepository {
  constructor(private readonly db: Db) {}

  /** The project a rule belongs to (a console session acting on it by id). */
  async projectOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('alert_rule').select('project_id').where('id', '=', id).executeTakeFirst();
    return row?.project_id;
  }

  /**
   * Creates a rule unless the project already holds `maxPerProject`: the project row is locked
   * first, so concurrent creations cannot each see room for one more. Undefined when full.
   */
  async create(
    owner: { projectId: string; organizationId: string },
    values: AlertRuleValues,
    maxPerProject: number,
    beforeCommit?: Hook<AlertRuleRow>,
  ): Promise<AlertRuleRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('project').select('id').where('id', '=', owner.projectId).forUpdate().execute();
      const { count } = await trx
        .selectFrom('alert_rule')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('project_id', '=', owner.projectId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerProject) return undefined;
      const created = await trx
        .insertInto('alert_rule')
        .values({
          id: newId('alr'),
          project_id: owner.projectId,
          organization_id: owner.organizationId,
          name: values.name,
          condition: JSON.stringify(values.condition),
          asins: values.asins,
          marketplace: values.marketplace,
          postal_code: values.postalCode,
          cooldown_seconds: values.cooldownSeconds,
          max_per_day: values.maxPerDay,
          enabled: values.enabled,
          notify_members: values.notifyMembers,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await beforeCommit?.(trx, created);
      return created;
    });
  }

  async list(projectId: string, limit: number, offset: number): Promise<{ rows: AlertRuleRow[]; total: number }> {
    const base = this.db.selectFrom('alert_rule').where('project_id', '=', projectId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async findInProject(id: string, projectId: string): Promise<AlertRuleRow | undefined> {
    return this.db.selectFrom('alert_rule').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  }

  /**
   * Changes a rule under a row lock. `resetState`: its products start afresh (a new condition
   * means nothing of what the old one saw). `beforeCommit` gets the row before and after.
   */
  async update(
    id: string,
    projectId: string,
    changes: (before: AlertRuleRow) => Partial<AlertRuleValues>,
    resetState: boolean,
    beforeCommit?: Hook<{ before: AlertRuleRow; after: AlertRuleRow }>,
  ): Promise<AlertRuleRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('alert_rule')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return undefined;
      const after = await trx
        .updateTable('alert_rule')
        .set({ ...toColumns(changes(before)), updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (resetState) await trx.deleteFrom('alert_rule_state').where('rule_id', '=', id).execute();
      await beforeCommit?.(trx, { before, after });
      return after;
    });
  }

  /** Deletes a rule and its state; its alerts stay in the project's history. */
  async delete(id: string, projectId: string, beforeCommit?: Hook<AlertRuleRow>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('alert_rule')
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .returningAll()
        .executeTakeFirst();
      if (deleted) await beforeCommit?.(trx, deleted);
      return deleted !== undefined;
    });
  }

  /** Each rule's activity: its products' states and today's (UTC) counts. */
  async activity(rules: Pick<AlertRuleRow, 'id' | 'cooldown_seconds'>[]): Promise<Map<string, AlertRuleActivity>> {
    const out = new Map<string, AlertRuleActivity>(
      rules.map((r) => [r.id, { firing: 0, coolingDown: 0, lastAlertAt: null, alertsToday: 0, suppressedToday: 0 }]),
    );
    if (!rules.length) return out;
    const ids = rules.map((r) => r.id);
    const cooldowns = rules.map((r) => r.cooldown_seconds);
    const [states, days] = await Promise.all([
      sql<{ rule_id: string; firing: number; cooling: number; last_alert_at: Date | null }>`
        select s.rule_id,
               count(*) filter (where s.firing)::int as firing,
               count(*) filter (where s.last_alert_at > now() - make_interval(secs => r.cooldown))::int as cooling,
               max(s.last_alert_at) as last_alert_at
        from alert_rule_state s
        join unnest(${ids}::text[], ${cooldowns}::int[]) as r(id, cooldown) on r.id = s.rule_id
        group by s.rule_id`.execute(this.db),
      this.db
        .selectFrom('alert_rule_day')
        .select(['rule_id', 'sent', 'suppressed'])
        .where('rule_id', 'in', ids)
        .where('day', '=', sql<Date>`(now() at time zone 'utc')::date`)
        .execute(),
    ]);
    for (const s of states.rows)
      Object.assign(out.get(s.rule_id)!, { firing: s.firing, coolingDown: s.cooling, lastAlertAt: s.last_alert_at });
    for (const d of days) Object.assign(out.get(d.rule_id)!, { alertsToday: d.sent, suppressedToday: d.suppressed });
    return out;
  }

  /**
   * Which of `userIds` are members of the organization with a verified email and not disabled:
   * the only users a rule's `notify.members` may mail (checked when set and again when sending).
   */
  async verifiedMembers(organizationId: string, userIds: string[]): Promise<{ userId: string; email: string }[]> {
    if (!userIds.length) return [];
    const rows = await this.db
      .selectFrom('membership as m')
      .innerJoin('app_user as u', 'u.id', 'm.user_id')
      .select(['m.user_id as userId', 'u.email'])
      .where('m.organization_id', '=', organizationId)
      .where('m.user_id', 'in', userIds)
      .where('u.email', 'is not', null)
      .where('u.email_verified_at', 'is not', null)
      .where('u.disabled_at', 'is', null)
      .execute();
    return rows.map((r) => ({ userId: r.userId, email: r.email! }));
  }

  /** A project's alerts, newest first. */
  async alerts(filter: AlertFilter): Promise<{ rows: AlertRow[]; total: number }> {
    let q = this.db.selectFrom('alert').where('project_id', '=', filter.projectId);
    if (filter.ruleId) q = q.where('rule_id', '=', filter.ruleId);
    if (filter.asin) q = q.where('asin', '=', filter.asin);
    if (filter.from) q = q.where('created_at', '>=', filter.from);
    if (filter.to) q = q.where('created_at', '<=', filter.to);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }
}
