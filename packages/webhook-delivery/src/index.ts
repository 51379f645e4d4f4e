/**
 * Signed webhook delivery (docs/events-and-webhooks.md) with an SSRF guard that holds at
 * connection time, plus the config-time URL check; the guard and the check also serve every other
 * connection to a tenant-given host (storage destinations).
 */
export { isPrivateAddress } from './address';
export { checkWebhookUrl, PRIVATE_URL_HINT, staticCheck, UNUSABLE_HOST_REASON, type UrlCheck } from './url-check';
export { BLOCKED_CODE, guardedLookup } from './guarded-lookup';
export {
  deliverWebhook,
  closeDeliveryAgents,
  type DeliveryRequest,
  type DeliveryResult,
  USER_AGENT,
  DEFAULT_TIMEOUT_MS,
  SNIPPET_BYTES,
} from './deliver';
