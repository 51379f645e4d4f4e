/**
 * Page parsing off the event loop. cheerio takes 20-200 ms on a 0.5-2 MB Amazon page and even
 * detectPageKind's string probes take 30-50 ms on a 3 MB page without markers; on the crawl
 * worker's event loop that time delays every fetch, timer and BullMQ lock renewal. The pool
 * runs the same functions (./parse-worker) in worker threads, so the loop only pays for
 * handing the page's bytes to a thread (transferred, not copied) and the small result back. A
 * page given as a string is structured-cloned instead, on the loop: 150-400 ms for 30 MB of text
 * on this VM, which is why the crawler sends bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import type { PageKind } from './parsers';
import { TurnQueue } from './turn-queue';
import runParseTask, { type PageBody, type ParsedPage, type ParseRequest, type ParseTask } from './parse-worker';

export type { PageBody, ParsedPage, ParseRequest } from './parse-worker';

export interface ParsePoolOptions {
  /**
   * Worker threads; default the cores but one (at least 1). 0 parses inline on the calling thread
   * (blocking it): for tests and to measure the one-core ceiling.
   */
  threads?: number;
  /**
   * Parses handed to the threads beyond those running; default threads * 2, enough that a
   * thread finishing a page has the next one at hand. Further parse() calls wait for a slot
   * instead of failing (under a burst the crawl jobs slow down rather than end in errors),
   * taken by tenant in turn: when the threads are the bottleneck, a tenant's first page waits
   * behind at most one page of each other tenant, not behind another tenant's backlog. Every
   * waiting caller is a crawl task holding its own body anyway: the memory bound is the crawl
   * concurrency, not this queue.
   */
  maxQueue?: number;
  /**
   * Old-generation heap of each thread, in MB (worker resourceLimits); default 256. A parse needs
   * about 20x the page's size (a 13 MB page parses within 192 MB) and the crawler accepts bodies
   * up to 12 MB, so no page it fetches reaches the cap. What the cap changes is how V8 sizes the
   * heap: without one a thread keeps ~300 MB of dead DOMs between collections, with it ~150 MB,
   * at the same speed (measured on the fixture pages). A thread that still runs out of memory ends
   * with ERR_WORKER_OUT_OF_MEMORY: that parse rejects and the pool starts a new thread (tested).
   */
  maxHeapMb?: number;
  /**
   * Young-generation heap of each thread, in MB (worker resourceLimits); default 64. A parse
   * allocates megabytes that die with it (the page tree, its strings): with V8's default young
   * generation a page's tree outlives a collection, is copied and promoted, and the old
   * generation's collector then marks it again on V8's helper threads. Measured on a 1.5 MB
   * product page in a thread, over all threads: 30-36 CPU-ms per page by default, 26-28 with 64,
   * 23-25 with 128. 64 costs about 40 MB more resident memory per thread, 128 about 95 MB, which
   * takes a worker past the concurrency controller's default budget (CRAWL_MEMORY_BUDGET_MB):
   * it then holds fewer pages in flight and its parser thread waits (docs/parsing.md "Garbage").
   */
  maxYoungMb?: number;
}

/** For gauges: read on each scrape. */
export interface ParsePoolStats {
  /** Live worker threads (0 inline or after destroy). */
  threads: number;
  /** Accepted parses waiting for a free thread. */
  queued: number;
  /** parse() calls held back because the queue is full (backpressure). */
  waiting: number;
  /** Parses that resolved. */
  completed: number;
  /** Parses that rejected (parser exception, thread death, destroy). */
  failed: number;
  /**
   * Share of the threads' time spent parsing since the pool started, 0..1 (piscina's estimate:
   * mean task run time x tasks run / (uptime x threads)); 0 inline. Near 1 under load means
   * crawling is bound by parsing, not by waiting for pages.
   */
  utilization: number;
}

export interface ParsePool {
  /**
   * detectPageKind(html) === 'captcha' first, then the parser of req.type, on a pool thread.
   * Rejects when the parser throws or its thread dies (the crawler's PARSE_ERROR); the pool
   * keeps working either way.
   */
  parse(req: ParseRequest, tenant?: string): Promise<ParsedPage>;
  /** detectPageKind on a pool thread: for bodies that are only checked, e.g. 5xx answers. */
  pageKind(html: PageBody): Promise<PageKind>;
  stats(): ParsePoolStats;
  /** Rejects queued and waiting parses, terminates the threads; later calls reject. */
  destroy(): Promise<void>;
}

/**
 * V8 options for the command line of a process that parses pages in a pool: the crawl worker's
 * (infra/base/worker.yaml, docker-compose.yml; e2e/src/infra.repo.test.ts holds them to this list).
 * V8 reads them only at start: set later (v8.setFlagsFromString), they crash the process.
 *
 * `--single-threaded-gc`: each isolate collects its own garbage, on its own thread. By default
 * V8's helper threads mark, sweep and scavenge alongside, and for a parser thread, whose garbage
 * is a whole page tree per page, that help costs more CPU than it saves (figures in
 * docs/parsing.md "Garbage").
 */
export const PARSE_PROCESS_NODE_FLAGS: readonly string[] = ['--single-threaded-gc'];

