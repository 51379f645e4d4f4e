import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { ErrorNotice, Loading } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { ConfirmButton } from './members/confirm';
import { Invitations } from './members/invitations';
import { MembersTable } from './members/members-table';
import { isManager, type ProjectOrganization, roleLabel, useOrganizationOfProject } from './members/organization';
import './members/admin.css';

function LeaveOrganization({ org }: { org: ProjectOrganization }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const leave = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/v1/account/organizations/{orgId}/members/{userId}', {
          params: { path: { orgId: org.organizationId, userId: org.userId } },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      queryClient.removeQueries({ queryKey: ['projects', org.organizationId] });
      void navigate({ to: '/console' });
    },
  });
  return (
    <ConfirmButton
      label="Leave organization"
      variant="secondary"
      title={`Leave ${org.organizationName}?`}
      confirmLabel="Leave organization"
      onOpenChange={(open) => !open && leave.reset()}
      isPending={leave.isPending}
      error={leave.error}
      onConfirm={() => leave.mutateAsync()}
    >
      <p>
        You lose access to its projects at once, and the API keys you created there are revoked. To come back you need a new invitation. The
        last owner cannot leave: make someone else owner first.
      </p>
    </ConfirmButton>
  );
}

/** The members and invitations of the organization the current project belongs to. */
export function MembersPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { organization: org, isLoading, error } = useOrganizationOfProject(projectId);
  return (
    <>
      <div className="page-head">
        <h1>Members</h1>
        {org && <LeaveOrganization org={org} />}
      </div>
      {isLoading && <Loading what="the organization" />}
      <ErrorNotice error={error} />
      {!isLoading && !org && !error && <p>This project is not in one of your organizations.</p>}
      {org && (
        <>
          <p className="muted">
            Everyone in {org.organizationName}, with their role in all its projects. Your role: {roleLabel(org.role)}.
            {!isManager(org.role) && ' Owners and admins manage members and invitations.'}
          </p>
          <nav aria-label="Organization" className="row org-links">
            <Link to="/console/projects/$projectId/projects" params={{ projectId }}>
              Projects
            </Link>
            {isManager(org.role) && (
              <Link to="/console/projects/$projectId/audit-log" params={{ projectId }}>
                Audit log
              </Link>
            )}
          </nav>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">People</h2>
            <MembersTable org={org} />
          </section>
          {isManager(org.role) && <Invitations org={org} />}
        </>
      )}
    </>
  );
}
