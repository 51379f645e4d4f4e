import { AppError, type AuditAction, generateApiKey, PLANS, type Plan, projectLimit } from '@crawl/core';
import {
  ApiKeyRepository,
  CreditRepository,
  type Database,
  type Db,
  OrganizationRepository,
  ProjectRepository,
  type Transaction,
  UserRepository,
} from '@crawl/db';
import { type Announcing, announce } from './announce';
import { recordOperatorChange } from './operator-audit';

/** The admin CLI's commands (docs/operations.md): the dashboard stand-in that makes tenants. */
export interface AdminDeps extends Announcing {
  /** Where a change, its checks and its audit entry commit together, in one transaction. */
  db: Db;
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  users: UserRepository;
  keys: ApiKeyRepository;
  credits: CreditRepository;
}

/** The commands' repositories on one database (the CLI's main, tests and the demo alike). */
export function adminDeps(db: Db): AdminDeps {
  return {
    db,
    organizations: new OrganizationRepository(db),
    projects: new ProjectRepository(db),
    users: new UserRepository(db),
    keys: new ApiKeyRepository(db),
    credits: new CreditRepository(db),
  };
}

type Flags = Record<string, string | boolean | undefined>;

function str(flags: Flags, name: string, required: true): string;
function str(flags: Flags, name: string, required?: false): string | undefined;
function str(flags: Flags, name: string, required = false): string | undefined {
  const value = flags[name];
  if (value === undefined || value === true) {
    if (required) throw new AppError('VALIDATION_ERROR', `--${name} is required`);
    return undefined;
  }
  return String(value);
}

function positiveInt(flags: Flags, name: string, allowZero: boolean): number | undefined {
  const raw = str(flags, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || (!allowZero && n === 0)) {
    throw new AppError('VALIDATION_ERROR', `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer`);
  }
  return n;
}

/** A positive integer, `default` (null: back to the plan's value), or undefined when absent. */
function limitFlag(flags: Flags, name: string): number | null | undefined {
  return str(flags, name) === 'default' ? null : positiveInt(flags, name, false);
}

/**
 * `--per-minute` for an enterprise plan (required: the plan has no limit of its own, and a
 * forgotten one used to mean 60,000 requests a minute); refused with any other plan.
 */
function perMinuteFor(flags: Flags, chosen: Plan): number | null {
  const perMinute = positiveInt(flags, 'per-minute', false) ?? null;
  if (chosen === 'enterprise' && perMinute === null) {
    throw new AppError(
      'VALIDATION_ERROR',
      'the enterprise plan needs its request limit: add --per-minute N (requests per minute for the organization)',
    );
  }
  if (chosen !== 'enterprise' && perMinute !== null)
    throw new AppError('VALIDATION_ERROR', '--per-minute applies to the enterprise plan only');
  return perMinute;
}

function plan(flags: Flags): Plan | undefined {
  const raw = str(flags, 'plan');
  if (raw === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(raw)) throw new AppError('VALIDATION_ERROR', `--plan must be one of ${PLANS.join(', ')}`);
  return raw as Plan;
}

async function createKeyFor(deps: AdminDeps, projectId: string, userId: string) {
  const key = generateApiKey();
  // no label, the full scope and no expiry: what an operator hands over is the project's key
  await deps.keys.insert({ projectId, userId, keyPrefix: key.keyPrefix, keyHash: key.keyHash, label: '', scope: 'full', expiresAt: null });
  return { apiKey: key.apiKey, keyPrefix: key.keyPrefix };
}

async function ownerOf(deps: AdminDeps, organizationId: string): Promise<string> {
  const first = await deps.users.findFirstOfOrganization(organizationId);
  return first?.id ?? deps.users.createOperatorMade(organizationId);
}

/**
 * A project in an existing organization, held to its live-project limit like the account API's
 * (under the same lock on the organization's row): the operator raises the limit first, on the
 * record, rather than passing a flag that would leave the limit meaning nothing.
 */
async function projectWithinLimit(deps: AdminDeps, organizationId: string, name: string): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    const room = await deps.projects.lockRoom(organizationId, trx);
    if (!room) throw new AppError('NOT_FOUND', `organization ${organizationId} not found`);
    const limit = projectLimit(room.plan, room.maxProjects);
    if (room.liveProjects >= limit) {
      throw new AppError(
        'INVALID_STATE',
        `organization ${organizationId} holds at most ${limit} live projects and has ${room.liveProjects}: raise the limit first (set-project-limit --org ${organizationId} --max N)`,
      );
    }
    return deps.projects.create({ organizationId, name }, trx);
  });
}

type OrganizationBefore = NonNullable<Awaited<ReturnType<OrganizationRepository['find']>>>;

/**
 * A change to an existing organization and its audit entry (`action`, with the details `change`
 * answers) in one transaction: the log never misses a change nor records one that failed.
 */
async function changeOrganization<T>(
  deps: AdminDeps,
  organizationId: string,
  action: AuditAction,
  change: (trx: Transaction<Database>, before: OrganizationBefore) => Promise<{ out: T; details: Record<string, unknown> }>,
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const before = await deps.organizations.find(organizationId, trx);
    if (!before) throw new AppError('NOT_FOUND', `organization ${organizationId} not found`);
    const { out, details } = await change(trx, before);
    await recordOperatorChange(trx, { organizationId, action, subject: { type: 'organization', id: organizationId }, details });
    return out;
  });
}

