export * from './catalog';
export * from './producer';
export * from './consumer';
export type { Redis } from 'ioredis';
export * from './fixed-window';
export * from './lease-semaphore';
export * from './spacing-limiter';
