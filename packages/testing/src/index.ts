export * from './databases';
export * from './tenants';
export * from './redis-server';
export * from './recording-server';
export * from './processes';
export * from './factories';
export * from './stores';
