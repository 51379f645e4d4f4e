import { type ResultItem, type TargetErrorCode, type TargetNoteCode } from '@crawl/core';
import type {
  AlertStateRepository,
  CreditRepository,
  Db,
  EventRepository,
  JobRepository,
  JobRow,
  JobTargetRepository,
  ResultRepository,
  Transaction,
  Database,
  TrackingRepository,
} from '@crawl/db';
import { queueExportDeliveries } from '@crawl/db';
import { exportObjectKey } from '@crawl/exports';
import { PAGE_SOURCES } from './alert-conditions';
import { evaluateAlertRules, type ObservedProduct } from './alert-evaluation';
import { jobFinishedEvent, productChangedData } from './event-data';
import { consumedCredits } from './job-credits';
import { JOBS_KINDS, productSnapshots } from './kinds';
import { diffSnapshot, type ProductSnapshot } from './product-snapshot';
import type { ReleaseWindow } from './release-window';

export interface JobProgressDeps {
  db: Db;
  jobs: JobRepository;
  targets: JobTargetRepository;
  results: ResultRepository;
  credits: CreditRepository;
  events: EventRepository;
  tracking: TrackingRepository;
  /** Alert rules' state, alerts and their mails, written with the snapshots (docs/alerts.md). */
  alerts: AlertStateRepository;
  /**
   * The organization's release window: a finished target frees a slot, refilled at once. The
   * worker always passes it; without it nothing is released after an outcome (only the
   * reconciler's top-up would), which suits callers that never run with a crawl queue.
   */
  releases?: ReleaseWindow;
}

/**
 * `pagesCrawled`: the pages the target is charged for (default 1, a details target's page; a
 * search keyword the result pages it crawled, 0 when it found nothing); `note`: said about the target in the job's
 * `notes` (a keyword without results, an offer listing longer than the pages crawled).
 */
export type TargetOutcome =
  | { kind: 'succeeded'; items: ResultItem[]; attempts: number; pagesCrawled?: number; note?: { code: TargetNoteCode; message: string } }
  | { kind: 'failed'; code: TargetErrorCode; message: string; attempts: number };

export type RecordResult = 'recorded' | 'finalized' | 'discarded';

/**
 * Records one target's outcome and, when it was the job's last, finishes the job: all in
 * one transaction, so a crash at any point leaves either nothing or everything (target state,
 * result rows, counters, credit settlement, outbox event). The finished target frees a slot
 * of its organization's release window: the same transaction releases and enqueues the next
 * target(s) (release-window.ts).
 */
export async function recordTargetOutcome(
  deps: JobProgressDeps,
  jobId: string,
  idx: number,
  target: string,
  outcome: TargetOutcome,
): Promise<RecordResult> {
  return deps.db.transaction().execute(async (trx) => {
    const recorded = await recordInTransaction(deps, trx, jobId, idx, target, outcome);
    if (!recorded) return 'discarded';
    // Last lock of the transaction (job -> job_target -> organization -> release window); the
    // released tasks are enqueued before the commit, so a crash cannot lose them.
    await deps.releases?.releaseIn(trx, recorded.organizationId, { served: 1, keepOnEnqueueError: true });
    return recorded.result;
  });
}

/** The outcome's writes; null when the target was no longer pending (nothing written). */
async function recordInTransaction(
  deps: JobProgressDeps,
  trx: Transaction<Database>,
  jobId: string,
  idx: number,
  target: string,
  outcome: TargetOutcome,
): Promise<{ result: 'recorded' | 'finalized'; organizationId: string } | null> {
  // Lock order job -> job_target -> organization, the same as cancel: the reverse order
  // (target row first) deadlocked against a concurrent cancel (found by the chaos run).
  if (!(await deps.jobs.lock(trx, jobId))) return null;
  const claimed = await deps.targets.finishTarget(trx, jobId, idx, {
    status: outcome.kind,
    attempts: outcome.attempts,
    pagesCrawled: outcome.kind === 'succeeded' ? (outcome.pagesCrawled ?? 1) : 0,
    ...(outcome.kind === 'failed' ? { errorCode: outcome.code, errorMessage: outcome.message } : {}),
  });
  if (!claimed) return null;
  if (outcome.kind === 'succeeded') await deps.results.insertMany(trx, jobId, idx, outcome.items);
  const job = await deps.jobs.addProgress(
    trx,
    jobId,
    outcome.kind === 'succeeded'
      ? {
          succeeded: 1,
          failed: 0,
          results: outcome.items.length,
          pages: outcome.pagesCrawled ?? 1,
          ...(outcome.note ? { note: { target, ...outcome.note } } : {}),
        }
      : { succeeded: 0, failed: 1, results: 0, error: { target, code: outcome.code, message: outcome.message } },
  );
  // Whether the type's results update tracked products is its module's (best-seller lists feed compare only).
  if (outcome.kind === 'succeeded' && JOBS_KINDS[job.type].snapshots) await trackProducts(deps, trx, job, outcome.items);
  if (job.status !== 'running' || job.succeeded + job.failed < job.target_count)
    return { result: 'recorded', organizationId: job.organization_id };
  await finalizeJob(deps, trx, job);
  return { result: 'finalized', organizationId: job.organization_id };
}

