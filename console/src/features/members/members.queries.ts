import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';
import type { Role } from './organization';

export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];

/** Query keys of an organization's people: its members, and its pending invitations. */
export const memberKeys = {
  members: (organizationId: string) => ['members', organizationId] as const,
  invitations: (organizationId: string) => ['invitations', organizationId] as const,
};

export const membersQuery = (orgId: string) =>
  queryOptions({
    queryKey: memberKeys.members(orgId),
    queryFn: async () => (await unwrap(api.GET('/v1/account/organizations/{orgId}/members', { params: { path: { orgId } } }))).data,
  });

export const invitationsQuery = (orgId: string) =>
  queryOptions({
    queryKey: memberKeys.invitations(orgId),
    queryFn: async () => (await unwrap(api.GET('/v1/account/organizations/{orgId}/invitations', { params: { path: { orgId } } }))).data,
  });

export const changeRole = (orgId: string, userId: string, role: Role) =>
  unwrap(api.PATCH('/v1/account/organizations/{orgId}/members/{userId}', { params: { path: { orgId, userId } }, body: { role } }));

/** Removes a member, or (one's own id) leaves the organization. */
export const removeMember = (orgId: string, userId: string) =>
  unwrap(api.DELETE('/v1/account/organizations/{orgId}/members/{userId}', { params: { path: { orgId, userId } } }));

export const invite = (orgId: string, body: Schemas['InvitationBody']) =>
  unwrap(api.POST('/v1/account/organizations/{orgId}/invitations', { params: { path: { orgId } }, body }));

export const revokeInvitation = (orgId: string, invitationId: string) =>
  unwrap(api.DELETE('/v1/account/organizations/{orgId}/invitations/{invitationId}', { params: { path: { orgId, invitationId } } }));
