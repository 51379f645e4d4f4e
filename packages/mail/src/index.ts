export type { MailMessage, MailLinks } from './message';
export { createMailer, type Mailer, type MailerOptions } from './mailer';
export { verificationMail, signupEmailTakenMail, passwordResetMail, invitationMail } from './templates';
export { readOutbox, type OutboxEntry } from './outbox';
