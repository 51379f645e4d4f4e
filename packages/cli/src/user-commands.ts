import { AppError } from '@crawl/core';
import type { AccountUserRow, Db, MembershipRepository, SessionRepository, UserRepository } from '@crawl/db';
import { type Announcing, announce } from './announce';
import { recordOperatorChange } from './operator-audit';

/**
 * The admin CLI's commands on users who sign in (docs/operations.md). Kept apart from
 * commands.ts so that the tenant-making commands, which tests and the demo call directly, keep
 * their small dependencies.
 */
export interface UserAdminDeps extends Announcing {
  db: Db;
  users: UserRepository;
  sessions: SessionRepository;
  memberships: MembershipRepository;
}

type Flags = Record<string, string | boolean | undefined>;

export interface UserListing {
  email: string;
  id: string;
  verified: boolean;
  disabled: boolean;
  createdAt: string;
  organizations: number;
}

const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 1000;

function text(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function listLimit(flags: Flags): number {
  const raw = text(flags, 'limit');
  if (raw === undefined) return DEFAULT_LIST_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIST_LIMIT) {
    throw new AppError('VALIDATION_ERROR', `--limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  }
  return n;
}

/**
 * The user named by `--user ID` or `--email EMAIL`. A user made by the admin CLI has no email
 * and no sign-in: it is refused with a message saying so rather than reported as unknown.
 */
async function accountUser(deps: UserAdminDeps, flags: Flags): Promise<AccountUserRow> {
  const id = text(flags, 'user');
  const email = text(flags, 'email');
  if ((id === undefined) === (email === undefined)) throw new AppError('VALIDATION_ERROR', 'give either --user ID or --email EMAIL');
  if (email !== undefined) {
    const user = await deps.users.findByEmail(email);
    if (!user) throw new AppError('NOT_FOUND', `user with email ${email} not found`);
    return user;
  }
  const user = await deps.users.findById(id!);
  if (user) return user;
  const cliUser = await deps.users.findAny(id!);
  if (cliUser) {
    throw new AppError(
      'VALIDATION_ERROR',
      `user ${id} was made by the admin CLI (no email, no sign-in, no memberships; it owns API keys of organization ${cliUser.organization_id}): revoke its keys with revoke-key instead`,
    );
  }
  throw new AppError('NOT_FOUND', `user ${id} not found`);
}

/**
 * Disabling, its session revocation and its entry in each of the user's organizations' audit
 * logs commit together: never a disabled user with a live session. Then every gateway forgets
 * the user's cached sessions and keys (a disabled user's keys are refused; an enabled user's
 * work again).
 */
async function setDisabled(deps: UserAdminDeps, user: AccountUserRow, disabled: boolean) {
  const result = await deps.db.transaction().execute(async (trx) => {
    await deps.users.setDisabled(user.id, disabled, trx);
    if (disabled) await deps.sessions.revokeAllOfUser(user.id, trx);
    const memberships = await deps.memberships.ofUser(user.id, trx);
    await recordOperatorChange(
      trx,
      memberships.map((m) => ({
        organizationId: m.organizationId,
        action: disabled ? ('user.disabled' as const) : ('user.enabled' as const),
        subject: { type: 'user', id: user.id },
        details: { email: user.email },
      })),
    );
    const after = await deps.users.findById(user.id, trx);
    return { userId: user.id, email: user.email, disabled, disabledAt: after?.disabledAt?.toISOString() ?? null };
  });
  await announce(deps, [`user:${user.id}`]);
  return result;
}

export const userCommands: Record<string, (deps: UserAdminDeps, flags: Flags) => Promise<unknown>> = {
  async 'list-users'(deps, flags): Promise<UserListing[]> {
    const rows = await deps.users.list({ search: text(flags, 'search'), limit: listLimit(flags) });
    return rows.map((row) => ({
      email: row.email!,
      id: row.id,
      verified: row.email_verified_at !== null,
      disabled: row.disabled_at !== null,
      createdAt: new Date(row.created_at).toISOString(),
      organizations: Number(row.organizations),
    }));
  },

  async 'disable-user'(deps, flags) {
    return setDisabled(deps, await accountUser(deps, flags), true);
  },

  async 'enable-user'(deps, flags) {
    return setDisabled(deps, await accountUser(deps, flags), false);
  },

  async 'user-memberships'(deps, flags) {
    const user = await accountUser(deps, flags);
    return {
      userId: user.id,
      email: user.email,
      disabled: user.disabledAt !== null,
      memberships: await deps.memberships.ofUser(user.id),
    };
  },
};

/** `list-users` without `--json`: one aligned row per user, as an operator reads it in a terminal. */
export function userTable(users: UserListing[]): string {
  if (!users.length) return 'no users\n';
  const header = ['EMAIL', 'ID', 'VERIFIED', 'DISABLED', 'CREATED', 'ORGS'];
  const rows = users.map((u) => [
    u.email,
    u.id,
    u.verified ? 'yes' : 'no',
    u.disabled ? 'yes' : 'no',
    u.createdAt,
    String(u.organizations),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return (
    [header, ...rows]
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
