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

/** Used when an enterprise organization has no limit configured yet. */
export const DEFAULT_ENTERPRISE_PER_MINUTE = 60_000;

export const EVENT_TYPES = ['job.completed', 'job.failed', 'schedule.triggered', 'product.changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const TARGET_ERROR_CODES = ['NOT_FOUND', 'BLOCKED', 'UPSTREAM_ERROR', 'PARSE_ERROR', 'CANCELLED'] as const;
export type TargetErrorCode = (typeof TARGET_ERROR_CODES)[number];