const DEFAULT_QUEUE_PER_THREAD = 2;
const DEFAULT_THREAD_HEAP_MB = 256;
const DEFAULT_THREAD_YOUNG_MB = 64;

/**
 * The compiled worker file. Threads load plain JS: in production it sits next to this file in
 * dist; under jest this module is src/*.ts (swc) and the threads use the last `pnpm build`.
 */
export function parseWorkerFile(): string {
  const file = __filename.endsWith('.ts') ? path.resolve(__dirname, '../dist/parse-worker.js') : path.join(__dirname, 'parse-worker.js');
  if (!fs.existsSync(file)) throw new Error(`parse worker ${file} is missing: run pnpm build`);
  return file;
}

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  // one core stays with the event loop (fetches, queue locks, GC): parsing uses the others
  const threads = options.threads ?? Math.max(1, os.availableParallelism() - 1);
  if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threads must be a non-negative integer, got ${threads}`);
  return threads === 0 ? inlinePool() : createThreadParsePool(threads, options, parseWorkerFile());
}

function inlinePool(): ParsePool {
  let completed = 0;
  let failed = 0;
  let destroyed = false;
  const run = async <R>(task: ParseTask): Promise<R> => {
    if (destroyed) throw new Error('parse pool destroyed');
    try {
      const result = runParseTask(task) as R;
      completed++;
      return result;
    } catch (err) {
      failed++;
      throw err;
    }
  };
  return {
    parse: (req) => run<ParsedPage>({ op: 'parse', req }),
    pageKind: (html) => run<PageKind>({ op: 'pageKind', html }),
    stats: () => ({ threads: 0, queued: 0, waiting: 0, completed, failed, utilization: 0 }),
    destroy: async () => {
      destroyed = true;
    },
  };
}

/**
 * The ArrayBuffer to transfer with a body: its own when the view covers all of it, else a copy
 * (a small Buffer may be a slice of Node's shared pool, which must not be detached).
 */
function ownedBuffer(bytes: Uint8Array, task: ParseTask): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new Uint8Array(bytes);
  if (task.op === 'parse') task.req.html = copy;
  else task.html = copy;
  return copy.buffer;
}

/**
 * A pool whose threads run `workerFile` (same contract as ./parse-worker). Not exported from the
 * package: tests use it to run a worker that dies on demand.
 */
export function createThreadParsePool(threads: number, options: ParsePoolOptions, workerFile: string): ParsePool {
  const maxQueue = options.maxQueue ?? threads * DEFAULT_QUEUE_PER_THREAD;
  if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new RangeError(`maxQueue must be a non-negative integer, got ${maxQueue}`);
  const piscina = new Piscina<ParseTask, ParsedPage | PageKind>({
    filename: workerFile,
    minThreads: threads,
    maxThreads: threads,
    resourceLimits: {
      maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_THREAD_HEAP_MB,
      maxYoungGenerationSizeMb: options.maxYoungMb ?? DEFAULT_THREAD_YOUNG_MB,
    },
    // Our own gate below keeps piscina's queue within maxQueue; piscina's limit would reject
    // instead of waiting (and would fire while a dead thread is being replaced).
    maxQueue: Infinity,
  });
  const capacity = threads + maxQueue;
  const waiters = new TurnQueue<{ resolve: () => void; reject: (err: Error) => void }>();
  let inFlight = 0;
  let completed = 0;
  let failed = 0;
  let destroyed = false;

  const acquire = (tenant: string): Promise<void> | undefined => {
    if (inFlight < capacity) {
      inFlight++;
      return undefined;
    }
    return new Promise((resolve, reject) => waiters.push(tenant, { resolve, reject }));
  };
  const release = (): void => {
    const next = waiters.shift();
    if (next)
      next.resolve(); // the slot passes to the next caller: inFlight is unchanged
    else inFlight--;
  };
  const run = async <R>(task: ParseTask, tenant = ''): Promise<R> => {
    if (destroyed) throw new Error('parse pool destroyed');
    await acquire(tenant);
    try {
      // destroy() may have run while this call waited: piscina would queue the task on a pool
      // with no threads left, and it would never settle.
      if (destroyed) throw new Error('parse pool destroyed');
      // bytes move to the thread (transferred, not copied) and leave this thread's memory at once
      const bytes = task.op === 'parse' ? task.req.html : task.html;
      const transferList = bytes instanceof Uint8Array ? [ownedBuffer(bytes, task)] : undefined;
      const result = (await piscina.run(task, transferList ? { transferList } : {})) as R;
      completed++;
      return result;
    } catch (err) {
      failed++;
      throw err;
    } finally {
      release();
    }
  };

  return {
    parse: (req, tenant) => run<ParsedPage>({ op: 'parse', req }, tenant),
    pageKind: (html) => run<PageKind>({ op: 'pageKind', html }),
    stats: () => ({
      threads: piscina.threads.length,
      queued: piscina.queueSize,
      waiting: waiters.size,
      completed,
      failed,
      utilization: piscina.utilization,
    }),
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      for (const waiter of waiters.drain()) waiter.reject(new Error('parse pool destroyed'));
      await piscina.destroy();
    },
  };
}
