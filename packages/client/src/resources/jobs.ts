import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { CrawlApiError, CrawlNetworkError, CrawlWaitTimeoutError } from '../errors';
import { paginate, seg } from '../pagination';
import { sleep, type Transport } from '../transport';
import {
  type CostEstimate,
  type CreateJobBody,
  type ExportFormat,
  type Job,
  type ListJobsQuery,
  type Page,
  type PageQuery,
  type ResultItem,
  type RetryTargets,
  TERMINAL_STATUSES,
} from '../types';

const errorMessage = (err: unknown): string => (err && typeof err === 'object' && 'message' in err ? String(err.message) : String(err));

export interface IdempotencyOptions {
  /**
   * Sent as `Idempotency-Key`: a repeat within 24 h replays the first answer without charging
   * again, which is what makes an automatic retry of this POST safe. 1-255 printable ASCII.
   */
  idempotencyKey?: string;
}

export interface WaitForOptions {
  /** Pause after each poll; the last one repeats. Default `[2000, 5000, 10000]` (the polling the service recommends). */
  intervalsMs?: number[];
  /** Give up with `CrawlWaitTimeoutError` after this long. Default: wait forever. */
  timeoutMs?: number;
  /** Called with the job after every poll, the final one included. */
  onProgress?: (job: Job) => void;
  signal?: AbortSignal;
}

export interface ExportToFileResult {
  path: string;
  bytes: number;
}

/** Jobs, their results and exports. */
export class JobsResource {
  constructor(
    private readonly transport: Transport,
    private readonly options: { autoIdempotency: boolean },
  ) {}

