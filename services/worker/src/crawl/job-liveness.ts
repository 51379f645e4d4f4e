import type { StillWanted } from '@crawl/marketplace';

/** How long a job's "still running" answer is trusted. */
export const LIVENESS_TTL_MS = 500;

/**
 * Whether a job is still running, as the exit pool asks before each of its requests takes a
 * turn: a cancelled job's tasks already in flight here (waiting for an exit, often hundreds of
 * them) are dropped at the front of the line instead of fetching. One lookup per job per
 * LIVENESS_TTL_MS however many of its requests wait, so the check is cheap at any rate; a
 * cancel is seen within that long. A job that is not running stays so (terminal states are
 * final), so that answer is kept for good.
 */
export class JobLiveness {
  private readonly entries = new Map<string, { at: number; running: Promise<boolean> }>();

  constructor(
    private readonly lookup: (jobId: string) => Promise<boolean>,
    private readonly ttlMs = LIVENESS_TTL_MS,
  ) {}

  isRunning(jobId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.entries.get(jobId);
    if (hit && now - hit.at < this.ttlMs) return hit.running;
    const running = this.lookup(jobId);
    // a failed lookup is not remembered; it keeps the request (see ExitPool)
    running.then(
      (yes) => {
        if (!yes) this.entries.set(jobId, { at: Number.POSITIVE_INFINITY, running });
      },
      () => this.entries.delete(jobId),
    );
    this.entries.set(jobId, { at: now, running });
    if (this.entries.size > 10_000) this.evict(now);
    return running;
  }

  /** The check the exit pool runs for one job's requests. */
  wanted(jobId: string): StillWanted {
    return () => this.isRunning(jobId);
  }

  private evict(now: number): void {
    for (const [jobId, entry] of this.entries) if (now - entry.at >= this.ttlMs) this.entries.delete(jobId);
    // thousands of finished jobs remembered: forget them (asking again is only a lookup)
    if (this.entries.size > 10_000) this.entries.clear();
  }
}
