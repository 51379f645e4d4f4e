import type {
  AccountTokenRepository,
  ApiKeyRepository,
  AuditLogRepository,
  CreditRepository,
  Db,
  InvitationRepository,
  MembershipRepository,
  OrganizationRepository,
  ProjectRepository,
  SessionRepository,
  UserRepository,
} from '@crawl/db';
import type { MailLinks } from '@crawl/mail';
import type { FailureLimiter } from '../access/failure-limiter';
import type { AfterAnswer } from './after-answer';
import type { DeviceCookies } from '../access/device-cookie';
import type { Directory } from '../access/directory';
import type { InvitationThrottle } from './invitation-throttle';
import type { MailSender } from './mail-sender';
import type { MailThrottle } from '@crawl/mail';
import type { PasswordHasher } from '../access/passwords';
import type { SessionSettings } from '../access/sessions';
import type { WindowLimit } from '../access/window-limit';

export const SIGNUP_MODES = ['open', 'invite', 'off'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Everything the account API's services share, built once in deps.ts. */
export interface AccountDeps {
  db: Db;
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  users: UserRepository;
  tokens: AccountTokenRepository;
  sessions: SessionRepository;
  memberships: MembershipRepository;
  invitations: InvitationRepository;
  keys: ApiKeyRepository;
  audit: AuditLogRepository;
  credits: CreditRepository;
  directory: Directory;
  hasher: PasswordHasher;
  mail: MailSender;
  mailLinks: MailLinks;
  mailThrottle: MailThrottle;
  /** Invitations per organization and per inviter (fail-closed: an invitation is a mail to any address). */
  invitationThrottle: InvitationThrottle;
  /**
   * Failed sign-ins, per email and per client address, or per browser for a browser that signed
   * in before; once over, attempts are refused before the password is hashed.
   */
  signIns: FailureLimiter<'email' | 'address' | 'device'>;
  /** Browsers that proved they know an account (signed in, verified, reset). */
  devices: DeviceCookies;
  /** Anonymous routes' work after the answer. */
  afterAnswer: AfterAnswer;
  limits: {
    /** Sign-ups across the service per minute (fails closed: a sign-up creates an organization). */
    signups: WindowLimit;
    /** Successful sign-ins per user per minute. */
    signInsPerUser: WindowLimit;
    /** Live sessions a user keeps; a new sign-in beyond ends the oldest. */
    sessionsPerUser: number;
  };
  sessionSettings: SessionSettings;
  /** `credits`: what a verified sign-up's organization gets, for at most `creditGrantsPerDay` organizations a day. */
  signup: { mode: SignupMode; credits: number; creditGrantsPerDay: number };
}
