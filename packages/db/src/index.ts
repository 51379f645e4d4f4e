export * from './connection';
export * from './migrate';
export type { Database, JobErrorRow } from './schema';
export * from './repositories/tenancy.repository';
export * from './repositories/credit.repository';
export * from './repositories/job.repository';
export * from './repositories/result.repository';
export * from './repositories/idempotency.repository';
export { sql, type Transaction } from 'kysely';
