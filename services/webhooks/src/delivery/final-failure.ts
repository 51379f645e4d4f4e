import type { WebhookDeliveryRepository } from '@crawl/db';

/**
 * Ends a pending delivery whose attempt cannot be made for a reason of ours (not the
 * receiver's answer): the attempt is logged with a generic error and the delivery marked failed,
 * replayable, instead of being claimed again forever.
 */
export async function failDeliveryInternally(deliveries: WebhookDeliveryRepository, deliveryId: string, attempt: number): Promise<string> {
  const delivery = await deliveries.findById(deliveryId);
  if (!delivery || delivery.status !== 'pending') return 'nothing pending';
  await deliveries.recordAttempts(
    [
      {
        deliveryId,
        webhookId: delivery.webhook_id,
        projectId: delivery.project_id,
        eventType: delivery.event_type,
        number: attempt,
        manual: delivery.resend_requested_at !== null,
        success: false,
        statusCode: null,
        durationMs: 0,
        error: 'internal error: the delivery could not be attempted',
        responseBody: null,
        final: true,
        nextAttemptAt: null,
      },
    ],
    // Our failure says nothing about the endpoint: it is never disabled for it.
    null,
  );
  return 'failed';
}
