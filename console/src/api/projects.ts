import { queryOptions, useQueries } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from './client';
import type { Me } from './session';

export const projectsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['projects', organizationId],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/account/organizations/{orgId}/projects', { params: { path: { orgId: organizationId } } }))).data,
    staleTime: 30_000,
  });

export type ProjectChoice = Schemas['Project'] & {
  organizationName: string;
  role: Me['memberships'][number]['role'];
};

/** Every project of every organization of the user, archived ones last. */
export function useAllProjects(me: Me | null | undefined): { projects: ProjectChoice[]; isLoading: boolean } {
  const memberships = me?.memberships ?? [];
  const results = useQueries({ queries: memberships.map((m) => projectsQuery(m.organizationId)) });
  const projects = results.flatMap((r, i) =>
    (r.data ?? []).map((p) => ({ ...p, organizationName: memberships[i]!.organizationName, role: memberships[i]!.role })),
  );
  projects.sort((a, b) => Number(!!a.archivedAt) - Number(!!b.archivedAt));
  return { projects, isLoading: results.some((r) => r.isLoading) };
}
