export * from './urls';
export * from './sessions';
export * from './fetch-page';
export * from './crawler';
export * from './parsers';
