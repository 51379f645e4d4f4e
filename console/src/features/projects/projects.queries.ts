import { queryOptions, useQueries } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';
import type { Me } from '../../api/session';

export type Project = Schemas['Project'];

/** Query keys of projects: one list per organization (the switcher, the projects page and the members pages share it). */
export const projectKeys = {
  ofOrganization: (organizationId: string) => ['projects', organizationId] as const,
};

export const fetchProjects = async (organizationId: string) =>
  (await unwrap(api.GET('/v1/account/organizations/{orgId}/projects', { params: { path: { orgId: organizationId } } }))).data;

export const projectsQuery = (organizationId: string) =>
  queryOptions({ queryKey: projectKeys.ofOrganization(organizationId), queryFn: () => fetchProjects(organizationId), staleTime: 30_000 });

export const createProject = (organizationId: string, name: string) =>
  unwrap(api.POST('/v1/account/organizations/{orgId}/projects', { params: { path: { orgId: organizationId } }, body: { name } }));

export const renameProject = (projectId: string, name: string) =>
  unwrap(api.PATCH('/v1/account/projects/{projectId}', { params: { path: { projectId } }, body: { name } }));

export const archiveProject = (projectId: string) =>
  unwrap(api.DELETE('/v1/account/projects/{projectId}', { params: { path: { projectId } } }));

export type ProjectChoice = Project & { organizationName: string };

/** Every project of every organization of the user, archived ones last. */
export function useAllProjects(me: Me | null | undefined): { projects: ProjectChoice[]; isLoading: boolean } {
  const memberships = me?.memberships ?? [];
  const results = useQueries({ queries: memberships.map((m) => projectsQuery(m.organizationId)) });
  const projects = results.flatMap((r, i) => (r.data ?? []).map((p) => ({ ...p, organizationName: memberships[i]!.organizationName })));
  projects.sort((a, b) => Number(!!a.archivedAt) - Number(!!b.archivedAt));
  return { projects, isLoading: results.some((r) => r.isLoading) };
}
