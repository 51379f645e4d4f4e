/** Domain rules shared by the gateway, workers and CLI. Pure: no I/O. */

export const JOB_TYPES = ['search', 'details'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Spec 8.1: credits per target. */
export const CREDITS_PER_TARGET: Record<JobType, number> = { search: 5, details: 2 };

export function creditCost(type: JobType, targetCount: number): number {
  return CREDITS_PER_TARGET[type] * targetCount;
}

export const MAX_TARGETS_PER_JOB = 1000;

export const PLANS = ['starter', 'growth', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

/** Spec 8.2: per-second windows for starter and growth; enterprise has a per-minute limit per organization. */
export function rateLimitPolicy(plan: Plan, perMinuteLimit: number | null): RateLimitPolicy {
  switch (plan) {
    case 'starter':
      return { limit: 20, windowSeconds: 1 };
    case 'growth':
      return { limit: 100, windowSeconds: 1 };
    case 'enterprise':
      return { limit: perMinuteLimit ?? DEFAULT_ENTERPRISE_PER_MINUTE, windowSeconds: 60 };
  }
}

/**
 * Schedules a project may hold and how often one may fire (issue 11.6): a schedule firing
 * every second costs its tenant credits but costs every tenant queue and scheduler time, so
 * the floor is one minute on every plan; an operator can change both per organization
 * (`admin set-schedule-limits`). The caps grow with the plan.
 */
export interface SchedulePolicy {
  minIntervalSeconds: number;
  maxPerProject: number;
}

const PLAN_SCHEDULES: Record<Plan, SchedulePolicy> = {
  starter: { minIntervalSeconds: 60, maxPerProject: 25 },
  growth: { minIntervalSeconds: 60, maxPerProject: 100 },
  enterprise: { minIntervalSeconds: 60, maxPerProject: 500 },
};

export function schedulePolicy(plan: Plan, overrides: { minIntervalSeconds?: number | null; maxPerProject?: number | null } = {}): SchedulePolicy {
  const base = PLAN_SCHEDULES[plan];
  return { minIntervalSeconds: overrides.minIntervalSeconds ?? base.minIntervalSeconds, maxPerProject: overrides.maxPerProject ?? base.maxPerProject };
}

/** Used when an enterprise organization has no limit configured yet. */
export const DEFAULT_ENTERPRISE_PER_MINUTE = 60_000;

export const TARGET_ERROR_CODES = ['NOT_FOUND', 'BLOCKED', 'UPSTREAM_ERROR', 'PARSE_ERROR', 'INTERNAL_ERROR', 'CANCELLED'] as const;
export type TargetErrorCode = (typeof TARGET_ERROR_CODES)[number];

/**
 * The JSON body of a webhook delivery (spec 2.6; its schema is `webhookDeliverySchema` in
 * webhook-events.ts). Serialized once, when the delivery is
 * created, and stored: every attempt sends the same bytes.
 */
export function webhookDeliveryBody(d: { id: string; event: string; createdAt: Date; projectId: string; data: unknown; test?: boolean }): string {
  return JSON.stringify({
    id: d.id,
    event: d.event,
    createdAt: d.createdAt.toISOString(),
    projectId: d.projectId,
    data: d.data,
    ...(d.test ? { test: true } : {}),
  });
}

/** Spec 8.3: at most 5 delivery attempts in all. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** Delay before attempt `attempt + 1`: base x4 per attempt (30 s, 2 m, 8 m, 32 m by default), +/-20% jitter. */
export function webhookRetryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 4 ** (attempt - 1) * (0.8 + 0.4 * random()));
}
