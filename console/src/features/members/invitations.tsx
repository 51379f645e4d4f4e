import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf } from '../../api/client';
import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import { FormDialog } from '../../ui/form-dialog';
import { Button, EmptyState, ErrorNotice, Field, Loading, SelectField } from '../../ui/forms';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { assignableRoles } from './members-table';
import { type Invitation, invitationsQuery, invite as sendInvitation, memberKeys, revokeInvitation } from './members.queries';
import { type ProjectOrganization, type Role, roleLabel } from './organization';

function InviteDialog({ org }: { org: ProjectOrganization }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const invite = useWrite(
    () => sendInvitation(org.organizationId, { email: email.trim(), role }),
    memberKeys.invitations(org.organizationId),
  );
  const fields = fieldErrorsOf(invite.error);
  const sent = invite.data?.data;
  return (
    <FormDialog
      trigger={<Button>Invite member</Button>}
      title="Invite member"
      submitLabel="Send invitation"
      onOpenChange={(open) => !open && (invite.reset(), setEmail(''), setRole('developer'))}
      onSubmit={() => invite.mutate()}
      isPending={invite.isPending}
      error={Object.keys(fields).length ? null : invite.error}
      done={
        sent && {
          title: 'Invitation sent',
          content: (close) => (
            <>
              <p>
                {sent.email} gets a link by mail, valid until <DateTime value={sent.expiresAt} />, to join {org.organizationName} as{' '}
                {roleLabel(sent.role).toLowerCase()}.
              </p>
              <Button onPress={close} autoFocus>
                Done
              </Button>
            </>
          ),
        }
      }
    >
      <Field label="Email" type="email" isRequired autoFocus value={email} onChange={setEmail} error={fields.email} />
      <SelectField<Role> label="Role" value={role} onChange={setRole} options={assignableRoles(org)} error={fields.role} />
      <p className="muted">A pending invitation of the same email is replaced. The link works 7 days, once.</p>
    </FormDialog>
  );
}

function RevokeInvitation({ org, invitation }: { org: ProjectOrganization; invitation: Invitation }) {
  const revoke = useWrite(() => revokeInvitation(org.organizationId, invitation.id), memberKeys.invitations(org.organizationId));
  return (
    <ConfirmAction
      label="Revoke"
      describedBy={`invitation-${invitation.id}`}
      title={`Revoke the invitation of ${invitation.email}?`}
      confirmLabel="Revoke invitation"
      action={revoke}
    >
      <p>The link in their mail stops working. You can invite them again.</p>
    </ConfirmAction>
  );
}

/** Pending invitations of the organization, for who may manage members (the only ones the API shows them to). */
export function Invitations({ org }: { org: ProjectOrganization }) {
  const invitations = useQuery(invitationsQuery(org.organizationId));
  const rows = invitations.data ?? [];
  return (
    <section aria-labelledby="invitations-heading">
      <div className="page-head">
        <h2 id="invitations-heading">Invitations</h2>
        <InviteDialog org={org} />
      </div>
      {invitations.isLoading && <Loading what="invitations" />}
      <ErrorNotice error={invitations.error} />
      {invitations.data && rows.length === 0 && (
        <EmptyState title="No pending invitations">
          <p>Invite a colleague by email with the role they need.</p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <Table
          wrap="table-wrap contained"
          caption="Pending invitations"
          captionHidden
          columns={['Email', 'Role', 'Invited', 'Expires', ACTIONS]}
        >
          {rows.map((i) => (
            <tr key={i.id}>
              <td id={`invitation-${i.id}`}>{i.email}</td>
              <td>{roleLabel(i.role)}</td>
              <td className="nowrap">
                <DateTime value={i.createdAt} />
              </td>
              <td className="nowrap">
                <DateTime value={i.expiresAt} />
              </td>
              <td>
                <RevokeInvitation org={org} invitation={i} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