  /**
   * Creates a job (202, status `queued`, credits reserved). Retried automatically only with an
   * idempotency key (given, or generated when the client has `autoIdempotency`); never after
   * 402 INSUFFICIENT_CREDITS.
   */
  async create(projectId: string, body: CreateJobBody, options: IdempotencyOptions = {}): Promise<Job> {
    const idempotencyKey = options.idempotencyKey ?? (this.options.autoIdempotency ? randomUUID() : undefined);
    const res = await this.transport.json<{ data: Job }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/jobs`,
      body,
      idempotencyKey,
      retryable: idempotencyKey !== undefined,
    });
    return res.data;
  }

  /**
   * What creating a job with `body` would cost, the balance, and whether it would be accepted
   * now (`accepted`, else `refusal`). Validated like a create (400 alike); creates nothing.
   */
  async estimate(projectId: string, body: CreateJobBody): Promise<CostEstimate> {
    const res = await this.transport.json<{ data: CostEstimate }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/jobs/estimate`,
      body,
      retryable: true,
    });
    return res.data;
  }

  /** One page of the project's jobs, newest first. */
  list(projectId: string, query: ListJobsQuery = {}): Promise<Page<Job>> {
    return this.transport.json<Page<Job>>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/jobs`,
      query: { ...query },
      retryable: true,
    });
  }

  /** Every job matching `query`, page by page (`query.limit` is the page size, default 100). */
  iterate(projectId: string, query: ListJobsQuery = {}): AsyncGenerator<Job, void, undefined> {
    const { limit = 100, offset = 0, ...filter } = query;
    return paginate((l, o) => this.list(projectId, { ...filter, limit: l, offset: o }), limit, offset);
  }

  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<Job> {
    const res = await this.transport.json<{ data: Job }>({
      method: 'GET',
      path: `/v1/key/jobs/${seg(id)}`,
      retryable: true,
      signal: options.signal,
    });
    return res.data;
  }

  /** One page of stored result items (limit 1..1000, default 100). */
  results<T extends ResultItem = ResultItem>(id: string, query: PageQuery = {}): Promise<Page<T>> {
    return this.transport.json<Page<T>>({ method: 'GET', path: `/v1/key/jobs/${seg(id)}/results`, query: { ...query }, retryable: true });
  }

  /** Every result item of the job, in stored order. */
  iterateResults<T extends ResultItem = ResultItem>(id: string, options: { pageSize?: number } = {}): AsyncGenerator<T, void, undefined> {
    return paginate((limit, offset) => this.results<T>(id, { limit, offset }), options.pageSize ?? 1000);
  }

  /**
   * The export file as a stream (the gateway streams it from a cursor: constant memory on both
   * sides). Only for `completed` jobs (409 JOB_NOT_COMPLETE before). A failure after the first
   * byte cannot become an error response: the server breaks the connection and the stream
   * emits an error, so a short file is never mistaken for a whole one.
   * `Readable.toWeb(stream)` gives a web ReadableStream.
   */
  async export(id: string, format: ExportFormat = 'json', options: { signal?: AbortSignal } = {}): Promise<Readable> {
    const path = `/v1/key/jobs/${seg(id)}/export`;
    const res = await this.transport.stream({ method: 'GET', path, query: { format }, retryable: true, signal: options.signal });
    const body = res.body as unknown as NodeWebReadableStream<Uint8Array> | null;
    const url = this.transport.url(path, { format });
    let bytes = 0;
    // Destroying the Readable returns the generator, which cancels the HTTP body.
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (!body) return;
      try {
        for await (const chunk of body) {
          bytes += chunk.byteLength;
          yield chunk;
        }
      } catch (err) {
        if (options.signal?.aborted) throw err;
        throw new CrawlNetworkError({
          message: `export of job ${id} broke off after ${bytes} bytes: ${errorMessage(err)}`,
          code: 'NETWORK_ERROR',
          cause: err,
          attempts: 1,
          method: 'GET',
          url,
        });
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /**
   * Downloads an export to `path`. Writes to a `.part` file first and renames it when the
   * download is complete, so `path` never holds a truncated export.
   */
  async exportToFile(id: string, format: ExportFormat, path: string, options: { signal?: AbortSignal } = {}): Promise<ExportToFileResult> {
    const stream = await this.export(id, format, options);
    const part = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.part`;
    try {
      await pipeline(stream, createWriteStream(part));
      await rename(part, path);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    return { path, bytes: (await stat(path)).size };
  }

  /**
   * A new job (credits reserved for its targets). Default: every target of a `failed` or
   * `cancelled` job. `targets: 'failed'`: only the targets of a finished job (completed ones
   * too) that failed or were cancelled; 409 INVALID_STATE when there are none. Without
   * `targets` no body is sent, as before.
   */
  async retry(id: string, options: IdempotencyOptions & { targets?: RetryTargets } = {}): Promise<Job> {
    const idempotencyKey = options.idempotencyKey ?? (this.options.autoIdempotency ? randomUUID() : undefined);
    const res = await this.transport.json<{ data: Job }>({
      method: 'POST',
      path: `/v1/key/jobs/${seg(id)}/retry`,
      ...(options.targets ? { body: { targets: options.targets } } : {}),
      idempotencyKey,
      retryable: idempotencyKey !== undefined,
    });
    return res.data;
  }

  /**
   * Deletes the results of a finished job (409 INVALID_STATE while queued or running). The job
   * stays, with `resultsPurgedAt`; its results and export answer 410 GONE from then on.
   * Idempotent, so retried like a GET.
   */
  async delete(id: string): Promise<Job> {
    const res = await this.transport.json<{ data: Job }>({ method: 'DELETE', path: `/v1/key/jobs/${seg(id)}`, retryable: true });
    return res.data;
  }

  /**
   * Cancels a queued or running job; targets not crawled yet are refunded. Cancelling is
   * idempotent in effect, so it is retried; when a retry finds the job already cancelled (our
   * first attempt went through but its answer was lost) that is success, not INVALID_STATE.
   */
  async cancel(id: string): Promise<Job> {
    try {
      const res = await this.transport.json<{ data: Job }>({ method: 'POST', path: `/v1/key/jobs/${seg(id)}/cancel`, retryable: true });
      return res.data;
    } catch (err) {
      if (err instanceof CrawlApiError && err.code === 'INVALID_STATE' && err.attempts > 1) {
        const job = await this.get(id);
        if (job.status === 'cancelled') return job;
      }
      throw err;
    }
  }

  /**
   * Polls the job until it is `completed`, `failed` or `cancelled` and returns it (a failed job
   * is a result, not an exception). Polls at once, then after each interval in turn.
   */
  async waitFor(id: string, options: WaitForOptions = {}): Promise<Job> {
    const intervals = options.intervalsMs ?? [2000, 5000, 10000];
    if (intervals.length === 0 || intervals.some((ms) => !(ms >= 0)))
      throw new TypeError('intervalsMs must be a non-empty list of non-negative numbers');
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    for (let poll = 0; ; poll++) {
      const job = await this.get(id, { signal: options.signal });
      options.onProgress?.(job);
      if (TERMINAL_STATUSES.includes(job.status)) return job;
      const left = deadline - Date.now();
      if (left <= 0) throw new CrawlWaitTimeoutError(`job ${id} is still ${job.status} after ${options.timeoutMs} ms`, job);
      await sleep(Math.min(intervals[Math.min(poll, intervals.length - 1)]!, left), options.signal);
    }
  }
}
