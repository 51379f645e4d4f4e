import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../api/session';
import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import { EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { changeRole, type Member, memberKeys, membersQuery, removeMember } from './members.queries';
import { type ProjectOrganization, type Role, ROLES, roleLabel } from './organization';

/** Only who may manage owners touches an owner: an admin may neither change nor remove an owner, nor make one. */
const mayManage = (org: ProjectOrganization, member: Member) =>
  org.permissions.includes('members.manage') && (member.role !== 'owner' || org.permissions.includes('owners.manage'));
export const assignableRoles = (org: ProjectOrganization) =>
  ROLES.filter((r) => r.value !== 'owner' || org.permissions.includes('owners.manage'));

function RemoveMember({ org, member }: { org: ProjectOrganization; member: Member }) {
  const remove = useWrite(() => removeMember(org.organizationId, member.userId), memberKeys.members(org.organizationId));
  return (
    <ConfirmAction
      label="Remove"
      describedBy={`member-${member.userId}`}
      title={`Remove ${member.email}?`}
      confirmLabel="Remove member"
      action={remove}
    >
      <p>
        They lose access to every project of {org.organizationName} at once, and the API keys they created there are revoked. You can invite
        them again later.
      </p>
    </ConfirmAction>
  );
}

/** The organization's members; owners and admins change roles and remove members (within what their permissions allow). */
export function MembersTable({ org }: { org: ProjectOrganization }) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(org.organizationId));
  const [roleError, setRoleError] = useState<unknown>(null);
  const setRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => changeRole(org.organizationId, userId, role),
    onMutate: () => setRoleError(null),
    onError: setRoleError,
    onSuccess: (_, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.members(org.organizationId) });
      // one's own role decides what this console offers
      if (userId === org.userId) void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });

  if (members.isLoading) return <Loading what="members" />;
  if (members.error) return <ErrorNotice error={members.error} />;
  const rows = members.data ?? [];
  if (rows.length === 0) return <EmptyState title="No members" />;
  const manager = org.permissions.includes('members.manage');
  return (
    <>
      <ErrorNotice error={roleError} title="The role was not changed." />
      <Table
        wrap="table-wrap contained"
        caption={`Members of ${org.organizationName}`}
        captionHidden
        columns={['Email', 'Role', 'Joined', manager && ACTIONS]}
      >
        {rows.map((m) => {
          const editable = mayManage(org, m);
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
                    onChange={(role) => setRole.mutate({ userId: m.userId, role })}
                    options={assignableRoles(org)}
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
      </Table>
    </>
  );
}
