import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import IORedis from 'ioredis';
import type { Logger } from '@crawl/observability';
import { catalog, type JobName, type JobsOfQueue, type ParsedPayloadOf, type QueueName } from './catalog';

/** Thrown by handlers for failures that retrying cannot fix (bad payload, missing row, permanent 4xx). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * Thrown by a handler that has not done its work and gives the task back (its process is
 * shutting down): the task returns to the queue at once, without costing an attempt, and
 * another worker takes it without waiting for a lock to expire.
 */
export class HandBackTask extends Error {
  constructor(message = 'handed back to the queue') {
    super(message);
    this.name = 'HandBackTask';
  }
}

export interface HandlerContext {
  /** 1-based attempt number of this run. */
  attempt: number;
  maxAttempts: number;
  log: Logger;
}

export type Handler<N extends JobName> = (payload: ParsedPayloadOf<N>, ctx: HandlerContext) => Promise<unknown>;

/**
 * What happens when a task will not run again: its last attempt threw, or it threw a
 * PermanentJobError. It records the failure on the row the task works for (a target failed
 * and refunded, a delivery failed), so that no row waits forever for a task that is gone.
 */
export type FinalFailure<N extends JobName> = (payload: ParsedPayloadOf<N>, error: unknown, ctx: HandlerContext) => Promise<unknown>;

/** Every catalog entry needs both: a missing final-failure path is a compile error. */
export interface TaskHandler<N extends JobName> {
  run: Handler<N>;
  onFinalFailure: FinalFailure<N>;
}
export type HandlersOf<Q extends QueueName> = { [N in JobsOfQueue<Q>]: TaskHandler<N> };

export interface ConsumerOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  log: Logger;
  /** How long a task may run without its lock being renewed before another worker takes it over. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  onOutcome?: (name: string, outcome: 'completed' | 'failed' | 'invalid' | 'handed_back', seconds: number) => void;
}

/**
 * Runs the handlers of one queue. Every payload is re-parsed with the catalog schema before
 * its handler sees it; invalid payloads fail permanently. Handlers never see BullMQ's Job.
 * Stalled tasks (a worker killed mid-task) are taken over by another worker after
 * `lockDurationMs`, so crashes delay work and never lose it.
 */
export function runWorker<Q extends QueueName>(queue: Q, handlers: HandlersOf<Q>, options: ConsumerOptions): Worker {
  const expected = (Object.keys(catalog) as JobName[]).filter((n) => catalog[n].queue === queue);
  const entries = handlers as unknown as Record<string, Partial<TaskHandler<JobName>> | undefined>;
  const missing = expected.filter((n) => typeof entries[n]?.run !== 'function' || typeof entries[n]?.onFinalFailure !== 'function');
  if (missing.length) throw new Error(`queue ${queue}: missing handlers for ${missing.join(', ')}`);

  const connection = new IORedis(options.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
  connection.on('error', () => undefined);
  const worker = new Worker(
    queue,
    async (job: Job, token?: string) => {
      const name = job.name as JobName;
      const entry = catalog[name];
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      if (!entry || entry.queue !== queue) {
        options.onOutcome?.(job.name, 'invalid', 0);
        throw new UnrecoverableError(`unknown job ${job.name} on queue ${queue}`);
      }
      const parsed = entry.schema.safeParse(job.data);
      if (!parsed.success) {
        options.onOutcome?.(name, 'invalid', 0);
        throw new UnrecoverableError(`invalid payload for ${name}: ${parsed.error.message}`);
      }
      const ctx: HandlerContext = {
        attempt: job.attemptsMade + 1,
        maxAttempts: job.opts.attempts ?? entry.attempts,
        log: options.log.child({ queue, job: name, taskId: job.id, attempt: job.attemptsMade + 1 }),
      };
      const handler = entries[name] as unknown as {
        run: (p: unknown, c: HandlerContext) => Promise<unknown>;
        onFinalFailure: (p: unknown, e: unknown, c: HandlerContext) => Promise<unknown>;
      };
      try {
        const result = await handler.run(parsed.data, ctx);
        options.onOutcome?.(name, 'completed', seconds());
        return result;
      } catch (err) {
        if (err instanceof HandBackTask && token) {
          options.onOutcome?.(name, 'handed_back', seconds());
          // Due now: BullMQ's documented way for a processor to put its task back (DelayedError
          // tells the worker it moved); the delay marker wakes idle workers at once. The
          // attempt is not counted and the priority is kept.
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError(err.message);
        }
        options.onOutcome?.(name, 'failed', seconds());
        const permanent = err instanceof PermanentJobError;
        if (permanent || ctx.attempt >= ctx.maxAttempts) {
          ctx.log.error({ err }, 'task failed for good; recording the failure');
          // If recording fails too (Postgres down), the row stays as it was and the
          // reconcilers pick it up again; the task's own error is what BullMQ keeps.
          await handler
            .onFinalFailure(parsed.data, err, ctx)
            .catch((recordErr: unknown) => ctx.log.error({ err: recordErr }, 'final failure not recorded'));
        }
        if (permanent) throw new UnrecoverableError((err as Error).message);
        throw err;
      }
    },
    {
      connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs ?? 15_000,
      stalledInterval: options.stalledIntervalMs ?? 5_000,
      // A task may be orphaned by several crashes in a row before it is given up on.
      maxStalledCount: 5,
    },
  );
  worker.on('error', (err) => options.log.warn({ err, queue }, 'worker error'));
  const close = worker.close.bind(worker);
  worker.close = async (force?: boolean) => {
    await close(force);
    connection.disconnect();
  };
  return worker;
}
