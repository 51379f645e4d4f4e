import type { Permission } from '../api/session';
import { useOrganizationOfProject } from '../features/members/organization';
import { useCurrentProject } from './current-project';

/**
 * The least role that holds each permission, as text for the note that says why a control is
 * absent. What the user may do still comes from the permissions `GET /v1/account/me` lists; only
 * this sentence names roles (a `Record` of the generated union: a permission the API adds fails
 * the type check until it is worded here).
 */
const NEEDS: Record<Permission, string> = {
  'organization.read': 'membership of the organization',
  'keys.mine': 'membership of the organization',
  'keys.own': 'a Developer role or above',
  'data.write': 'a Developer role or above',
  'projects.manage': 'an Admin or Owner role',
  'members.manage': 'an Admin or Owner role',
  'keys.all': 'an Admin or Owner role',
  'audit.read': 'an Admin or Owner role',
  'owners.manage': 'the Owner role',
};

export interface Can {
  /** The permission is in the user's membership of the project's organization. */
  allowed: boolean;
  /** Still loading the membership: offer nothing yet. */
  loading: boolean;
  /** Why not, in words ("Your role is Viewer: this needs a Developer role or above."); null when allowed or loading. */
  reason: string | null;
}

/**
 * Whether the signed-in user may do something in the current project (the one a page shows, or
 * `projectId`). The console's one rule (docs/console.md, "Permissions"): a control whose
 * permission is missing is not shown, and the page says once, in a `ReadOnlyNote`, why.
 */
export function useCan(permission: Permission, projectId?: string): Can {
  const current = useCurrentProject().projectId;
  const { organization, isLoading } = useOrganizationOfProject(projectId ?? current ?? '');
  if (!organization) return { allowed: false, loading: isLoading, reason: null };
  const allowed = organization.permissions.includes(permission);
  const role = organization.role.charAt(0).toUpperCase() + organization.role.slice(1);
  return { allowed, loading: false, reason: allowed ? null : `Your role is ${role}: ${what(permission)} needs ${NEEDS[permission]}.` };
}

function what(permission: Permission): string {
  switch (permission) {
    case 'data.write':
      return 'changing jobs, schedules, tracking and webhooks';
    case 'keys.own':
      return 'creating API keys';
    case 'keys.all':
      return "managing other members' keys";
    case 'members.manage':
    case 'owners.manage':
      return 'managing members';
    case 'projects.manage':
      return 'managing projects';
    case 'audit.read':
      return 'reading the audit log';
    default:
      return 'this';
  }
}

/** The one sentence a page shows where it leaves out controls the user's role may not use. */
export function ReadOnlyNote({ can }: { can: Can }) {
  if (!can.reason) return null;
  return (
    <p className="notice info read-only-note" role="note">
      {can.reason}
    </p>
  );
}
