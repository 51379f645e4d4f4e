import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken, unwrap } from './client';

/** The signed-in user, their organizations and the CSRF token; null when signed out. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async () => {
    try {
      const { data } = await unwrap(api.GET('/v1/account/me'));
      setCsrfToken(data.csrfToken);
      return data;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw err;
    }
  },
  staleTime: 60_000,
});

export const useMe = () => useQuery(meQuery);

export type Me = NonNullable<Awaited<ReturnType<NonNullable<typeof meQuery.queryFn>>>>;

/**
 * What the user may do in an organization, as `GET /v1/account/me` lists it per membership: pages
 * decide what to offer from these (`permissions.includes('members.manage')`), never from a role's
 * name, so a role the API changes needs no change here.
 */
export type Permission = Me['memberships'][number]['permissions'][number];
