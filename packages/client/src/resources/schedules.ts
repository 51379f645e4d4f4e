import { CrawlApiError } from '../errors';
import { paginate, seg } from '../pagination';
import type { Transport } from '../transport';
import type { CreateScheduleBody, Page, PageQuery, Schedule, UpdateScheduleBody } from '../types';

/** Schedules: recurring crawls (cron in UTC). */
export class SchedulesResource {
  constructor(private readonly transport: Transport) {}

  /** 201 with the schedule. Not retried automatically: the API has no idempotency key for it. */
  async create(projectId: string, body: CreateScheduleBody): Promise<Schedule> {
    const res = await this.transport.json<{ data: Schedule }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/schedules`,
      body,
      retryable: false,
    });
    return res.data;
  }

  list(projectId: string, query: PageQuery = {}): Promise<Page<Schedule>> {
    return this.transport.json<Page<Schedule>>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/schedules`,
      query: { ...query },
      retryable: true,
    });
  }

  /** Every schedule of the project (`pageSize` 1..100, default 100). */
  iterate(projectId: string, options: { pageSize?: number } = {}): AsyncGenerator<Schedule, void, undefined> {
    return paginate((limit, offset) => this.list(projectId, { limit, offset }), options.pageSize ?? 100);
  }

  async get(id: string): Promise<Schedule> {
    const res = await this.transport.json<{ data: Schedule }>({ method: 'GET', path: `/v1/key/schedules/${seg(id)}`, retryable: true });
    return res.data;
  }

  /** Any of `enabled`, `cron`, `crawlConfig`. A new cron, or enabling, recomputes `nextRunAt` from now. */
  async update(id: string, body: UpdateScheduleBody): Promise<Schedule> {
    const res = await this.transport.json<{ data: Schedule }>({
      method: 'PATCH',
      path: `/v1/key/schedules/${seg(id)}`,
      body,
      retryable: true,
    });
    return res.data;
  }

  /**
   * Deletes the schedule (jobs it created stay). When a retried DELETE finds nothing, an
   * earlier attempt deleted it (its answer was lost): that is success.
   */
  async delete(id: string): Promise<void> {
    try {
      await this.transport.json<void>({ method: 'DELETE', path: `/v1/key/schedules/${seg(id)}`, retryable: true });
    } catch (err) {
      if (err instanceof CrawlApiError && err.code === 'NOT_FOUND' && err.attempts > 1) return;
      throw err;
    }
  }
}
