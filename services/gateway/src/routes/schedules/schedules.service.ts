import { AppError, type JobSpec, readJobSpec, type SchedulePolicy, type ScheduleResource, type StoredJobSpec } from '@crawl/core';
import { type AuditLogRepository, ScheduleRepository, type ScheduleRow } from '@crawl/db';
import { crawlConfigOf, nextFireAfter, shortestIntervalSeconds } from '@crawl/jobs';
import { type ProjectActor, recordProjectChange } from '../project-audit';
import type { GatewayContext } from '../../context';

export function toScheduleResource(row: ScheduleRow): ScheduleResource {
  return {
    id: row.id,
    projectId: row.project_id,
    cron: row.cron,
    crawlConfig: crawlConfigOf(readJobSpec(row.crawl_config)),
    enabled: row.enabled,
    nextRunAt: row.enabled ? row.next_run_at.toISOString() : null,
    lastRunAt: row.last_run_at?.toISOString() ?? null,
    lastRunStatus: row.last_run_status,
    lastJobId: row.last_job_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A 400 naming the minimum when the cron fires more often than the plan allows. */
function checkInterval(cron: string, policy: SchedulePolicy): void {
  const shortest = shortestIntervalSeconds(cron);
  if (shortest >= policy.minIntervalSeconds) return;
  const message = `cron fires ${shortest} s apart at its most frequent; the minimum interval between runs is ${policy.minIntervalSeconds} s`;
  throw new AppError('VALIDATION_ERROR', `Invalid schedule: ${message}.`, { details: [{ path: 'body.cron', message }] });
}

/**
 * What a schedule crawls, for the audit log: its kind and how many targets, not the targets
 * themselves; pages and sort as they were stored (absent in a config stored before them).
 */
const crawlSummary = (c: StoredJobSpec) => ({
  type: c.type,
  marketplace: c.marketplace,
  targets: c.targets.length,
  ...(c.pages !== undefined ? { pages: c.pages } : {}),
  ...(c.sort !== undefined ? { sort: c.sort } : {}),
});

const scheduleSummary = (row: ScheduleRow) => ({ cron: row.cron, enabled: row.enabled, ...crawlSummary(row.crawl_config) });

/** The fields a PATCH changed, each with its value before and after. */
function scheduleChanges(before: ScheduleRow, after: ScheduleRow): Record<string, unknown> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (before.cron !== after.cron) changes.cron = { from: before.cron, to: after.cron };
  if (before.enabled !== after.enabled) changes.enabled = { from: before.enabled, to: after.enabled };
  if (JSON.stringify(before.crawl_config) !== JSON.stringify(after.crawl_config)) {
    changes.crawlConfig = { from: crawlSummary(before.crawl_config), to: crawlSummary(after.crawl_config) };
  }
  return { changed: Object.keys(changes), ...changes };
}

/**
 * Schedules. The scheduler service fires them; this only records what to fire and when. Every
 * creation, change and deletion is recorded in the audit log in its own transaction.
 */
export class ScheduleService {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly audit: AuditLogRepository,
  ) {}

  async create(
    owner: ProjectActor,
    body: { cron: string; crawlConfig: JobSpec; enabled: boolean },
    policy: SchedulePolicy,
    idempotencyKey?: string,
  ) {
    checkInterval(body.cron, policy);
    const row = await this.schedules.create(
      {
        ...owner,
        cron: body.cron,
        crawlConfig: body.crawlConfig,
        enabled: body.enabled,
        nextRunAt: nextFireAfter(body.cron, new Date()),
      },
      policy.maxPerProject,
      idempotencyKey,
      (trx, created) =>
        recordProjectChange(this.audit, trx, owner, 'schedule.created', { type: 'schedule', id: created.id }, scheduleSummary(created)),
    );
    if (!row) {
      throw new AppError(
        'VALIDATION_ERROR',
        `This project already has ${policy.maxPerProject} schedules, the most its plan allows; delete one first.`,
        {
          details: [{ path: 'project', message: `at most ${policy.maxPerProject} schedules per project` }],
        },
      );
    }
    return toScheduleResource(row);
  }

  async list(projectId: string, limit: number, offset: number) {
    const { rows, total } = await this.schedules.list(projectId, limit, offset);
    return { data: rows.map(toScheduleResource), pagination: { total, limit, offset, hasMore: offset + limit < total } };
  }

  find(id: string, projectId: string) {
    return this.schedules.findInProject(id, projectId);
  }

  async get(id: string, projectId: string) {
    const row = await this.find(id, projectId);
    if (!row) throw new AppError('NOT_FOUND', `Schedule ${id} not found.`);
    return row;
  }

  /**
   * A new cron, or enabling a disabled schedule, recomputes the next fire time from now (a
   * schedule that was off does not catch up on what it missed). Disabling takes effect at
   * once: the scheduler only fires enabled schedules, under a row lock.
   */
  async update(
    id: string,
    actor: ProjectActor,
    changes: { enabled?: boolean; cron?: string; crawlConfig?: JobSpec },
    policy: SchedulePolicy,
  ) {
    const { projectId } = actor;
    if (changes.cron !== undefined) checkInterval(changes.cron, policy);
    const current = await this.get(id, projectId);
    const cron = changes.cron ?? current.cron;
    const reschedule = changes.cron !== undefined || (changes.enabled === true && !current.enabled);
    const row = await this.schedules.update(
      id,
      projectId,
      {
        enabled: changes.enabled,
        cron: changes.cron,
        crawlConfig: changes.crawlConfig,
        nextRunAt: reschedule ? nextFireAfter(cron, new Date()) : undefined,
      },
      (trx, { before, after }) =>
        recordProjectChange(this.audit, trx, actor, 'schedule.updated', { type: 'schedule', id }, scheduleChanges(before, after)),
    );
    if (!row) throw new AppError('NOT_FOUND', `Schedule ${id} not found.`);
    return toScheduleResource(row);
  }

  async delete(id: string, actor: ProjectActor): Promise<void> {
    const deleted = await this.schedules.delete(id, actor.projectId, (trx, row) =>
      recordProjectChange(this.audit, trx, actor, 'schedule.deleted', { type: 'schedule', id }, scheduleSummary(row)),
    );
    if (!deleted) throw new AppError('NOT_FOUND', `Schedule ${id} not found.`);
  }
}

/** The schedules resource's service, built from the gateway's shared infrastructure. */
export const createScheduleService = (ctx: Pick<GatewayContext, 'db' | 'accounts'>): ScheduleService =>
  new ScheduleService(new ScheduleRepository(ctx.db), ctx.accounts.audit);