/**
 * running -> completed (at least one target succeeded, a keyword without results included) or
 * failed (none did). Credits: the pages succeeded targets crawled are consumed, the rest of the
 * reservation (failed targets, pages not crawled) is refunded (docs/tenancy-and-credits.md).
 * The job.completed / job.failed event goes to the outbox in the same transaction.
 */
export async function finalizeJob(deps: JobProgressDeps, trx: Transaction<Database>, job: JobRow): Promise<JobRow> {
  const status = job.succeeded > 0 ? 'completed' : 'failed';
  const consumed = consumedCredits(job);
  const refunded = job.credits_reserved - consumed;
  await deps.credits.settle(trx, job.organization_id, job.id, consumed, refunded);
  const final = await deps.jobs.markTerminal(trx, job.id, { status, creditsConsumed: consumed, creditsRefunded: refunded });
  // the export's deliveries to storage are queued with the job's end (docs/destinations.md)
  const deliveries = status === 'completed' ? await queueExportDeliveries(trx, final, exportObjectKey) : [];
  const event = jobFinishedEvent(final, deliveries);
  await deps.events.insert(trx, { projectId: final.project_id, type: event.type, data: { ...event.data } });
  return final;
}

/**
 * Change tracking for the products a target produced: one snapshot per product (the first
 * card of an ASIN over a keyword's result pages: a product also shown on a later page, or twice,
 * is one observation, not two that could differ; an offer listing's buy box; a review page's
 * rating summary), compared with the product's last known state (rules in
 * product-snapshot.ts). One rule for every tracked job type: every change that is counted
 * (`changeCount`, timeline, analytics `changesDetected`) is also announced, as one
 * `product.changed` event per changed product, in the same transaction as the results. A
 * search card is compared only on what a card shows, so its changes are real changes of the
 * monitored product, seen from a search page.
 */
async function trackProducts(deps: JobProgressDeps, trx: Transaction<Database>, job: JobRow, items: ResultItem[]): Promise<void> {
  const byAsin = productSnapshots(job.type, items);
  if (!byAsin.size) return;
  // one series per delivery location: a job's observations are compared only with its own postal code's
  const series = { projectId: job.project_id, marketplace: job.marketplace, postalCode: job.postal_code ?? '' };
  const known = await deps.tracking.lockSeries(trx, series, [...byAsin.keys()]);
  // Alert rules read the state product pages showed (docs/alerts.md): a search card never moves it.
  const page = PAGE_SOURCES.includes(job.type);
  const observed: ObservedProduct[] = [];
  const writes = [...byAsin].map(([asin, snapshot]) => {
    const target = known.get(asin);
    const { changes, merged } = diffSnapshot((target?.latest as ProductSnapshot | null) ?? null, snapshot);
    if (!page) return { asin, snapshot: { ...snapshot }, merged: { ...merged }, changes };
    const before = (target?.page as ProductSnapshot | null) ?? null;
    const pageDiff = diffSnapshot(before, snapshot);
    observed.push({ asin, source: job.type, observed: snapshot, before, after: pageDiff.merged, changes: pageDiff.changes, merged });
    const pagePrice = job.type === 'details' || job.type === 'offers' ? snapshot.price : null;
    return { asin, snapshot: { ...snapshot }, merged: { ...merged }, changes, page: { ...pageDiff.merged }, pagePrice };
  });
  await deps.tracking.recordSnapshots(trx, { ...series, jobId: job.id, source: job.type }, writes);
  for (const w of writes.filter((x) => x.changes.length)) {
    await deps.events.insert(trx, {
      projectId: job.project_id,
      type: 'product.changed',
      data: productChangedData({
        asin: w.asin,
        marketplace: job.marketplace,
        postalCode: series.postalCode,
        jobId: job.id,
        changes: w.changes,
        merged: w.merged,
      }),
    });
  }
  await evaluateAlertRules(deps, trx, series, job.id, observed);
}
