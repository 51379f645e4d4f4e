import { readJobSpec, type RunStatus } from '@crawl/core';
import type { Db, ScheduleRepository, ScheduleRow } from '@crawl/db';
import type { JobService } from './job.service';
import { nextFireAfter } from './schedule-cron';

export interface ScheduleRunnerDeps {
  db: Db;
  schedules: ScheduleRepository;
  jobService: JobService;
}

/** A fire time recorded twice: the batch rolls back and is retried (never a second job). */
class DuplicateFire extends Error {}

/**
 * Fires every due schedule once, in one transaction per batch: for each, a job (credits
 * reserved like any job) or a skipped run when the balance is short, a row unique per
 * (schedule, fire time), and the next fire time. Schedules are row-locked with SKIP LOCKED,
 * so replicas split the work, and the unique row makes a double fire impossible even if two
 * replicas raced. A schedule that missed fires during downtime fires once for the oldest
 * missed time, then resumes from now: one catch-up job, not one per missed fire.
 * Returns the ids of the jobs created (already enqueued, or left to the reconciler).
 */
export async function fireDueSchedules(deps: ScheduleRunnerDeps, limit = 100): Promise<{ fired: number; jobIds: string[] }> {
  let fired = 0;
  const jobIds: string[] = [];
  try {
    await deps.db.transaction().execute(async (trx) => {
      const due = await deps.schedules.lockDue(trx, limit);
      for (const schedule of due) {
        const result = await fireOne(deps, trx, schedule);
        if (result.fired) fired += 1;
        if (result.jobId) jobIds.push(result.jobId);
      }
    });
  } catch (err) {
    if (err instanceof DuplicateFire) return { fired: 0, jobIds: [] };
    throw err;
  }
  for (const id of jobIds) await deps.jobService.enqueueStart(id);
  return { fired, jobIds };
}

async function fireOne(deps: ScheduleRunnerDeps, trx: Parameters<ScheduleRepository['lockDue']>[0], schedule: ScheduleRow) {
  const fireTime = schedule.next_run_at;
  // A fire time that already has its run (next_run_at moved back by hand or by a bug) only
  // moves the schedule on: throwing would roll back the whole batch, and this schedule, the
  // oldest due one, would block every other schedule on each later pass.
  if (await deps.schedules.hasRun(trx, schedule.id, fireTime)) {
    await deps.schedules.advance(trx, schedule.id, {
      nextRunAt: nextFireAfter(schedule.cron, new Date()),
      lastRunAt: schedule.last_run_at ?? fireTime,
      status: schedule.last_run_status ?? 'created',
      jobId: schedule.last_job_id,
    });
    return { fired: false, jobId: null };
  }
  const created = await deps.jobService.record(
    readJobSpec(schedule.crawl_config),
    { projectId: schedule.project_id, organizationId: schedule.organization_id },
    { scheduleId: schedule.id },
    trx,
  );
  const job = created.ok ? created.job : null;
  const status: RunStatus = job ? 'created' : 'skipped_insufficient_credits';
  const recorded = await deps.schedules.recordRun(trx, { scheduleId: schedule.id, fireTime, status, jobId: job?.id ?? null });
  if (!recorded) throw new DuplicateFire();
  const now = new Date();
  await deps.schedules.advance(trx, schedule.id, {
    nextRunAt: nextFireAfter(schedule.cron, fireTime > now ? fireTime : now),
    lastRunAt: fireTime,
    status,
    jobId: job?.id ?? null,
  });
  return { fired: true, jobId: job?.id ?? null };
}
