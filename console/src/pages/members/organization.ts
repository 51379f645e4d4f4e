import { useQueries, useQuery } from '@tanstack/react-query';
import { type Schemas } from '../../api/client';
import { projectsQuery } from '../../api/projects';
import { meQuery } from '../../api/session';

export type Role = Schemas['Member']['role'];

export const ROLES: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'owner', label: 'Owner' },
  { value: 'admin', label: 'Admin' },
  { value: 'developer', label: 'Developer' },
  { value: 'viewer', label: 'Viewer' },
];

export const roleLabel = (role: Role) => ROLES.find((r) => r.value === role)?.label ?? role;

/** Owners and admins manage members, invitations, projects and read the audit log. */
export const isManager = (role: Role | undefined) => role === 'owner' || role === 'admin';

export interface ProjectOrganization {
  organizationId: string;
  organizationName: string;
  role: Role;
  userId: string;
  userEmail: string;
}

/**
 * The organization a project belongs to and the signed-in user's role there: the membership whose
 * project list holds the project (a project id alone does not say which organization it is in).
 */
export function useOrganizationOfProject(projectId: string): {
  organization: ProjectOrganization | null;
  isLoading: boolean;
  error: unknown;
} {
  const me = useQuery(meQuery);
  const memberships = me.data?.memberships ?? [];
  const lists = useQueries({ queries: memberships.map((m) => projectsQuery(m.organizationId)) });
  const index = lists.findIndex((l) => l.data?.some((p) => p.id === projectId));
  const membership = index >= 0 ? memberships[index] : undefined;
  const organization =
    membership && me.data
      ? {
          organizationId: membership.organizationId,
          organizationName: membership.organizationName,
          role: membership.role,
          userId: me.data.user.id,
          userEmail: me.data.user.email,
        }
      : null;
  return {
    organization,
    isLoading: me.isLoading || (!organization && lists.some((l) => l.isLoading)),
    error: me.error ?? (organization ? null : (lists.find((l) => l.error)?.error ?? null)),
  };
}
