export * from './logger';
export * from './metrics';
export * from './shutdown';
export * from './service-main';
export * from './listen';
