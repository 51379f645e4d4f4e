export type { MailMessage, MailLinks, MailKind } from './message';
export { createMailer, type Mailer, type MailerOptions } from './mailer';
export {
  verificationMail,
  signupEmailTakenMail,
  signupPendingMail,
  passwordResetMail,
  passwordChangedMail,
  invitationMail,
  type RecentKey,
} from './templates';
export { readOutbox, type OutboxEntry } from './outbox';
