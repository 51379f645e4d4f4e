export * from './catalog';
export * from './producer';
export type { Redis } from 'ioredis';
