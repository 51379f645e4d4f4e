/** One mail (an account's, or an alert's to a member), ready to send: both parts rendered, the recipient and its action link. */
export interface MailMessage {
  kind: 'verify-email' | 'signup-email-taken' | 'signup-pending' | 'password-reset' | 'password-changed' | 'invitation' | 'alert';
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the action link, if any */
  link?: string;
}

export type MailKind = MailMessage['kind'];

/** Where the mails' links point: the public origin of the console. */
export interface MailLinks {
  /** e.g. http://localhost:8080; a trailing slash is ignored */
  publicUrl: string;
}
