import { useQueries, useQuery } from '@tanstack/react-query';
import { type Schemas } from '../../api/client';
import { meQuery, type Permission } from '../../api/session';
import { projectsQuery } from '../projects/projects.queries';

export type Role = Schemas['Member']['role'];

/** The roles as members see them: the names are text only; what a role may do comes with the membership's permissions. */
const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', developer: 'Developer', viewer: 'Viewer' };

export const ROLES = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({ value, label: ROLE_LABELS[value] }));

export const roleLabel = (role: Role) => ROLE_LABELS[role] ?? role;

export interface ProjectOrganization {
  organizationId: string;
  organizationName: string;
  /** Shown as text only. */
  role: Role;
  /** What the user may do here (`GET /v1/account/me`): what the pages offer follows these. */
  permissions: Permission[];
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
          permissions: membership.permissions,
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
