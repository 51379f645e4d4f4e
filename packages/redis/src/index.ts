export type { Redis } from 'ioredis';
export * from './connection';
export * from './fixed-window';
export * from './lease-semaphore';
export * from './spacing-limiter';
export * from './broadcast';
export * from './bounded';
