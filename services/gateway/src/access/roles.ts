import { AppError, type Permission, type Role, roleAllows } from '@crawl/core';
import type { UserMembership } from '@crawl/db';

/** What a role short of a permission is told; the rest are told the role does not allow it. */
const REFUSED: Partial<Record<Permission, string>> = { 'data.write': 'may read its projects but not change them' };

/**
 * The caller's role in an organization, which must allow `permission` (null: any member). An
 * organization the caller is not a member of does not exist for them: `${what} not found.`
 * (404, as for anything of another tenant); a role short of the permission is 403 naming it.
 */
export function requireRole(
  caller: { memberships: readonly UserMembership[] },
  organizationId: string,
  permission: Permission | null,
  what = `Organization ${organizationId}`,
): Role {
  const membership = caller.memberships.find((m) => m.organizationId === organizationId);
  if (!membership) throw new AppError('NOT_FOUND', `${what} not found.`);
  if (permission && !roleAllows(membership.role, permission)) {
    const refused = REFUSED[permission] ?? 'does not allow this';
    throw new AppError('FORBIDDEN', `Your role in this organization (${membership.role}) ${refused}.`);
  }
  return membership.role;
}
