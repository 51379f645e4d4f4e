import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { ConfirmButton } from './confirm';
import { type ProjectOrganization, type Role, ROLES, roleLabel } from './organization';

type Member = Schemas['Member'];

export const membersQuery = (orgId: string) => ({
  queryKey: ['members', orgId],
  queryFn: async () => (await unwrap(api.GET('/v1/account/organizations/{orgId}/members', { params: { path: { orgId } } }))).data,
});

/** Only owners touch owners: an admin may neither change nor remove an owner, nor make one. */
const mayManage = (me: Role, member: Member) => me === 'owner' || (me === 'admin' && member.role !== 'owner');
export const assignableRoles = (me: Role) => ROLES.filter((r) => me === 'owner' || r.value !== 'owner');

function RemoveMember({ org, member }: { org: ProjectOrganization; member: Member }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/v1/account/organizations/{orgId}/members/{userId}', {
          params: { path: { orgId: org.organizationId, userId: member.userId } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['members', org.organizationId] }),
  });
  return (
    <ConfirmButton
      label="Remove"
      describedBy={`member-${member.userId}`}
      title={`Remove ${member.email}?`}
      confirmLabel="Remove member"
      onOpenChange={(open) => !open && remove.reset()}
      isPending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutateAsync()}
    >
      <p>
        They lose access to every project of {org.organizationName} at once, and the API keys they created there are revoked. You can invite
        them again later.
      </p>
    </ConfirmButton>
  );
}

/** The organization's members; owners and admins change roles and remove members (within what their role allows). */
export function MembersTable({ org }: { org: ProjectOrganization }) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(org.organizationId));
  const [roleError, setRoleError] = useState<unknown>(null);
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      unwrap(
        api.PATCH('/v1/account/organizations/{orgId}/members/{userId}', {
          params: { path: { orgId: org.organizationId, userId } },
          body: { role },
        }),
      ),
    onMutate: () => setRoleError(null),
    onError: setRoleError,
    onSuccess: (_, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: ['members', org.organizationId] });
      // one's own role decides what this console offers
      if (userId === org.userId) void queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });

  if (members.isLoading) return <Loading what="members" />;
  if (members.error) return <ErrorNotice error={members.error} />;
  const rows = members.data ?? [];
  if (rows.length === 0) return <EmptyState title="No members" />;
  const manager = org.role === 'owner' || org.role === 'admin';
  return (
    <>
      <ErrorNotice error={roleError} title="The role was not changed." />
      <div className="table-wrap contained">
        <table>
          <caption className="visually-hidden">Members of {org.organizationName}</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {manager && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => {
              const editable = mayManage(org.role, m);
              return (
                <tr key={m.userId}>
                  <td id={`member-${m.userId}`}>
                    {m.email}
                    {m.userId === org.userId && <span className="muted"> (you)</span>}
                  </td>
                  <td>
                    {editable ? (
                      <SelectField<Role>
                        label={`Role of ${m.email}`}
                        hideLabel
                        value={m.role}
                        onChange={(role) => changeRole.mutate({ userId: m.userId, role })}
                        options={assignableRoles(org.role)}
                      />
                    ) : (
                      roleLabel(m.role)
                    )}
                  </td>
                  <td className="nowrap">
                    <DateTime value={m.joinedAt} />
                  </td>
                  {manager && <td>{editable && m.userId !== org.userId && <RemoveMember org={org} member={m} />}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
