import type {
  AccountTokenRepository,
  ApiKeyRepository,
  AuditLogRepository,
  CreditRepository,
  Db,
  InvitationRepository,
  MembershipRepository,
  SessionRepository,
  TenancyRepository,
  UserRepository,
} from '@crawl/db';
import type { MailLinks } from '@crawl/mail';
import type { FailureLimiter } from '../middleware/failure-limiter';
import type { Directory } from './directory';
import type { InvitationThrottle } from './invitation-throttle';
import type { MailSender } from './mail-sender';
import type { MailThrottle } from './mail-throttle';
import type { PasswordHasher } from './passwords';
import type { SessionSettings } from './sessions';

export const SIGNUP_MODES = ['open', 'invite', 'off'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Everything the account API's services share, built once in deps.ts. */
export interface AccountDeps {
  db: Db;
  tenancy: TenancyRepository;
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
  /** Failed sign-ins, per email (every attempt refused once over) and per client address (only failures). */
  signIns: FailureLimiter<'email' | 'address'>;
  sessionSettings: SessionSettings;
  signup: { mode: SignupMode; credits: number };
}
