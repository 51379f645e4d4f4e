/**
 * TypeScript SDK of the crawl data service API. See README.md for a complete example.
 * `verify` (and the rest of ./webhook-signature, a self-contained file receivers may also copy)
 * is re-exported so that a webhook receiver needs only this package.
 */
export { CrawlAccount, type CrawlAccountSignInOptions } from './account';
export { CrawlClient, type CrawlClientOptions } from './client';
export type { ConnectionOptions } from './connection';
export { CrawlApiError, CrawlNetworkError, CrawlWaitTimeoutError, isCrawlApiError } from './errors';
export type { ApiKeysResource } from './resources/api-keys';
export type { ExportToFileResult, IdempotencyOptions, JobsResource, WaitForOptions } from './resources/jobs';
export type { SchedulesResource } from './resources/schedules';
export type { TrackedTargetsResource } from './resources/tracked-targets';
export type { WebhooksResource } from './resources/webhooks';
export { type RetryOptions, SDK_VERSION } from './transport';
export * from './types';
export {
  verify,
  verifyOrThrow,
  sign,
  WebhookVerificationError,
  SIGNATURE_HEADER,
  EVENT_HEADER,
  DELIVERY_HEADER,
  WEBHOOK_ID_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  WEBHOOK_EVENT_NAMES,
  type WebhookEventName,
  type VerifyResult,
  type VerifyOptions,
  type VerifyFailureReason,
  type WebhookDelivery,
  type WebhookBody,
} from './webhook-signature';
