import { PLANS, type Plan } from '@crawl/core';
import type { RetentionRepository } from '@crawl/db';

/**
 * Retention (docs/tenancy-and-credits.md, "Plans"): how long each plan keeps job results and webhook delivery logs.
 * Defaults below; the scheduler reads overrides from RETENTION_DAYS_<PLAN>. 0 keeps forever.
 */
export const DEFAULT_RETENTION_DAYS: Record<Plan, number> = { starter: 30, growth: 90, enterprise: 365 };

export interface RetentionPolicy {
  days: Record<Plan, number>;
  /** Rows per DELETE (and jobs per marking UPDATE): each statement is a short transaction of its own. */
  batchSize: number;
}

export interface RetentionSweepReport {
  jobsMarked: number;
  resultsDeleted: number;
  attemptsDeleted: number;
  deliveriesDeleted: number;
  /** False when the deadline stopped the sweep with work left (the next sweep continues). */
  complete: boolean;
}

/**
 * Deletes the result rows of one job already marked purged, a batch per statement, until none
 * are left (then clears its pending flag) or `deadline` (epoch ms) passes.
 */
export async function drainPurgedResults(
  retention: RetentionRepository,
  jobId: string,
  batchSize: number,
  deadline = Infinity,
): Promise<{ deleted: number; done: boolean }> {
  let deleted = 0;
  for (;;) {
    const n = await retention.deleteResultBatch(jobId, batchSize);
    deleted += n;
    if (n < batchSize) return { deleted, done: await retention.finishPurge(jobId) };
    if (Date.now() >= deadline) return { deleted, done: false };
  }
}

/**
 * One retention pass: mark the jobs of each plan whose results expired, delete the results of
 * every marked job, then expired attempt and delivery logs. Safe on several scheduler replicas
 * at once (each statement re-checks its condition; a row deleted twice is deleted once).
 */
export async function runRetentionSweep(
  retention: RetentionRepository,
  policy: RetentionPolicy,
  deadline = Infinity,
): Promise<RetentionSweepReport> {
  const report: RetentionSweepReport = { jobsMarked: 0, resultsDeleted: 0, attemptsDeleted: 0, deliveriesDeleted: 0, complete: false };
  const plans = PLANS.filter((plan) => policy.days[plan] > 0);
  const pastDeadline = () => Date.now() >= deadline;
  for (const plan of plans) {
    report.jobsMarked += await repeat(
      () => retention.markExpiredJobs(plan, policy.days[plan], policy.batchSize).then((ids) => ids.length),
      policy.batchSize,
      pastDeadline,
    );
  }
  for (;;) {
    const pending = await retention.pendingPurges(100);
    for (const jobId of pending) {
      if (pastDeadline()) return report;
      report.resultsDeleted += (await drainPurgedResults(retention, jobId, policy.batchSize, deadline)).deleted;
    }
    if (pending.length < 100 || pastDeadline()) break;
  }
  for (const plan of plans) {
    report.attemptsDeleted += await repeat(
      () => retention.deleteExpiredAttempts(plan, policy.days[plan], policy.batchSize),
      policy.batchSize,
      pastDeadline,
    );
    report.deliveriesDeleted += await repeat(
      () => retention.deleteExpiredDeliveries(plan, policy.days[plan], policy.batchSize),
      policy.batchSize,
      pastDeadline,
    );
  }
  report.complete = !pastDeadline();
  return report;
}

/** Runs a batch step until it does less than a full batch (nothing left) or the deadline passes. */
async function repeat(step: () => Promise<number>, batchSize: number, pastDeadline: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batchSize || pastDeadline()) return total;
  }
}
