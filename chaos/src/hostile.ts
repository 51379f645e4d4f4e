/**
 * Hostile and careless tenants (docs/tenant-safety.md), run beside the ordinary load:
 * - an exporter that starts large downloads and walks away mid-stream, in a loop, on every
 *   gateway (each aborted download used to leak a Postgres connection for good);
 * - a submitter of crawl targets crafted to point the workers at another host (a canary
 *   server on this machine counts every request it gets: there must be none);
 * - a flooder with 50 concurrent jobs, against whom every other organization must still get
 *   its share of the crawl capacity.
 */
import { request } from 'node:http';
import { newId } from '@crawl/core';
import { type Db, sql } from '@crawl/db';
import { createTenant, type RecordingServer, startRecordingServer } from '@crawl/testing';
import type { ApiClient, Tenant } from './load';

export interface HostileTenants {
  exporter: Tenant;
  submitter: Tenant;
  flooder: Tenant;
  /** A completed job of the exporter with `exportRows` result rows (seeded, not crawled). */
  exportJobId: string;
  exportRows: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tenant indexes of the hostile tenants in API records (the ordinary ones are 0-4). */
const INDEX = { exporter: 100, submitter: 101, flooder: 102 } as const;

export async function createHostileTenants(db: Db, exportRows = 20_000): Promise<HostileTenants> {
  const make = async (name: keyof typeof INDEX): Promise<Tenant> => {
    const t = await createTenant(db, { plan: 'growth', credits: 10_000_000, name: `hostile ${name}` });
    return { index: INDEX[name], organizationId: t.organizationId, projectId: t.projectId, apiKey: t.apiKey };
  };
  const exporter = await make('exporter');
  const exportJobId = newId('job');
  // A completed job written directly: its size, not its crawl, is what the exporter needs. Its
  // rows carry a few fields only, like rows stored before the others existed: every format must
  // still export them (a 5xx answer fails the run: hostile-checks.ts).
  await sql`
    insert into job (id, project_id, organization_id, type, status, marketplace, targets, target_count, succeeded, results_count,
                     credits_reserved, credits_consumed, created_at, started_at, finished_at)
    values (${exportJobId}, ${exporter.projectId}, ${exporter.organizationId}, 'details', 'completed', 'US', ${JSON.stringify(['B0CHAOSEXP'])}::jsonb,
            1, 1, ${exportRows}, 2, 2, now(), now(), now())`.execute(db);
  await sql`
    insert into job_target (job_id, idx, target, status, attempts, finished_at)
    values (${exportJobId}, 0, 'B0CHAOSEXP', 'succeeded', 1, now())`.execute(db);
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${exportJobId}, 0, g + 1, jsonb_build_object('target', 'B0CHAOSEXP', 'asin', 'B0' || lpad(g::text, 8, '0'),
      'title', 'Chaos export item ' || g || ' ' || repeat('padding ', 20), 'price', jsonb_build_object('amount', g / 100.0, 'currency', 'USD'),
      'missingFields', '[]'::jsonb, 'parserVersion', 'chaos')
    from generate_series(0, ${exportRows - 1}) g`.execute(db);
  return { exporter, submitter: await make('submitter'), flooder: await make('flooder'), exportJobId, exportRows };
}

/** Counts every request it receives (a crawl worker must never reach it). */
export type Canary = RecordingServer;
export const startCanary = (): Promise<Canary> => startRecordingServer();

/** Targets that name the marketplace's host but lead elsewhere if a path were ever resolved. */
export function offMarketplaceTargets(port: number): string[] {
  const asin = 'B0DR8G428S';
  return [
    `https://www.amazon.com//127.0.0.1:${port}/x/dp/${asin}`,
    `https://www.amazon.com/\\127.0.0.1:${port}/x/dp/${asin}`,
    `https://www.amazon.com/%2F%2F127.0.0.1:${port}/dp/${asin}`,
    `https://www.amazon.com/%5C127.0.0.1:${port}/dp/${asin}`,
    `https://www.amazon.com@127.0.0.1:${port}/dp/${asin}`,
    `https://user:pw@www.amazon.com/dp/${asin}`,
    `https://www.amazon.com/dp/${asin}?next=http://127.0.0.1:${port}/`,
  ];
}

