export * from './catalog';
export * from './producer';
export * from './consumer';
