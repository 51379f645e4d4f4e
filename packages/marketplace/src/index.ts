export * from './urls';
export * from './sessions';
export * from './fetch-page';
export * from './crawler';
export * from './kinds';
export * from './parsers';
export { createParsePool, type ParsePool, type ParsedPage } from './parse-pool';
export { parsePage } from './parse-worker';
export * from './exits';
