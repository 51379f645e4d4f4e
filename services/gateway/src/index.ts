export { createApp } from './app';
export { buildGatewayDeps, closeGatewayDeps, type GatewayDeps } from './deps';
export { loadGatewayConfig, type GatewayConfig } from './config';
export { startGateway } from './main';
export { openApiDocument } from './openapi/document';
