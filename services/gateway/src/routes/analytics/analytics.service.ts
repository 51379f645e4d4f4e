import { type AnalyticsResource, JOB_TYPES } from '@crawl/core';
import { AnalyticsRepository } from '@crawl/db';
import type { GatewayContext } from '../../context';

/**
 * Project analytics over a creation-time range. Jobs count on the UTC day they were
 * created (a job running over midnight is not counted twice); a retry is its own job with
 * source `retry`. The queries are AnalyticsRepository's, each one indexed scan of the range.
 *
 * One definition of "targets" everywhere (`targets.crawled` and `daily[].targets`): a target
 * counts once it was crawled to an outcome, i.e. the job's `succeeded + failed` counters. Targets
 * a cancel stopped before they were crawled, and targets still pending, are not counted (they
 * cost nothing: their credits are in `credits.refunded` or still reserved). So the daily series
 * always sums to the totals; `target_count` (targets requested) is deliberately not used.
 */
export class AnalyticsService {
  constructor(private readonly analytics: AnalyticsRepository) {}

  async forProject(projectId: string, from: Date, to: Date): Promise<AnalyticsResource> {
    const [j, byType, failures, changes, deliveries, daily] = await Promise.all([
      this.analytics.jobTotals(projectId, from, to),
      this.analytics.jobCountsByType(projectId, from, to),
      this.analytics.failuresByCode(projectId, from, to),
      this.analytics.changesDetected(projectId, from, to),
      this.analytics.deliveriesByStatus(projectId, from, to),
      this.analytics.dailyJobTotals(projectId, from, to),
    ]);
    const crawled = j.succeeded + j.failed;
    const byStatus = (status: string) => deliveries.find((r) => r.status === status)?.count ?? 0;
    return {
      range: { from: from.toISOString(), to: to.toISOString() },
      jobs: {
        total: j.total,
        byStatus: { queued: j.queued, running: j.running, completed: j.completed, failed: j.failedJobs, cancelled: j.cancelled },
        // every job type, with 0 for a type without jobs in the range
        byType: Object.fromEntries(JOB_TYPES.map((type) => [type, byType.get(type) ?? 0])) as AnalyticsResource['jobs']['byType'],
        bySource: { api: j.fromApi, schedule: j.fromSchedule, retry: j.fromRetry },
      },
      targets: { crawled, succeeded: j.succeeded, failed: j.failed, successRate: crawled ? j.succeeded / crawled : null },
      failuresByCode: Object.fromEntries(failures.map((r) => [r.code ?? 'UNKNOWN', r.count])),
      credits: { reserved: j.creditsReserved, consumed: j.creditsConsumed, refunded: j.creditsRefunded },
      results: j.results,
      jobDurationSeconds: { p50: j.p50Seconds, p95: j.p95Seconds },
      changesDetected: changes,
      webhookDeliveries: {
        succeeded: byStatus('delivered'),
        failed: byStatus('failed'),
        pending: byStatus('pending'),
        cancelled: byStatus('cancelled'),
      },
      daily: daily.map((d) => ({
        date: d.day,
        jobs: d.jobs,
        targets: d.targets,
        credits: { reserved: d.creditsReserved, consumed: d.creditsConsumed, refunded: d.creditsRefunded },
      })),
    };
  }
}

/** The analytics resource's service, built from the gateway's shared infrastructure. */
export const createAnalyticsService = (ctx: Pick<GatewayContext, 'db'>): AnalyticsService =>
  new AnalyticsService(new AnalyticsRepository(ctx.db));
