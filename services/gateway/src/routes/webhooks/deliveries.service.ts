import {
  AppError,
  DELIVERY_ATTEMPTS_SHOWN,
  WEBHOOK_MAX_MANUAL_ATTEMPTS,
  type WebhookAttemptResource,
  type WebhookDeliveryResource,
  type WebhookReplayResultResource,
} from '@crawl/core';
import { type DeliveryAttemptRow, type DeliveryLogRow, WebhookLogRepository } from '@crawl/db';
import type { z } from 'zod';
import type { deliveriesQuery, replayBody } from './webhooks.schemas';
import type { GatewayContext } from '../../context';

function toAttemptResource(row: DeliveryAttemptRow): WebhookAttemptResource {
  return {
    attempt: row.attempt,
    manual: row.manual,
    success: row.success,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    responseBody: row.response_body,
    createdAt: row.created_at.toISOString(),
  };
}

function toDeliveryResource(row: DeliveryLogRow, attempts: DeliveryAttemptRow[]): WebhookDeliveryResource {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event_type as WebhookDeliveryResource['event'],
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    attempts: attempts.map(toAttemptResource),
  };
}

/** The delivery log with attempts, resend of one delivery and bulk replay of failed ones. */
export class WebhookDeliveryService {
  constructor(
    private readonly log: WebhookLogRepository,
    /** Deliveries replays may re-arm per project in any hour. */
    private readonly options: { replayBudgetPerHour: number },
  ) {}

  async list(projectId: string, query: z.output<typeof deliveriesQuery>) {
    const { limit, offset, ...filter } = query;
    const { rows, total } = await this.log.listDeliveries(projectId, filter, limit, offset);
    return { data: await this.withAttempts(projectId, rows), total };
  }

  /** A new attempt of a delivered or failed delivery: same id and body, signed anew, due now. */
  async resend(projectId: string, deliveryId: string): Promise<WebhookDeliveryResource> {
    const result = await this.log.resend(projectId, deliveryId);
    if ('delivery' in result) return (await this.withAttempts(projectId, [result.delivery]))[0]!;
    switch (result.refused) {
      case 'not_found':
        throw new AppError('NOT_FOUND', `Delivery ${deliveryId} not found.`);
      case 'pending':
        throw new AppError('INVALID_STATE', `Delivery ${deliveryId} is still pending: its next attempt is already due or scheduled.`);
      case 'webhook_disabled':
        throw new AppError(
          'INVALID_STATE',
          `The webhook of delivery ${deliveryId} is disabled or was removed; re-enable it (PATCH with enabled: true) first.`,
        );
      case 'manual_cap':
        throw new AppError(
          'INVALID_STATE',
          `Delivery ${deliveryId} already had its ${WEBHOOK_MAX_MANUAL_ATTEMPTS} manual attempts (resends and replays); it is not sent again.`,
          { details: { maxManualAttempts: WEBHOOK_MAX_MANUAL_ATTEMPTS } },
        );
    }
  }

  /**
   * Re-arms failed deliveries (see WebhookLogRepository.replayFailed for the limits). Refusals:
   * 409 while another replay of the project runs; 429 once the project's hourly budget is spent,
   * with `details.retryAfterSeconds` (the router sends it as Retry-After).
   */
  async replay(projectId: string, body: z.output<typeof replayBody>): Promise<WebhookReplayResultResource> {
    const { limit, ...filter } = body;
    const result = await this.log.replayFailed(projectId, filter, limit, this.options.replayBudgetPerHour);
    if ('ids' in result) return { replayed: result.ids.length, deliveryIds: result.ids, hasMore: result.hasMore };
    if (result.refused === 'busy')
      throw new AppError('INVALID_STATE', 'Another replay of this project is in progress; send this one again once it has answered.');
    const budget = this.options.replayBudgetPerHour;
    throw new AppError(
      'RATE_LIMITED',
      `The replays of this project re-armed ${budget} deliveries in the last hour, its hourly replay budget; retry after ${result.retryAfterSeconds} s.`,
      { details: { budgetPerHour: budget, retryAfterSeconds: result.retryAfterSeconds } },
    );
  }

  private async withAttempts(projectId: string, rows: DeliveryLogRow[]): Promise<WebhookDeliveryResource[]> {
    const attempts = await this.log.attemptsOf(
      projectId,
      rows.map((r) => r.id),
      DELIVERY_ATTEMPTS_SHOWN,
    );
    const byDelivery = new Map<string | null, DeliveryAttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
    return rows.map((row) => toDeliveryResource(row, byDelivery.get(row.id) ?? []));
  }
}

/** The delivery log's service, built from the gateway's shared infrastructure. */
export const createWebhookDeliveryService = (ctx: Pick<GatewayContext, 'db' | 'settings'>): WebhookDeliveryService =>
  new WebhookDeliveryService(new WebhookLogRepository(ctx.db), { replayBudgetPerHour: ctx.settings.webhookReplayBudgetPerHour });
