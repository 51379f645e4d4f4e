import { DEFAULT_HASHER_OPTIONS, type PasswordHasherOptions } from '../access/passwords';
import type { SignupMode } from './account-deps';
import { DEFAULT_INVITATION_LIMITS, type InvitationLimits } from './invitation-throttle';
import { DEFAULT_MAIL_LIMITS, type MailThrottleLimits } from '@crawl/mail';

export interface AccountOptions {
  /** Where the service is reached: mail links start with it, and `http:` drops the cookie's Secure flag. */
  publicUrl: string;
  /** Unset: mail is written to `mailOutboxDir` as .eml files. */
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
  /** Log each outbox mail's link (development only: the link carries a token). */
  logMailLinks: boolean;
  signupMode: SignupMode;
  signupCredits: number;
  sessionIdleMinutes: number;
  sessionMaxAgeHours: number;
  /** Failed sign-ins per email in 15 minutes before that email is refused until the window ends. */
  signInFailuresPerEmail: number;
  /** Failed sign-ins per client address per minute before the address is refused (before hashing) until the window ends. */
  signInFailuresPerAddress: number;
  /** Failed sign-ins of one known browser (a device cookie) in 15 minutes before that browser is refused. */
  signInFailuresPerDevice: number;
  /** Successful sign-ins per user per minute. */
  signInsPerUserPerMinute: number;
  /** Live sessions per user; a sign-in beyond ends the oldest. */
  sessionsPerUser: number;
  /** Sign-ups across the service per minute (SIGNUPS_PER_MINUTE). */
  signupsPerMinute: number;
  /** Organizations a day whose verified sign-up gets SIGNUP_CREDITS (SIGNUP_CREDIT_GRANTS_PER_DAY). */
  signupCreditGrantsPerDay: number;
  hasher: PasswordHasherOptions;
  mailLimits: MailThrottleLimits;
  invitationLimits: InvitationLimits;
}

/**
 * What sign-up, sessions and mail use when nothing else is said. The values that have a variable
 * (config.ts) are that variable's default there; the rest (sign-in limits, hashing, mail budgets)
 * have no variable and are set here only.
 */
export const DEFAULT_ACCOUNT_OPTIONS: AccountOptions = {
  publicUrl: 'http://localhost:8080',
  smtpUrl: undefined,
  mailOutboxDir: '.mail-outbox',
  mailFrom: 'Crawl Data Service <no-reply@localhost>',
  logMailLinks: true,
  signupMode: 'open',
  signupCredits: 100,
  sessionIdleMinutes: 24 * 60,
  sessionMaxAgeHours: 14 * 24,
  signInFailuresPerEmail: 10,
  signInFailuresPerAddress: 30,
  signInFailuresPerDevice: 10,
  signInsPerUserPerMinute: 10,
  sessionsPerUser: 20,
  signupsPerMinute: 60,
  signupCreditGrantsPerDay: 500,
  hasher: DEFAULT_HASHER_OPTIONS,
  mailLimits: DEFAULT_MAIL_LIMITS,
  invitationLimits: DEFAULT_INVITATION_LIMITS,
};
