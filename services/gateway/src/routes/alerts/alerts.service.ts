import {
  type AlertResource,
  type AlertRulePreview,
  type AlertRuleResource,
  alertRuleLocation,
  ALERT_PREVIEW_DAYS,
  ALERT_PREVIEW_LISTED,
  AppError,
  type CreateAlertRuleInput,
  DEFAULT_ALERT_COOLDOWN_SECONDS,
  DEFAULT_ALERT_MAX_PER_DAY,
  MAX_ALERT_PREVIEW_PRODUCTS,
  MAX_ALERT_PREVIEW_SNAPSHOTS,
  MAX_ALERT_RULES_PER_PROJECT,
  type PreviewAlertRuleInput,
  type UpdateAlertRuleInput,
} from '@crawl/core';
import {
  type AlertFilter,
  AlertReplayRepository,
  type AlertRow,
  type AlertRuleActivity,
  AlertRuleRepository,
  type AlertRuleRow,
  type AuditLogRepository,
} from '@crawl/db';
import { needsMedians, PAGE_SOURCES, replayRule, type ReplaySeries } from '@crawl/jobs';
import type { GatewayContext } from '../../context';
import { type ProjectActor, recordProjectChange } from '../project-audit';

const NO_ACTIVITY: AlertRuleActivity = { firing: 0, coolingDown: 0, lastAlertAt: null, alertsToday: 0, suppressedToday: 0 };

