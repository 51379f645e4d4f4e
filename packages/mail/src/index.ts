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
export { alertMail, type AlertMailInput } from './alert-template';
export { DEFAULT_MAIL_LIMITS, MailThrottle, type MailLane, type MailThrottleLimits } from './mail-throttle';
