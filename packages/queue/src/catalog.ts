import { z } from 'zod';

/**
 * Every queue job the system knows: its queue, payload schema and retry policy. Producers
 * and consumers share these entries, so a payload can never drift between them. Names are
 * persisted in Redis: never rename an entry in place, and add payload fields as optional.
 */
export interface CatalogEntry {
  queue: QueueName;
  schema: z.ZodTypeAny;
  attempts: number;
  backoffMs: number;
  /** Fraction of the backoff delay randomized, so retries of many tasks spread out. */
  backoffJitter?: number;
  removeOnCompleteAgeSeconds: number;
}

/**
 * Webhook deliveries have no queue: Postgres is the deliverer's queue (services/webhooks
 * delivery-loop.ts), which claims and logs attempts in batches. Tasks a former version left in
 * the `webhook` queue are ignored; their deliveries are in Postgres and sent from there.
 */
export const QUEUE_NAMES = ['crawl'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

const jobRef = z.object({ jobId: z.string().min(1) });

export const catalog = {
  /**
   * Starts a crawl job that Postgres holds as `queued`. Idempotent (a job already started is
   * left alone), so the reconciler may enqueue it again at any time; many attempts because a
   * start only fails when Postgres is unreachable.
   */
  'crawl.startJob': {
    queue: 'crawl',
    schema: jobRef,
    attempts: 10,
    backoffMs: 1_000,
    // Kept a day so that a re-add by the reconciler dedupes against the finished entry.
    removeOnCompleteAgeSeconds: 24 * 3600,
  },
  /**
   * Crawls one target of a running job. Attempts and backoff are the crawl's own retry
   * policy for blocked pages, 429/5xx and timeouts (docs/fetch-contract.md): 4 attempts, 2 s base,
   * x2 each, +/-50% jitter so that a burst of blocked targets does not come back in lockstep.
   * The handler records the failure itself on the last attempt.
   */
  'crawl.fetchTarget': {
    queue: 'crawl',
    schema: z.object({ jobId: z.string().min(1), idx: z.number().int().min(0) }),
    attempts: 4,
    backoffMs: 2_000,
    backoffJitter: 0.5,
    removeOnCompleteAgeSeconds: 3600,
  },
} satisfies Record<string, CatalogEntry>;

export type JobName = keyof typeof catalog;
export type PayloadOf<N extends JobName> = z.input<(typeof catalog)[N]['schema']>;
export type ParsedPayloadOf<N extends JobName> = z.output<(typeof catalog)[N]['schema']>;
export type JobsOfQueue<Q extends QueueName> = {
  [N in JobName]: (typeof catalog)[N]['queue'] extends Q ? N : never;
}[JobName];
