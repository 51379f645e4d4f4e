import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';
import { Button, EmptyState, ErrorNotice, Field, Loading, SelectField } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { ConfirmButton } from './confirm';
import { assignableRoles } from './members-table';
import { type ProjectOrganization, type Role, roleLabel } from './organization';

type Invitation = Schemas['Invitation'];

const invitationsQuery = (orgId: string) => ({
  queryKey: ['invitations', orgId],
  queryFn: async () => (await unwrap(api.GET('/v1/account/organizations/{orgId}/invitations', { params: { path: { orgId } } }))).data,
});

function InviteDialog({ org }: { org: ProjectOrganization }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/account/organizations/{orgId}/invitations', {
          params: { path: { orgId: org.organizationId } },
          body: { email: email.trim(), role },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['invitations', org.organizationId] }),
  });
  const fields = invite.error instanceof ApiError ? invite.error.fieldErrors() : {};
  return (
    <DialogTrigger onOpenChange={(open) => !open && (invite.reset(), setEmail(''), setRole('developer'))}>
      <Button>Invite member</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) =>
            invite.data ? (
              <>
                <Heading slot="title">Invitation sent</Heading>
                <p>
                  {invite.data.data.email} gets a link by mail, valid until <DateTime value={invite.data.data.expiresAt} />, to join{' '}
                  {org.organizationName} as {roleLabel(invite.data.data.role).toLowerCase()}.
                </p>
                <Button onPress={close} autoFocus>
                  Done
                </Button>
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!invite.isPending) invite.mutate();
                }}
              >
                <Heading slot="title">Invite member</Heading>
                <Field label="Email" type="email" isRequired autoFocus value={email} onChange={setEmail} error={fields.email} />
                <SelectField<Role> label="Role" value={role} onChange={setRole} options={assignableRoles(org.role)} error={fields.role} />
                <p className="muted">A pending invitation of the same email is replaced. The link works 7 days, once.</p>
                <ErrorNotice error={Object.keys(fields).length ? null : invite.error} />
                <div className="row">
                  <Button type="submit" isPending={invite.isPending}>
                    Send invitation
                  </Button>
                  <Button variant="secondary" onPress={close}>
                    Cancel
                  </Button>
                </div>
              </Form>
            )
          }
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function RevokeInvitation({ org, invitation }: { org: ProjectOrganization; invitation: Invitation }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/v1/account/organizations/{orgId}/invitations/{invitationId}', {
          params: { path: { orgId: org.organizationId, invitationId: invitation.id } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['invitations', org.organizationId] }),
  });
  return (
    <ConfirmButton
      label="Revoke"
      describedBy={`invitation-${invitation.id}`}
      title={`Revoke the invitation of ${invitation.email}?`}
      confirmLabel="Revoke invitation"
      onOpenChange={(open) => !open && revoke.reset()}
      isPending={revoke.isPending}
      error={revoke.error}
      onConfirm={() => revoke.mutateAsync()}
    >
      <p>The link in their mail stops working. You can invite them again.</p>
    </ConfirmButton>
  );
}

/** Pending invitations of the organization, for owners and admins (the only ones the API shows them to). */
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
        <div className="table-wrap contained">
          <table>
            <caption className="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
