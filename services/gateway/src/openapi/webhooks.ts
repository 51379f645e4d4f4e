import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, WEBHOOK_ID_HEADER } from '@crawl/client';
import {
  EVENT_TYPES,
  type EventType,
  WEBHOOK_BACKOFF_FACTOR,
  WEBHOOK_DELIVERY_BODIES,
  WEBHOOK_DELIVERY_COMPONENTS,
  WEBHOOK_MAX_ATTEMPTS,
} from '@crawl/core';
import { z } from 'zod';

/**
 * The `webhooks` section (OpenAPI 3.1): one POST per event, with its delivery body from
 * @crawl/core (WEBHOOK_DELIVERY_BODIES), and the headers every delivery carries. The
 * header names are the verifier's (@crawl/client webhook-signature.ts), so the document and the
 * code receivers run cannot name different headers.
 */
const WHEN: Record<EventType, string> = {
  'job.completed': 'A crawl job completed: at least one target produced a result. `data` is the finished job.',
  'job.failed': 'A crawl job failed: no target produced a result (everything was refunded). `data` is the finished job.',
  'schedule.triggered':
    "Accepted as a trigger and sent by test deliveries; scheduled runs do not emit it live (their jobs' events carry `scheduleId`).",
  'product.changed':
    'A monitored field of a product changed between two crawls (details, or search: a card is compared only on what it shows). `data` has the changes and the merged last known snapshot.',
  'product.alert':
    "An alert rule's condition turned true for a tracked product on a new product-page snapshot (docs/alerts.md). `data` names the rule, the condition, the value it looked at, the value before, the baseline of a percentage, and the merged last known snapshot.",
};

const SIGNATURE_SCHEME = `HMAC-SHA256 keyed with the webhook's secret over \`<t>.<raw body>\`, hex-encoded as \`v1\`. Verify with a constant-time comparison on the raw, unparsed body, and reject a \`t\` outside your tolerance (the client's \`verify\` uses 5 minutes). A delivery that does not get a 2xx in time (10 s by default) is retried, ${WEBHOOK_MAX_ATTEMPTS} attempts in all, with exponential backoff (80 s x${WEBHOOK_BACKOFF_FACTOR} per attempt by default: the attempts span about a day), then stays replayable (\`POST .../webhooks/replay\`, \`.../deliveries/{deliveryId}/resend\`); deduplicate on the delivery id. While a secret rotation is in progress the header carries two \`v1=\` values (new secret, then previous one): accept the delivery if any matches.`;

const canonical = (header: string) => header.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

const deliveryHeaders = z.object({
  [canonical(SIGNATURE_HEADER)]: z
    .string()
    .regex(/^t=\d+(,v1=[0-9a-f]{64}){1,2}$/)
    .openapi({
      description: `\`t=<unix seconds>,v1=<hex HMAC>\` (\`,v1=<hex HMAC>\` twice during a secret rotation). ${SIGNATURE_SCHEME}`,
      example: 't=1763805600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    }),
  [canonical(EVENT_HEADER)]: z.enum(EVENT_TYPES).openapi({ description: 'The event name (also `event` in the body)' }),
  [canonical(DELIVERY_HEADER)]: z
    .string()
    .openapi({ description: 'Stable delivery id, identical across retries: deduplicate on it (also `id` in the body)' }),
  [canonical(WEBHOOK_ID_HEADER)]: z.string().openapi({ description: 'The id of the webhook configuration' }),
});

export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const event of EVENT_TYPES) {
    // zod-to-openapi 7 writes the `$ref` of a webhook body without emitting its component: register it.
    registry.register(WEBHOOK_DELIVERY_COMPONENTS[event], WEBHOOK_DELIVERY_BODIES[event]);
    registry.registerWebhook({
      method: 'post',
      path: event,
      // `job.completed` -> `jobCompleted` (generators add their own suffix: `JobCompletedWebhookPayload`)
      operationId: event.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase()),
      tags: ['Webhooks'],
      // No security scheme: the receiver authenticates a delivery by its signature header
      // (X-Service-Signature, a parameter below), which no OpenAPI scheme describes.
      security: [],
      summary: `${event} delivery`,
      description: WHEN[event],
      request: {
        headers: deliveryHeaders,
        body: { required: true, content: { 'application/json': { schema: WEBHOOK_DELIVERY_BODIES[event] } } },
      },
      responses: {
        '2XX': { description: 'Received. Any 2xx ends the delivery; anything else, or no answer in time, is retried.' },
      },
    });
  }
}
