export * from './egress/urls';
export * from './egress/sessions';
export * from './egress/fetch-page';
export * from './crawler';
export * from './kinds';
export * from './parsers';
export { createParsePool, PARSE_PROCESS_NODE_FLAGS, type ParsePool, type ParsedPage } from './parse-pool';
export { parsePage } from './parse-worker';
export * from './egress/exits';