export const commands: Record<string, (deps: AdminDeps, flags: Flags) => Promise<Record<string, unknown>>> = {
  async 'create-project'(deps, flags) {
    const name = str(flags, 'name', true);
    const credits = positiveInt(flags, 'credits', true) ?? 0;
    let organizationId = str(flags, 'org');
    let userId: string;
    let projectId: string;
    if (organizationId) {
      if (!(await deps.organizations.exists(organizationId))) throw new AppError('NOT_FOUND', `organization ${organizationId} not found`);
      if (flags.plan !== undefined || flags['per-minute'] !== undefined) {
        throw new AppError('VALIDATION_ERROR', '--plan and --per-minute apply to new organizations; use set-plan for an existing one');
      }
      // before the credits: a refused project grants nothing
      projectId = await projectWithinLimit(deps, organizationId, name);
      userId = await ownerOf(deps, organizationId);
    } else {
      const chosen = plan(flags) ?? 'starter';
      organizationId = await deps.organizations.create({ name, plan: chosen, perMinuteLimit: perMinuteFor(flags, chosen) });
      userId = await deps.users.createOperatorMade(organizationId);
      projectId = await deps.projects.create({ organizationId, name });
    }
    if (credits > 0) await deps.credits.grant(organizationId, credits);
    return { organizationId, userId, projectId, ...(await createKeyFor(deps, projectId, userId)) };
  },

  async 'create-key'(deps, flags) {
    const projectId = str(flags, 'project', true);
    const project = await deps.projects.find(projectId);
    if (!project) throw new AppError('NOT_FOUND', `project ${projectId} not found`);
    const requestedUser = str(flags, 'user');
    if (requestedUser && flags['new-user']) throw new AppError('VALIDATION_ERROR', 'use either --user or --new-user');
    let userId: string;
    if (requestedUser) {
      const user = await deps.users.findAny(requestedUser);
      if (!user || user.organization_id !== project.organizationId) {
        throw new AppError('NOT_FOUND', `user ${requestedUser} not found in the project's organization`);
      }
      userId = user.id;
    } else if (flags['new-user']) {
      userId = await deps.users.createOperatorMade(project.organizationId);
    } else {
      userId = await ownerOf(deps, project.organizationId);
    }
    return { userId, projectId, ...(await createKeyFor(deps, projectId, userId)) };
  },

  async 'grant-credits'(deps, flags) {
    const organizationId = str(flags, 'org', true);
    const amount = positiveInt(flags, 'amount', false);
    if (amount === undefined) throw new AppError('VALIDATION_ERROR', '--amount is required');
    const balance = await changeOrganization(deps, organizationId, 'credits.granted', async (trx) => {
      const after = await deps.credits.grant(organizationId, amount, trx);
      return { out: after, details: { amount, balance: after } };
    });
    await announce(deps, [`org:${organizationId}`]);
    return { organizationId, balance };
  },

  async 'set-plan'(deps, flags) {
    const organizationId = str(flags, 'org', true);
    const newPlan = plan(flags);
    if (!newPlan) throw new AppError('VALIDATION_ERROR', '--plan is required');
    const perMinute = perMinuteFor(flags, newPlan);
    await changeOrganization(deps, organizationId, 'plan.changed', async (trx, before) => {
      await deps.organizations.setPlan(organizationId, newPlan, perMinute, trx);
      return { out: null, details: { from: before.plan, to: newPlan, perMinuteLimit: perMinute } };
    });
    await announce(deps, [`org:${organizationId}`]);
    return { organizationId, plan: newPlan };
  },

  async 'set-schedule-limits'(deps, flags) {
    const organizationId = str(flags, 'org', true);
    const limits = { maxPerProject: limitFlag(flags, 'max-per-project'), minIntervalSeconds: limitFlag(flags, 'min-interval-seconds') };
    if (limits.maxPerProject === undefined && limits.minIntervalSeconds === undefined) {
      throw new AppError(
        'VALIDATION_ERROR',
        'give --max-per-project N and/or --min-interval-seconds N (a number, or "default" for the plan\'s)',
      );
    }
    await changeOrganization(deps, organizationId, 'limits.changed', async (trx) => {
      await deps.organizations.setScheduleLimits(organizationId, limits, trx);
      const details = {
        ...(limits.maxPerProject !== undefined ? { maxSchedulesPerProject: limits.maxPerProject } : {}),
        ...(limits.minIntervalSeconds !== undefined ? { minScheduleIntervalSeconds: limits.minIntervalSeconds } : {}),
      };
      return { out: null, details };
    });
    await announce(deps, [`org:${organizationId}`]);
    return { organizationId, ...limits };
  },

  async 'set-project-limit'(deps, flags) {
    const organizationId = str(flags, 'org', true);
    const maxProjects = limitFlag(flags, 'max');
    if (maxProjects === undefined) {
      throw new AppError('VALIDATION_ERROR', 'give --max N (live projects, a number, or "default" for the plan\'s)');
    }
    await changeOrganization(deps, organizationId, 'limits.changed', async (trx) => {
      await deps.organizations.setProjectLimit(organizationId, maxProjects, trx);
      return { out: null, details: { maxProjects } };
    });
    // no broadcast: no gateway caches the limit (it is read under the lock of each create)
    return { organizationId, maxProjects };
  },

  async 'revoke-key'(deps, flags) {
    const keyPrefix = str(flags, 'key-prefix', true);
    const key = await deps.db.transaction().execute(async (trx) => {
      const revoked = await deps.keys.revokeByPrefix(keyPrefix, trx);
      if (revoked?.revoked) {
        await recordOperatorChange(trx, {
          organizationId: revoked.organizationId,
          action: 'key.revoked',
          subject: { type: 'key', id: revoked.keyId },
          details: { prefix: keyPrefix },
        });
      }
      return revoked;
    });
    if (!key) throw new AppError('NOT_FOUND', `API key ${keyPrefix} not found`);
    await announce(deps, [`key:${key.keyId}`]);
    return { revoked: true };
  },
};
