export { startWebhooks, type WebhooksHandle } from './main';
export { loadWebhooksConfig, type WebhooksConfig } from './config';
export { failDeliveryInternally } from './handlers/deliver.handler';
