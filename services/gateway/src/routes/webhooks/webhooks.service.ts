import {
  AppError,
  type EventType,
  type WebhookConfigResource,
  type WebhookLogEntryResource,
  type WebhookTestResultResource,
  generateWebhookSecret,
  newId,
  SecretBox,
  webhookDeliveryBody,
  webhookSecretRotation,
} from '@crawl/core';
import {
  type AuditLogRepository,
  type WebhookAttemptRow,
  WebhookConfigRepository,
  type WebhookConfigRow,
  WebhookDeliveryRepository,
} from '@crawl/db';
import { checkWebhookUrl, deliverWebhook } from '@crawl/webhook-delivery';
import type { z } from 'zod';
import type { GatewayContext } from '../../context';
import { type ProjectActor, recordProjectChange } from '../project-audit';
import { sampleEventData } from './sample-events';
import { MAX_WEBHOOKS, type patchWebhooksBody } from './webhooks.schemas';

export interface WebhookServiceDeps {
  configs: WebhookConfigRepository;
  deliveries: WebhookDeliveryRepository;
  secrets: SecretBox;
  allowPrivateUrls: boolean;
  timeoutMs: number;
  /** WEBHOOK_SECRET_ROTATION_GRACE_MS: how long a replaced secret keeps signing too. */
  rotationGraceMs: number;
  audit: AuditLogRepository;
}