export interface HostileStats {
  exportsStarted: number;
  exportsAborted: number;
  exportsCapped: number;
  exportOther: Record<string, number>;
  offMarketJobs: string[];
  offMarketRefused: number;
  floodJobs: string[];
}

export class HostileLoad {
  readonly stats: HostileStats = {
    exportsStarted: 0,
    exportsAborted: 0,
    exportsCapped: 0,
    exportOther: {},
    offMarketJobs: [],
    offMarketRefused: 0,
    floodJobs: [],
  };
  private stopped = false;

  constructor(
    private readonly api: ApiClient,
    private readonly tenants: HostileTenants,
    private readonly canary: Canary,
    private readonly options: { abortLanes: number; floodJobs: number; floodTargets: number },
  ) {}

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<void> {
    await Promise.all([
      ...Array.from({ length: this.options.abortLanes }, (_, lane) => this.abortLoop(lane)),
      this.submitLoop(),
      this.flood(),
    ]);
  }

  /** Starts a download, reads a little, stops reading, and drops the connection a moment later. */
  private abortOnce(gatewayUrl: string): Promise<void> {
    const { exporter, exportJobId } = this.tenants;
    const format = ['json', 'csv', 'llm'][Math.floor(Math.random() * 3)]!;
    return new Promise<void>((resolve) => {
      const req = request(
        `${gatewayUrl}/v1/key/jobs/${exportJobId}/export?format=${format}`,
        { headers: { Authorization: `Bearer ${exporter.apiKey}` } },
        (res) => {
          if (res.statusCode !== 200) {
            if (res.statusCode === 429) this.stats.exportsCapped += 1;
            else this.stats.exportOther[String(res.statusCode)] = (this.stats.exportOther[String(res.statusCode)] ?? 0) + 1;
            res.resume();
            res.on('end', resolve);
            res.on('error', () => resolve());
            return;
          }
          this.stats.exportsStarted += 1;
          res.once('data', () => {
            res.pause();
            setTimeout(
              () => {
                req.destroy();
                this.stats.exportsAborted += 1;
                resolve();
              },
              200 + Math.random() * 1_500,
            );
          });
          res.on('error', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.setTimeout(20_000, () => req.destroy());
      req.end();
    });
  }

  private async abortLoop(lane: number): Promise<void> {
    while (!this.stopped) {
      await this.abortOnce(this.api.gateways[lane % this.api.gateways.length]!);
      await sleep(100 + Math.random() * 400);
    }
  }

  private async submitLoop(): Promise<void> {
    const targets = offMarketplaceTargets(this.canary.port);
    while (!this.stopped) {
      const picked = targets.filter(() => Math.random() < 0.5);
      const body = { type: 'details', targets: picked.length ? picked : [targets[0]!], config: { marketplace: 'US' } };
      const res = await this.api.call(
        this.tenants.submitter,
        'POST',
        'POST /projects/:id/jobs',
        `/v1/key/projects/${this.tenants.submitter.projectId}/jobs`,
        { body },
      );
      if (res.status === 202) this.stats.offMarketJobs.push(res.json.data.id as string);
      else if (res.status === 400) this.stats.offMarketRefused += 1;
      await sleep(1_500 + Math.random() * 1_000);
    }
  }

  /** 50 jobs at once, then cancels what is left when the load stops (the run must quiesce). */
  private async flood(): Promise<void> {
    const { flooder } = this.tenants;
    const created = await Promise.all(
      Array.from({ length: this.options.floodJobs }, (_, j) => {
        const targets = Array.from(
          { length: this.options.floodTargets },
          (_, i) => `B0FL${String(j).padStart(3, '0')}${String(i).padStart(3, '0')}`,
        );
        return this.api.call(flooder, 'POST', 'POST /projects/:id/jobs', `/v1/key/projects/${flooder.projectId}/jobs`, {
          body: { type: 'details', targets },
        });
      }),
    );
    this.stats.floodJobs.push(...created.filter((r) => r.status === 202).map((r) => r.json.data.id as string));
    while (!this.stopped) await sleep(250);
    for (const id of this.stats.floodJobs) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const res = await this.api.call(flooder, 'POST', 'POST /jobs/:id/cancel', `/v1/key/jobs/${id}/cancel`, { body: {} });
        if (res.status === 200 || res.status === 409) break;
        await sleep(500);
      }
    }
  }
}
