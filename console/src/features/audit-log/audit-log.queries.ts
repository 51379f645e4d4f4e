import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../api/client';

/** Query keys of the audit log: one page of an organization's entries. */
export const auditLogKeys = {
  page: (organizationId: string | undefined, offset: number) => ['audit-log', organizationId, offset] as const,
};

/** A page of the organization's audit log (owners and admins only: the API answers 403 to the others, which is not retried). */
export const auditLogQuery = (organizationId: string | undefined, offset: number, limit: number) =>
  queryOptions({
    queryKey: auditLogKeys.page(organizationId, offset),
    queryFn: () =>
      unwrap(
        api.GET('/v1/account/organizations/{orgId}/audit-log', {
          params: { path: { orgId: organizationId! }, query: { limit, offset } },
        }),
      ),
    enabled: !!organizationId,
    placeholderData: keepPreviousData,
    retry: (count, e) => !(e instanceof ApiError && e.status === 403) && count < 2,
  });
