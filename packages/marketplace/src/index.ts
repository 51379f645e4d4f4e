export * from './registry';
export * from './targets';
