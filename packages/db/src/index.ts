export * from './connection';
export * from './migrate';
export type {
  Database,
  DeliveryStatus,
  JobErrorRow,
  JobNoteRow,
  JobRetentionState,
  JobTargetStatus,
  LedgerKind,
  PageCheckpoint,
} from './schema';
export * from './repositories/organization.repository';
export * from './repositories/project.repository';
export * from './repositories/user.repository';
export * from './repositories/account-token.repository';
export * from './repositories/session.repository';
export * from './repositories/membership.repository';
export * from './repositories/invitation.repository';
export * from './repositories/api-key.repository';
export * from './repositories/audit-log.repository';
export * from './repositories/credit.repository';
export * from './repositories/job.repository';
export * from './repositories/job-target.repository';
export * from './repositories/release-window.repository';
export * from './repositories/result.repository';
export * from './repositories/idempotency.repository';
export { sql, type Transaction } from 'kysely';
export * from './repositories/event.repository';
export * from './repositories/webhook-config.repository';
export * from './repositories/webhook-delivery.repository';
export * from './repositories/webhook-log.repository';
export * from './repositories/schedule.repository';
export * from './repositories/tracking.repository';
export * from './repositories/analytics.repository';
export * from './repositories/retention.repository';
export * from './repositories/alert-rule.repository';
export * from './repositories/alert-state.repository';
export * from './repositories/alert-mail.repository';
export * from './repositories/alert-replay.repository';
export * from './repositories/destination.repository';
export * from './repositories/destination-delivery-queue';
