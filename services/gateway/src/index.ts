export { createApp } from './app';
export { buildGatewayContext, closeGatewayContext, contextOptions } from './deps';
export type { GatewayContext } from './context';
export { loadGatewayConfig, type GatewayConfig } from './config';
export { startGateway } from './main';
export { openApiDocument } from './openapi/document';
