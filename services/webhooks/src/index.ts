export { startWebhooks, type WebhooksHandle } from './main';
export { loadWebhooksConfig, type WebhooksConfig } from './config';
export { failDeliveryInternally } from './delivery/final-failure';
export { DeliveryLoop, type DeliveryLoopDeps, type DeliveryLoopSettings } from './delivery/delivery-loop';
