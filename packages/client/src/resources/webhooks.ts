import { seg } from '../pagination';
import type { Transport } from '../transport';
import type { EventName, WebhookConfig, WebhookConfigInput, Webhooks, WebhookTestResult } from '../types';

/** Spec 4.5: webhook configurations of a project, their delivery log, test deliveries. */
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
}

/** The fields the API accepts, in a config that may be a `WebhookConfig` read back from `get`. */
function toInput(config: WebhookConfigInput): WebhookConfigInput {
  const { id, name, url, triggerAction, enabled, secret } = config;
  return Object.fromEntries(Object.entries({ id, name, url, triggerAction, enabled, secret }).filter(([, v]) => v !== undefined)) as unknown as WebhookConfigInput;
}
