import { JobsResource } from './resources/jobs';
import { SchedulesResource } from './resources/schedules';
import { TrackedTargetsResource } from './resources/tracked-targets';
import { WebhooksResource } from './resources/webhooks';
import { seg } from './pagination';
import { type ConnectionOptions, openTransport } from './connection';
import type { Transport } from './transport';
import type { Analytics, AnalyticsQuery, Comparison, KeyIdentity, Pagination, Usage, UsageQuery } from './types';

export interface CrawlClientOptions extends ConnectionOptions {
  /** A project API key (`cds_…`). Each key belongs to one project. */
  apiKey: string;
  /**
   * Give every `jobs.create` and `jobs.retry` call without an explicit key a random
   * Idempotency-Key, so that they are retried safely on 429, 503 and network errors like any
   * idempotent call. Default false: those POSTs are then never retried (a lost answer could
   * mean a job was created and charged).
   */
  autoIdempotency?: boolean;
}

/** Typed client of the crawl data service API (`/v1/key`). */
export class CrawlClient {
  readonly jobs: JobsResource;
  readonly schedules: SchedulesResource;
  readonly webhooks: WebhooksResource;
  readonly trackedTargets: TrackedTargetsResource;
  private readonly transport: Transport;

  constructor(options: CrawlClientOptions) {
    if (!options || typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('CrawlClient needs an apiKey');
    const apiKey = options.apiKey;
    this.transport = openTransport(options, () => ({ Authorization: `Bearer ${apiKey}` }));
    this.jobs = new JobsResource(this.transport, { autoIdempotency: options.autoIdempotency === true });
    this.schedules = new SchedulesResource(this.transport);
    this.webhooks = new WebhooksResource(this.transport);
    this.trackedTargets = new TrackedTargetsResource(this.transport);
  }

  /** The calling key: its id, label and scope, its project, organization and owner. */
  async me(): Promise<KeyIdentity> {
    const res = await this.transport.json<{ data: KeyIdentity }>({ method: 'GET', path: '/v1/key/me', retryable: true });
    return res.data;
  }

  /** Monitored-field differences between two jobs' result sets (plus position moves for search vs search). */
  async compare(projectId: string, from: string, to: string): Promise<Comparison> {
    const res = await this.transport.json<{ data: Comparison }>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/compare`,
      query: { from, to },
      retryable: true,
    });
    return res.data;
  }

  /**
   * The organization's balance, plan and rate limit, the project's credit totals over a range
   * (default: the last 30 days) and one page of its ledger (`pagination` pages `data.ledger`).
   */
  async usage(projectId: string, query: UsageQuery = {}): Promise<{ data: Usage; pagination: Pagination }> {
    return this.transport.json<{ data: Usage; pagination: Pagination }>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/usage`,
      query: { from: query.from, to: query.to, limit: query.limit, offset: query.offset },
      retryable: true,
    });
  }

  /** Project analytics over a range of at most 366 days (default: the last 30 days). */
  async analytics(projectId: string, query: AnalyticsQuery = {}): Promise<Analytics> {
    const res = await this.transport.json<{ data: Analytics }>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/analytics`,
      query: { from: query.from, to: query.to },
      retryable: true,
    });
    return res.data;
  }
}
