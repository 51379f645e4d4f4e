import { type JobSpec, type JobType, type PageStyle, pagesPerTarget, type ResultItem, type TargetNoteCode } from '@crawl/core';
import type { PageCheckpoint } from '@crawl/db';
import {
  type CrawlErrorCode,
  type CrawlInput,
  type CrawlOutcome,
  ExitTurnRefused,
  MARKETPLACE_KINDS,
  type StillWanted,
} from '@crawl/marketplace';

/** A target as the crawl task sees it (JobTargetRepository.findTargetContext). */
export interface PagedTarget {
  jobId: string;
  idx: number;
  projectId: string;
  target: string;
  /** Its job's spec, without the job's other targets: every page request carries its options. */
  spec: Omit<JobSpec, 'targets'>;
  /** The pages an earlier attempt of this task crawled (null: none). */
  pageCheckpoint: PageCheckpoint | null;
}

export interface TargetPagesDeps {
  crawler: { crawl(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> };
  /** Keeps the pages crawled so far when the task is about to be retried. */
  saveCheckpoint(jobId: string, idx: number, checkpoint: PageCheckpoint): Promise<boolean>;
  /** Whether the target is still to be crawled (its job was not cancelled meanwhile). */
  stillPending(jobId: string, idx: number): Promise<boolean>;
  /** Asked before each page takes an exit's turn (cached: a cancelled job's pages take none). */
  jobWanted?: (jobId: string) => StillWanted;
  /**
   * Aborted when this process's shutdown grace is over: a page still being fetched is given up
   * and the task handed back (the page is fetched again by whoever takes the task).
   */
  fetchDeadline?: AbortSignal;
  onCrawled?: (outcome: string, seconds: number) => void;
}

export type TargetPagesResult =
  | { kind: 'succeeded'; items: ResultItem[]; pagesCrawled: number; note?: { code: TargetNoteCode; message: string } }
  | { kind: 'failed'; code: CrawlErrorCode; message: string }
  /** A retryable failure before the task's last attempt: the queue retries the task (from the checkpoint). */
  | { kind: 'retry'; code: CrawlErrorCode; message: string }
  /** The target stopped being pending between two pages (its job was cancelled). */
  | { kind: 'cancelled' }
  /**
   * This process is shutting down before the page was fetched (or its grace ran out): the task
   * goes back to the queue as it is, without costing an attempt (pages crawled so far are kept).
   */
  | { kind: 'handBack' };

/** The `NO_RESULTS` note of a target whose first page had nothing to return, in the words of its type. */
export function noResultsNote(type: JobType): { code: TargetNoteCode; message: string } {
  return { code: 'NO_RESULTS', message: MARKETPLACE_KINDS[type].noResultsMessage };
}

/**
 * The `TRUNCATED` note of a target whose last crawled page (`pages` crawled) still had a next
 * one, for the types that say so (an offer listing: "every offer" was not all of them).
 */
export function truncatedNote(type: JobType, pages: number): { code: TargetNoteCode; message: string } | undefined {
  const message = MARKETPLACE_KINDS[type].truncatedMessage?.(pages);
  return message ? { code: 'TRUNCATED', message } : undefined;
}

/**
 * The crawl's outcome, or why there is none: the page's turn was refused (its job was cancelled;
 * the process is shutting down), or the shutdown grace ran out while it was being fetched.
 */
async function crawlBefore(
  crawl: Promise<CrawlOutcome>,
  deadline: AbortSignal | undefined,
): Promise<CrawlOutcome | 'cancelled' | 'handBack'> {
  const refused = (err: unknown) => {
    if (err instanceof ExitTurnRefused) return err.reason === 'cancelled' ? ('cancelled' as const) : ('handBack' as const);
    throw err;
  };
  if (!deadline) return crawl.catch(refused);
  if (deadline.aborted) {
    crawl.catch(() => undefined);
    return 'handBack';
  }
  let onAbort: () => void = () => undefined;
  const expired = new Promise<'handBack'>((resolve) => {
    onAbort = () => resolve('handBack');
    deadline.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([crawl.catch(refused), expired]);
  } finally {
    deadline.removeEventListener('abort', onAbort);
    crawl.catch(() => undefined);
  }
}

/**
 * Crawls a target's pages in order: details and best-seller targets have one, a search keyword,
 * a reviews or an offers product up to its job's `pages`, stopping early (not an error) after a
 * page without an enabled next-page link, at a later page the marketplace answers 404 for, or at
 * a later page that shows no results. A listing cut short by `pages` (its last crawled page has
 * a next one) gets its type's `TRUNCATED` note. Page n > 1 is requested the way the page before
 * said (`pageStyle`: an offer listing's layout), which the checkpoint keeps for a retry.
 * Each page goes through the exit pool on its own; a page's retry leaves from another exit
 * (attempt keys are per page). A retryable failure before the last attempt keeps the pages
 * crawled so far (checkpoint) and asks for a retry of the task, which goes on from the failed
 * page. A keyword whose page fails for good fails as a whole (no rows, all refunded): a
 * partial ranking would report products absent from pages that were never seen (reviews follow
 * the same rule: one machinery, and a retry of the target refetches every page anyway).
 */
export async function crawlTargetPages(
  deps: TargetPagesDeps,
  t: PagedTarget,
  attempt: { attempt: number; maxAttempts: number },
): Promise<TargetPagesResult> {
  const { pages: _pages, ...options } = t.spec;
  const type = options.type;
  const wanted = pagesPerTarget(t.spec);
  const kind = MARKETPLACE_KINDS[type];
  let items: ResultItem[] = t.pageCheckpoint?.items ?? [];
  let crawled = t.pageCheckpoint?.pages ?? 0;
  let pageStyle: PageStyle | null = t.pageCheckpoint?.pageStyle ?? null;
  /** Whether the last page crawled has a next one (the listing goes on past `wanted`). */
  let more = false;
  const checkpointed = crawled;
  const checkpoint = () => ({ pages: crawled, items, ...(pageStyle ? { pageStyle } : {}) });
  for (let page = crawled + 1; page <= wanted; page++) {
    // A cancel between pages stops the keyword (its outcome would be discarded anyway).
    if (page > 1 && !(await deps.stillPending(t.jobId, t.idx))) return { kind: 'cancelled' };
    const started = process.hrtime.bigint();
    const input: CrawlInput = { ...options, target: t.target, tenant: t.projectId, page, ...(page > 1 && pageStyle ? { pageStyle } : {}) };
    if (deps.jobWanted) input.wanted = deps.jobWanted(t.jobId);
    const outcome = await crawlBefore(
      deps.crawler.crawl(input, page === 1 ? `${t.jobId}-${t.idx}` : `${t.jobId}-${t.idx}-p${page}`),
      deps.fetchDeadline,
    );
    if (outcome === 'cancelled') return { kind: 'cancelled' };
    if (outcome === 'handBack') {
      if (crawled > checkpointed) await deps.saveCheckpoint(t.jobId, t.idx, checkpoint());
      return { kind: 'handBack' };
    }
    deps.onCrawled?.(outcome.ok ? 'OK' : outcome.code, Number(process.hrtime.bigint() - started) / 1e9);
    if (!outcome.ok) {
      if (page > 1 && outcome.code === 'NOT_FOUND') {
        more = false;
        break;
      }
      // A sign-in wall is the page's, not the exit's: one more try (from another exit) at most.
      const retryable = outcome.retryable && !(outcome.signIn && attempt.attempt > 1);
      if (retryable && attempt.attempt < attempt.maxAttempts) {
        if (crawled > checkpointed) await deps.saveCheckpoint(t.jobId, t.idx, checkpoint());
        return { kind: 'retry', code: outcome.code, message: outcome.message };
      }
      return { kind: 'failed', code: outcome.code, message: outcome.message };
    }
    // Items of another type would be stored under a schema they do not have: a bug, never a result.
    if (outcome.type !== type) throw new Error(`a ${type} target was crawled as ${outcome.type}`);
    if (outcome.noResults) {
      if (page === 1) return { kind: 'succeeded', items: [], pagesCrawled: 0, note: noResultsNote(type) };
      more = false;
      break;
    }
    items = [...items, ...(kind.continueItems ? kind.continueItems(items, outcome.items) : outcome.items)];
    crawled = page;
    pageStyle = outcome.pageStyle ?? pageStyle;
    more = outcome.hasNextPage;
    if (!more) break;
  }
  const note = more ? truncatedNote(type, crawled) : undefined;
  return { kind: 'succeeded', items, pagesCrawled: crawled, ...(note ? { note } : {}) };
}
