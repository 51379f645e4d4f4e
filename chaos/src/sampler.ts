/**
 * Periodic figures: RSS of every process (each incarnation its own series, every second) for
 * the memory check, and in soak mode RSS per logical process plus queue depths every 5 s,
 * appended to a CSV as they are taken.
 */
import fs from 'node:fs';
import IORedis from 'ioredis';
import { readRss } from '@crawl/testing';

export interface RssSeries {
  name: string;
  incarnation: number;
  pid: number;
  samples: number[];
}

export interface SampledProcess {
  name: string;
  incarnation: number;
  pid: number | undefined;
}

export class RssSampler {
  readonly series: RssSeries[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly targets: () => SampledProcess[]) {}

  start(intervalMs = 1_000): void {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private sample(): void {
    for (const t of this.targets()) {
      if (!t.pid) continue;
      const rss = readRss(t.pid);
      if (rss === null) continue;
      let s = this.series.find((x) => x.name === t.name && x.pid === t.pid);
      if (!s) {
        s = { name: t.name, incarnation: t.incarnation, pid: t.pid, samples: [] };
        this.series.push(s);
      }
      s.samples.push(rss);
    }
  }
}

/** BullMQ keys of the two queues: lists are LLEN, sorted sets ZCARD. */
export const QUEUE_SERIES: { label: string; suffix: string; kind: 'list' | 'zset' }[] = [
  { label: 'crawl wait', suffix: 'crawl:wait', kind: 'list' },
  { label: 'crawl prioritized', suffix: 'crawl:prioritized', kind: 'zset' },
  { label: 'crawl delayed', suffix: 'crawl:delayed', kind: 'zset' },
  { label: 'crawl active', suffix: 'crawl:active', kind: 'list' },
  { label: 'webhook wait', suffix: 'webhook:wait', kind: 'list' },
  { label: 'webhook delayed', suffix: 'webhook:delayed', kind: 'zset' },
  { label: 'webhook active', suffix: 'webhook:active', kind: 'list' },
];

export const PALETTE = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#42d4f4',
  '#f032e6',
  '#9a6324',
  '#800000',
  '#808000',
  '#000075',
  '#469990',
  '#bfef45',
  '#fabed4',
  '#ffe119',
  '#a9a9a9',
  '#dcbeff',
  '#aaffc3',
  '#000000',
];

export interface SoakTable {
  rssNames: string[];
  queueLabels: string[];
  rows: { t: number; rss: (number | null)[]; queues: (number | null)[] }[];
}

export class SoakSampler {
  readonly table: SoakTable;
  private timer: NodeJS.Timeout | null = null;
  private readonly redis: IORedis;
  private readonly t0 = Date.now();
  private busy = false;

  constructor(
    private readonly csvPath: string,
    private readonly logical: () => { name: string; pid: number | undefined }[],
    redisUrl: string,
    private readonly prefix: string,
  ) {
    this.redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 1_000, lazyConnect: false });
    this.redis.on('error', () => undefined);
    const rssNames = this.logical().map((p) => p.name);
    this.table = { rssNames, queueLabels: QUEUE_SERIES.map((q) => q.label), rows: [] };
    const header = [
      't_s',
      ...rssNames.map((n, i) => `rss_MB ${n} (${PALETTE[i % PALETTE.length]})`),
      ...QUEUE_SERIES.map((q, i) => `queue ${q.label} (${PALETTE[i % PALETTE.length]})`),
    ];
    fs.writeFileSync(csvPath, `${header.join(',')}\n`);
  }

  start(intervalMs = 5_000): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.redis.disconnect();
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const t = Math.round((Date.now() - this.t0) / 1000);
      const procs = this.logical();
      const rss = this.table.rssNames.map((n) => {
        const pid = procs.find((p) => p.name === n)?.pid;
        const bytes = pid ? readRss(pid) : null;
        return bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;
      });
      let queues: (number | null)[];
      try {
        const pipe = this.redis.pipeline();
        for (const q of QUEUE_SERIES) {
          const key = `${this.prefix}:${q.suffix}`;
          if (q.kind === 'list') pipe.llen(key);
          else pipe.zcard(key);
        }
        const res = (await pipe.exec()) ?? [];
        queues = res.map(([err, v]) => (err ? null : Number(v)));
      } catch {
        queues = QUEUE_SERIES.map(() => null);
      }
      this.table.rows.push({ t, rss, queues });
      fs.appendFileSync(this.csvPath, `${[t, ...rss.map((v) => v ?? ''), ...queues.map((v) => v ?? '')].join(',')}\n`);
    } finally {
      this.busy = false;
    }
  }
}