export function toAlertRuleResource(row: AlertRuleRow, activity: AlertRuleActivity = NO_ACTIVITY): AlertRuleResource {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    condition: row.condition,
    asins: row.asins,
    marketplace: row.marketplace,
    postalCode: row.postal_code,
    cooldownSeconds: row.cooldown_seconds,
    maxPerDay: row.max_per_day,
    enabled: row.enabled,
    notify: { members: row.notify_members },
    state: {
      firing: activity.firing,
      coolingDown: activity.coolingDown,
      lastAlertAt: activity.lastAlertAt?.toISOString() ?? null,
      alertsToday: activity.alertsToday,
      suppressedToday: activity.suppressedToday,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toAlertResource(row: AlertRow): AlertResource {
  return {
    id: row.id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    status: row.status,
    asin: row.asin,
    marketplace: row.marketplace,
    postalCode: row.postal_code || null,
    condition: row.condition,
    value: row.value,
    previous: row.previous,
    baseline: row.baseline,
    jobId: row.job_id,
    snapshot: row.snapshot,
    createdAt: row.created_at.toISOString(),
  };
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid alert rule: ${path.replace(/^body\./, '')} ${message}.`, { details: [{ path, message }] });

/** What the audit log keeps of a rule: its settings and the size of its scope, not the ASINs. */
const ruleSummary = (r: AlertRuleRow) => ({
  name: r.name,
  condition: r.condition,
  asins: r.asins?.length ?? null,
  marketplace: r.marketplace,
  postalCode: r.postal_code,
  cooldownSeconds: r.cooldown_seconds,
  maxPerDay: r.max_per_day,
  enabled: r.enabled,
  notifyMembers: r.notify_members.length,
});

function ruleChanges(before: AlertRuleRow, after: AlertRuleRow): Record<string, unknown> {
  const a = ruleSummary(before) as Record<string, unknown>;
  const b = ruleSummary(after) as Record<string, unknown>;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(b)) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) changes[key] = { from: a[key], to: b[key] };
  if (JSON.stringify(before.asins) !== JSON.stringify(after.asins)) changes.asins ??= { from: a.asins, to: b.asins };
  return { changed: Object.keys(changes), ...changes };
}

/**
 * Alert rules (docs/alerts.md). The worker evaluates them in the tracking transaction; this only
 * records what to watch. Every creation, change and deletion is in the audit log, committed
 * with the change.
 */
export class AlertRuleService {
  constructor(
    private readonly rules: AlertRuleRepository,
    private readonly audit: AuditLogRepository,
    private readonly replay: AlertReplayRepository,
  ) {}

  /** `notify.members` may name only verified members of the organization: a 400 names the others. */
  private async checkMembers(organizationId: string, members: string[] | undefined): Promise<string[] | undefined> {
    if (members === undefined) return undefined;
    const unique = [...new Set(members)];
    const verified = new Set((await this.rules.verifiedMembers(organizationId, unique)).map((m) => m.userId));
    const others = unique.filter((id) => !verified.has(id));
    if (others.length) throw invalid('body.notify.members', `must name verified members of this organization (not: ${others.join(', ')})`);
    return unique;
  }

  async create(actor: ProjectActor, body: CreateAlertRuleInput): Promise<AlertRuleResource> {
    const marketplace = body.marketplace ?? null;
    const location = alertRuleLocation(marketplace, body.postalCode ?? null);
    if (!location.ok) throw invalid('body.postalCode', location.message);
    const notifyMembers = (await this.checkMembers(actor.organizationId, body.notify?.members)) ?? [];
    const row = await this.rules.create(
      actor,
      {
        name: body.name,
        condition: body.condition,
        asins: body.asins ?? null,
        marketplace,
        postalCode: location.postalCode,
        cooldownSeconds: body.cooldownSeconds ?? DEFAULT_ALERT_COOLDOWN_SECONDS,
        maxPerDay: body.maxPerDay ?? DEFAULT_ALERT_MAX_PER_DAY,
        enabled: body.enabled ?? true,
        notifyMembers,
      },
      MAX_ALERT_RULES_PER_PROJECT,
      (trx, created) =>
        recordProjectChange(this.audit, trx, actor, 'alert_rule.created', { type: 'alert_rule', id: created.id }, ruleSummary(created)),
    );
    if (!row) {
      throw new AppError(
        'VALIDATION_ERROR',
        `This project already has ${MAX_ALERT_RULES_PER_PROJECT} alert rules, the most a project may have; delete one first.`,
        { details: [{ path: 'project', message: `at most ${MAX_ALERT_RULES_PER_PROJECT} alert rules per project` }] },
      );
    }
    return toAlertRuleResource(row);
  }

  /**
   * What the rule would have fired over the project's stored snapshots of the last 30 days
   * (docs/alerts.md, "Preview"): replayed through the tracking transaction's own step, reading
   * at most MAX_ALERT_PREVIEW_PRODUCTS series and MAX_ALERT_PREVIEW_SNAPSHOTS snapshots.
   */
  async preview(projectId: string, body: PreviewAlertRuleInput, now = new Date()): Promise<AlertRulePreview> {
    const marketplace = body.marketplace ?? null;
    const location = alertRuleLocation(marketplace, body.postalCode ?? null);
    if (!location.ok) throw invalid('body.postalCode', location.message);
    const from = new Date(now.getTime() - ALERT_PREVIEW_DAYS * 86_400_000);
    const { series, truncated } = await this.replay.read({
      projectId,
      marketplace,
      postalCode: location.postalCode,
      asins: body.asins ?? null,
      from,
      to: now,
      sources: PAGE_SOURCES,
      prices: needsMedians(body.condition),
      maxSeries: MAX_ALERT_PREVIEW_PRODUCTS,
      maxSnapshots: MAX_ALERT_PREVIEW_SNAPSHOTS,
    });
    // stored snapshots are the tracking path's own ProductSnapshot objects, as it wrote them
    const alerts = replayRule(
      {
        condition: body.condition,
        cooldownSeconds: body.cooldownSeconds ?? DEFAULT_ALERT_COOLDOWN_SECONDS,
        maxPerDay: body.maxPerDay ?? DEFAULT_ALERT_MAX_PER_DAY,
      },
      series as unknown as ReplaySeries[],
    );
    const suppressed = alerts.filter((a) => a.status === 'suppressed').length;
    return {
      from: from.toISOString(),
      to: now.toISOString(),
      productsEvaluated: series.length,
      snapshotsEvaluated: series.reduce((n, s) => n + s.observations.length, 0),
      fired: alerts.length - suppressed,
      suppressed,
      truncated,
      firstAlerts: alerts.slice(0, ALERT_PREVIEW_LISTED).map((a) => ({
        asin: a.asin,
        marketplace: a.marketplace,
        postalCode: a.postalCode || null,
        status: a.status,
        firedAt: a.firedAt.toISOString(),
        value: a.value,
        previous: a.previous,
        baseline: a.baseline,
      })),
    };
  }

  async list(projectId: string, limit: number, offset: number) {
    const { rows, total } = await this.rules.list(projectId, limit, offset);
    const activity = await this.rules.activity(rows);
    return {
      data: rows.map((r) => toAlertRuleResource(r, activity.get(r.id))),
      pagination: { total, limit, offset, hasMore: offset + limit < total },
    };
  }

  async get(id: string, projectId: string): Promise<AlertRuleResource> {
    const row = await this.rules.findInProject(id, projectId);
    if (!row) throw new AppError('NOT_FOUND', `Alert rule ${id} not found.`);
    return toAlertRuleResource(row, (await this.rules.activity([row])).get(row.id));
  }

  /** Any field; the scope is checked as a whole (a postal code against the rule's marketplace after the change). */
  async update(id: string, actor: ProjectActor, changes: UpdateAlertRuleInput): Promise<AlertRuleResource> {
    const notifyMembers = await this.checkMembers(actor.organizationId, changes.notify === null ? [] : changes.notify?.members);
    const row = await this.rules.update(
      id,
      actor.projectId,
      (before) => {
        const marketplace = changes.marketplace !== undefined ? changes.marketplace : before.marketplace;
        const postalCode = changes.postalCode !== undefined ? changes.postalCode : before.postal_code;
        const location = alertRuleLocation(marketplace, postalCode);
        if (!location.ok) throw invalid('body.postalCode', location.message);
        return {
          name: changes.name,
          condition: changes.condition,
          asins: changes.asins,
          marketplace: changes.marketplace,
          postalCode: location.postalCode,
          cooldownSeconds: changes.cooldownSeconds,
          maxPerDay: changes.maxPerDay,
          enabled: changes.enabled,
          notifyMembers,
        };
      },
      changes.condition !== undefined,
      (trx, { before, after }) =>
        recordProjectChange(this.audit, trx, actor, 'alert_rule.updated', { type: 'alert_rule', id }, ruleChanges(before, after)),
    );
    if (!row) throw new AppError('NOT_FOUND', `Alert rule ${id} not found.`);
    return toAlertRuleResource(row, (await this.rules.activity([row])).get(row.id));
  }

  async delete(id: string, actor: ProjectActor): Promise<void> {
    const deleted = await this.rules.delete(id, actor.projectId, (trx, row) =>
      recordProjectChange(this.audit, trx, actor, 'alert_rule.deleted', { type: 'alert_rule', id }, ruleSummary(row)),
    );
    if (!deleted) throw new AppError('NOT_FOUND', `Alert rule ${id} not found.`);
  }

  async alerts(filter: AlertFilter) {
    const { rows, total } = await this.rules.alerts(filter);
    return {
      data: rows.map(toAlertResource),
      pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + filter.limit < total },
    };
  }
}

/** The alerts resource's service, built from the gateway's shared infrastructure. */
export const createAlertRuleService = (ctx: Pick<GatewayContext, 'db' | 'accounts'>): AlertRuleService =>
  new AlertRuleService(new AlertRuleRepository(ctx.db), ctx.accounts.audit, new AlertReplayRepository(ctx.db));