export function toWebhookResource(row: WebhookConfigRow, secrets: SecretBox): WebhookConfigResource {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    triggerAction: row.trigger_action,
    enabled: row.enabled,
    secret: secrets.decrypt(row.secret_encrypted),
    previousSecretExpiresAt:
      row.previous_secret_encrypted && row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
        ? row.previous_secret_expires_at.toISOString()
        : null,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toLogResource(row: WebhookAttemptRow): WebhookLogEntryResource {
  return {
    deliveryId: row.delivery_id,
    webhookId: row.webhook_id,
    event: row.event_type,
    attempt: row.attempt,
    success: row.success,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    responseBody: row.response_body,
    test: row.test,
    manual: row.manual,
    createdAt: row.created_at.toISOString(),
  };
}

/** A URL's origin only: its path or query may carry a token of the receiver. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
};

/**
 * What a PATCH changed, for the audit log: each configuration's id, URL origin, event and whether
 * a new signing secret is in force (always for an added one); never a secret, path or query.
 */
function webhookChanges(before: WebhookConfigRow[], rows: WebhookConfigRow[], secrets: SecretBox): Record<string, unknown> {
  const previous = new Map(before.map((r) => [r.id, r]));
  const kept = new Set(rows.map((r) => r.id));
  const configs = rows.map((row) => {
    const summary = { id: row.id, origin: originOf(row.url), event: row.trigger_action, enabled: row.enabled };
    const old = previous.get(row.id);
    if (!old) return { ...summary, change: 'added', secretChanged: true };
    const secretChanged = secrets.decrypt(old.secret_encrypted) !== secrets.decrypt(row.secret_encrypted);
    const fields = [
      ...(old.url !== row.url ? ['url'] : []),
      ...(old.trigger_action !== row.trigger_action ? ['event'] : []),
      ...(old.enabled !== row.enabled ? ['enabled'] : []),
      ...(old.name !== row.name ? ['name'] : []),
      ...(secretChanged ? ['secret'] : []),
    ];
    const moved = originOf(old.url) !== summary.origin ? { previousOrigin: originOf(old.url) } : {};
    return fields.length
      ? { ...summary, change: 'changed', fields, ...moved, secretChanged }
      : { ...summary, change: 'unchanged', secretChanged };
  });
  const removed = before.filter((r) => !kept.has(r.id)).map((r) => ({ id: r.id, origin: originOf(r.url), event: r.trigger_action }));
  return { configs, removed };
}

/** Webhook configuration and test deliveries. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async get(projectId: string, logLimit: number) {
    const [configs, logs] = await Promise.all([
      this.deps.configs.list(projectId),
      this.deps.deliveries.recentAttempts(projectId, logLimit),
    ]);
    return { configs: configs.map((c) => toWebhookResource(c, this.deps.secrets)), logs: logs.map(toLogResource) };
  }

  /**
   * Replaces all configurations. Every URL must resolve to public addresses (SSRF guard; the
   * deliverer checks again at connection time). A config without `secret` or with "" gets a
   * new generated secret, also when it keeps its id (docs/events-and-webhooks.md). A kept id whose secret
   * changes starts a rotation: the previous secret signs too (a second v1=) during the grace.
   * The change is recorded in the audit log in its transaction (`webhooks.changed`).
   */
  async replace(actor: ProjectActor, body: z.output<typeof patchWebhooksBody>) {
    const { projectId } = actor;
    const checks = await Promise.all(body.configs.map((c) => checkWebhookUrl(c.url, { allowPrivate: this.deps.allowPrivateUrls })));
    const issues = checks.flatMap((check, i) => (check.ok ? [] : [{ path: `body.configs.${i}.url`, message: check.reason }]));
    if (issues.length) throw new AppError('VALIDATION_ERROR', `Invalid webhook URL: ${issues[0]!.message}.`, { details: issues });
    const result = await this.deps.configs.replaceAll(
      projectId,
      body.configs.map((c) => {
        const secret = c.secret ? c.secret : generateWebhookSecret();
        return {
          id: c.id,
          name: c.name ?? null,
          url: c.url,
          triggerAction: c.triggerAction,
          enabled: c.enabled,
          secretEncrypted: this.deps.secrets.encrypt(secret),
          sameSecretAs: (stored: string) => this.deps.secrets.decrypt(stored) === secret,
        };
      }),
      MAX_WEBHOOKS,
      {
        rotation: webhookSecretRotation(this.deps.rotationGraceMs),
        beforeCommit: (trx, { before, rows }) =>
          recordProjectChange(
            this.deps.audit,
            trx,
            actor,
            'webhooks.changed',
            { type: 'project', id: projectId },
            webhookChanges(before, rows, this.deps.secrets),
          ),
      },
    );
    if ('unknownIds' in result) {
      const details = body.configs.flatMap((c, i) =>
        c.id && result.unknownIds.includes(c.id)
          ? [{ path: `body.configs.${i}.id`, message: 'no configuration with this id in the project' }]
          : [],
      );
      throw new AppError('VALIDATION_ERROR', 'Unknown webhook configuration id.', { details });
    }
    if ('tooMany' in result) {
      throw new AppError('VALIDATION_ERROR', `At most ${MAX_WEBHOOKS} webhook configurations per project.`, {
        details: [{ path: 'body.configs', message: `at most ${MAX_WEBHOOKS} configurations per project` }],
      });
    }
    return result.rows.map((r) => toWebhookResource(r, this.deps.secrets));
  }

  /** One synchronous, signed delivery of a sample event; a failed delivery is a result, not an error. */
  async test(projectId: string, webhookId: string, triggerAction?: EventType) {
    const config = await this.deps.configs.find(projectId, webhookId);
    if (!config) throw new AppError('NOT_FOUND', `Webhook ${webhookId} not found.`);
    const event = triggerAction ?? (config.trigger_action as EventType);
    const deliveryId = newId('dlv');
    const body = webhookDeliveryBody({
      id: deliveryId,
      event,
      createdAt: new Date(),
      projectId,
      data: sampleEventData(event, projectId),
      test: true,
    });
    const result = await deliverWebhook({
      url: config.url,
      secret: this.deps.secrets.decrypt(config.secret_encrypted),
      previousSecret:
        config.previous_secret_encrypted && config.previous_secret_expires_at && config.previous_secret_expires_at > new Date()
          ? this.deps.secrets.decrypt(config.previous_secret_encrypted)
          : null,
      body,
      event,
      deliveryId,
      webhookId: config.id,
      timeoutMs: this.deps.timeoutMs,
      allowPrivate: this.deps.allowPrivateUrls,
    });
    await this.deps.deliveries.logAttempt({
      deliveryId,
      webhookId: config.id,
      projectId,
      eventType: event,
      number: 1,
      success: result.success,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      responseBody: result.responseBodySnippet,
      test: true,
    });
    return {
      success: result.success,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      deliveryId,
      event,
    } satisfies WebhookTestResultResource;
  }
}

/** The webhook configurations' service, built from the gateway's shared infrastructure and settings. */
export const createWebhookService = (ctx: Pick<GatewayContext, 'db' | 'accounts' | 'settings'>): WebhookService =>
  new WebhookService({
    configs: new WebhookConfigRepository(ctx.db),
    deliveries: new WebhookDeliveryRepository(ctx.db),
    secrets: SecretBox.fromKey(ctx.settings.secretsKey),
    allowPrivateUrls: ctx.settings.allowPrivateWebhookUrls,
    timeoutMs: ctx.settings.webhookTimeoutMs,
    rotationGraceMs: ctx.settings.webhookRotationGraceMs,
    audit: ctx.accounts.audit,
  });
