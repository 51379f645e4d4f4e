export * from './errors';
export * from './ids';
export * from './domain';
export * from './api-keys';
export * from './secrets';
export * from './text';
export * from './marketplaces';
export * from './targets';
