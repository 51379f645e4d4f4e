import { randomUUID } from 'node:crypto';
import { paginate, seg } from '../pagination';
import type { Transport } from '../transport';
import type {
  EventName,
  ListDeliveriesQuery,
  Page,
  ReplayWebhooksBody,
  WebhookConfig,
  WebhookConfigInput,
  WebhookDelivery,
  WebhookReplayResult,
  Webhooks,
  WebhookTestResult,
} from '../types';

/** Webhook configurations of a project, their delivery log, test deliveries. */
export class WebhooksResource {
  constructor(private readonly transport: Transport) {}

  /** Configurations (secrets included) and the newest `logLimit` delivery attempts (1..500, default 50). */
  async get(projectId: string, options: { logLimit?: number } = {}): Promise<Webhooks> {
    const res = await this.transport.json<{ data: Webhooks }>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/webhooks`,
      query: { limit: options.logLimit },
      retryable: true,
    });
    return res.data;
  }

  /**
   * Replaces ALL configurations of the project atomically (at most 20) and returns the result.
   * A config without `id` is created, one with an `id` kept, the others deleted. A config sent
   * without `secret` gets a new generated secret, even when it keeps its id: send the current
   * secret back to keep it. Configs read from `get` can be passed back as they are: only the
   * input fields are sent (the API refuses `createdAt`/`updatedAt`).
   */
  async replace(projectId: string, configs: WebhookConfigInput[]): Promise<WebhookConfig[]> {
    const res = await this.transport.json<{ data: { configs: WebhookConfig[] } }>({
      method: 'PATCH',
      path: `/v1/key/projects/${seg(projectId)}/webhooks`,
      body: { configs: configs.map(toInput) },
      retryable: true,
    });
    return res.data.configs;
  }

  /** One signed delivery of a sample event (`"test": true`). A failed delivery is `success: false`, not an error. */
  async test(projectId: string, webhookId: string, triggerAction?: EventName): Promise<WebhookTestResult> {
    const res = await this.transport.json<{ data: WebhookTestResult }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/webhooks/test`,
      body: triggerAction === undefined ? { webhookId } : { webhookId, triggerAction },
      retryable: false,
    });
    return res.data;
  }

  /** One page of deliveries, newest first, each with its last attempts (filters: status, event, webhookId, from, to). */
  deliveries(projectId: string, query: ListDeliveriesQuery = {}): Promise<Page<WebhookDelivery>> {
    return this.transport.json<Page<WebhookDelivery>>({
      method: 'GET',
      path: `/v1/key/projects/${seg(projectId)}/webhooks/deliveries`,
      query: { ...query },
      retryable: true,
    });
  }

  /** Every delivery matching `query`, page by page (`query.limit` is the page size, default 100). */
  iterateDeliveries(projectId: string, query: ListDeliveriesQuery = {}): AsyncGenerator<WebhookDelivery, void, undefined> {
    const { limit = 100, offset = 0, ...filter } = query;
    return paginate((l, o) => this.deliveries(projectId, { ...filter, limit: l, offset: o }), limit, offset);
  }

  /**
   * One more attempt of a delivered or failed delivery: same id and body, signed anew. Answers
   * the delivery, pending. 409 INVALID_STATE while it is pending or its webhook is disabled.
   * Not retried automatically: a repeat of a resend that went through is that 409.
   */
  async resend(projectId: string, deliveryId: string): Promise<WebhookDelivery> {
    const res = await this.transport.json<{ data: WebhookDelivery }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/webhooks/deliveries/${seg(deliveryId)}/resend`,
      retryable: false,
    });
    return res.data;
  }

  /**
   * One more attempt of each failed delivery created in [from, to) (at most `limit`, 1,000, per
   * call). Safe to repeat: re-armed deliveries are pending, so a repeat never sends one twice;
   * with the same idempotency key it answers the first call's result. A delivery gets 5 manual
   * attempts at most and is skipped for a minute after being re-armed. Throws `INVALID_STATE`
   * (409) while another replay of the project runs, and `RATE_LIMITED` (429, with
   * `retryAfterSeconds`) once the project's hourly replay budget is spent: a short wait is
   * retried, a wait over a minute is left to the caller.
   */
  async replay(projectId: string, body: ReplayWebhooksBody, options: { idempotencyKey?: string } = {}): Promise<WebhookReplayResult> {
    const res = await this.transport.json<{ data: WebhookReplayResult }>({
      method: 'POST',
      path: `/v1/key/projects/${seg(projectId)}/webhooks/replay`,
      body,
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      retryable: true,
      maxRetryAfterSeconds: 60,
    });
    return res.data;
  }

  /**
   * Replays every failed delivery of the range, call after call while `hasMore`; returns the ids
   * re-armed. Ends when nothing more can be replayed now; throws what `replay` throws (a spent
   * hourly budget: `RATE_LIMITED` with `retryAfterSeconds`).
   */
  async replayAll(projectId: string, body: ReplayWebhooksBody): Promise<string[]> {
    const ids: string[] = [];
    for (;;) {
      const page = await this.replay(projectId, body);
      ids.push(...page.deliveryIds);
      if (!page.hasMore || page.replayed === 0) return ids;
    }
  }
}

/** The fields the API accepts, in a config that may be a `WebhookConfig` read back from `get`. */
function toInput(config: WebhookConfigInput): WebhookConfigInput {
  const { id, name, url, triggerAction, enabled, secret } = config;
  return Object.fromEntries(
    Object.entries({ id, name, url, triggerAction, enabled, secret }).filter(([, v]) => v !== undefined),
  ) as unknown as WebhookConfigInput;
}
