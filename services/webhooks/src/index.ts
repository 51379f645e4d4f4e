export { startWebhooks, type WebhooksHandle } from './main';
export { loadWebhooksConfig, type WebhooksConfig } from './config';
