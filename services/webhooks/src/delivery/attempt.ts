import { type SecretBox, webhookRetryDelayMs } from '@crawl/core';
import type { AttemptOutcome, ClaimedDelivery } from '@crawl/db';
import { deliverWebhook } from '@crawl/webhook-delivery';

export interface AttemptSettings {
  timeoutMs: number;
  backoffBaseMs: number;
  allowPrivate: boolean;
}

/** Decrypted secrets by ciphertext: a secret only changes with its ciphertext. */
export function secretCache(box: SecretBox): (ciphertext: string) => string {
  const cache = new Map<string, string>();
  return (ciphertext) => {
    let plain = cache.get(ciphertext);
    if (plain === undefined) {
      plain = box.decrypt(ciphertext);
      if (cache.size >= 1_000) cache.delete(cache.keys().next().value!);
      cache.set(ciphertext, plain);
    }
    return plain;
  };
}

/**
 * What follows an attempt's result: delivered, another attempt after the backoff, or failed for
 * good when the delivery reached its attempt budget (5 automatic attempts; a resend or a
 * replay is one attempt more, without retries of its own).
 */
export function outcomeOf(
  delivery: ClaimedDelivery,
  result: { success: boolean; statusCode: number | null; durationMs: number; error: string | null; responseBodySnippet: string | null },
  backoffBaseMs: number,
): AttemptOutcome {
  const number = delivery.attempts + 1;
  const final = !result.success && number >= delivery.max_attempts;
  const delayMs = result.success || final ? null : webhookRetryDelayMs(number, backoffBaseMs);
  return {
    deliveryId: delivery.id,
    webhookId: delivery.webhook_id,
    projectId: delivery.project_id,
    eventType: delivery.event_type,
    number,
    manual: delivery.manual,
    success: result.success,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error,
    responseBody: result.responseBodySnippet,
    final,
    nextAttemptAt: delayMs === null ? null : new Date(Date.now() + delayMs),
  };
}

/**
 * Sends one claimed attempt, signed with the configuration's secret (and the previous one while
 * a rotation is in progress). Never throws: our own failure (a secret that does not decrypt) is
 * a failed attempt like the receiver's, so the delivery follows its schedule instead of hanging.
 */
export async function attemptDelivery(
  delivery: ClaimedDelivery,
  secretOf: (ciphertext: string) => string,
  settings: AttemptSettings,
): Promise<AttemptOutcome> {
  let result;
  try {
    result = await deliverWebhook({
      url: delivery.url!,
      secret: secretOf(delivery.secret_encrypted!),
      previousSecret: delivery.previous_secret_encrypted ? secretOf(delivery.previous_secret_encrypted) : null,
      body: delivery.body,
      event: delivery.event_type,
      deliveryId: delivery.id,
      webhookId: delivery.webhook_id,
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivate,
    });
  } catch {
    result = {
      success: false,
      statusCode: null,
      durationMs: 0,
      error: 'internal error: the delivery could not be attempted',
      responseBodySnippet: null,
    };
  }
  return outcomeOf(delivery, result, settings.backoffBaseMs);
}
