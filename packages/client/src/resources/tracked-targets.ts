import { paginate, seg } from '../pagination';
import type { Transport } from '../transport';
import type { ListTrackedTargetsQuery, Page, Timeline, TrackedTarget } from '../types';

/** Tracked targets: products the project's crawls have seen, with their change history. */
export class TrackedTargetsResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string, query: ListTrackedTargetsQuery = {}): Promise<Page<TrackedTarget>> {
    return this.transport.json<Page<TrackedTarget>>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/tracked-targets`,
      query: { ...query },
      retryable: true,
    });
  }

  /** Every tracked target matching `query` (`query.limit` is the page size, default 100). */
  iterate(projectId: string, query: ListTrackedTargetsQuery = {}): AsyncGenerator<TrackedTarget, void, undefined> {
    const { limit = 100, offset = 0, ...filter } = query;
    return paginate((l, o) => this.list(projectId, { ...filter, limit: l, offset: o }), limit, offset);
  }

  /** Snapshots of one product, newest first, each with its changes (404 if never crawled). */
  timeline(projectId: string, asin: string, options: { marketplace: string; limit?: number }): Promise<Timeline> {
    return this.transport.json<Timeline>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/tracked-targets/${seg(asin)}/timeline`,
      query: { marketplace: options.marketplace, limit: options.limit },
      retryable: true,
    });
  }
}
