import { readdirSync, readFileSync } from 'node:fs';

/** Pages parsed per second on this thread, looping over `pages` for `seconds`. */
export function parseRate<P>(pages: P[], parse: (page: P) => unknown, seconds = 4): number {
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(seconds * 1e9);
  while (process.hrtime.bigint() < end) {
    parse(pages[n % pages.length]!);
    n += 1;
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** Approximate quantile from a Prometheus histogram (linear inside a bucket). */
export function histogramQuantile(text: string, metric: string, q: number): number {
  const buckets: [number, number][] = [];
  const byLe = new Map<number, number>();
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${metric}_bucket\\{[^}]*le="([^"]+)"[^}]*\\} (\\d+)`).exec(line);
    if (m) byLe.set(m[1] === '+Inf' ? Infinity : Number(m[1]), (byLe.get(m[1] === '+Inf' ? Infinity : Number(m[1])) ?? 0) + Number(m[2]));
  }
  for (const [le, count] of [...byLe].sort((a, b) => a[0] - b[0])) buckets.push([le, count]);
  const total = buckets.at(-1)?.[1] ?? 0;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return prevLe;
      return prevLe + ((le - prevLe) * (rank - prevCount)) / Math.max(1, count - prevCount);
    }
    prevLe = le;
    prevCount = count;
  }
  return prevLe;
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null once gone.
 * With `thread`, that thread's alone (/proc/<pid>/task/<tid>/stat): a process's main thread, its
 * event loop, has the process's pid as its tid.
 */
export function cpuSeconds(pid: number, thread?: number): number | null {
  try {
    // the command name (field 2) may contain spaces: count fields after its closing parenthesis
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** The value of a gauge or counter sample in Prometheus text, summed over its series. */
export function metricSum(text: string, metric: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${metric}(\\{[^}]*\\})? ([0-9.e+-]+)$`).exec(line);
    if (m) sum += Number(m[2]);
  }
  return sum;
}

/** CPU seconds of each thread of a process so far, by thread id; empty once gone. */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    const seconds = cpuSeconds(pid, Number(tid));
    if (seconds !== null) threads.set(Number(tid), seconds);
  }
  return threads;
}

/**
 * A process's CPU between two `threadCpuSeconds` readings, split into its main thread (the event
 * loop), its `busiest` busiest other threads (a crawl worker's parser threads) and the rest
 * (V8's GC helpers, libuv's pool).
 */
export function threadCpuSplit(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  busiest: number,
): { main: number; busiest: number; rest: number } {
  const used = [...after].map(([tid, s]) => [tid, s - (before.get(tid) ?? 0)] as const);
  const main = used.find(([tid]) => tid === pid)?.[1] ?? 0;
  const others = used
    .filter(([tid]) => tid !== pid)
    .map(([, s]) => s)
    .sort((a, b) => b - a);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { main, busiest: sum(others.slice(0, busiest)), rest: sum(others.slice(busiest)) };
}
