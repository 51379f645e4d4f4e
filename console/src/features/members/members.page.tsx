import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { meQuery } from '../../api/session';
import { ConfirmAction } from '../../ui/confirm-action';
import { useProjectOfPage } from '../../ui/current-project';
import { ErrorNotice, Loading } from '../../ui/forms';
import { projectKeys } from '../projects/projects.queries';
import { Invitations } from './invitations';
import { MembersTable } from './members-table';
import { removeMember } from './members.queries';
import { type ProjectOrganization, roleLabel, useOrganizationOfProject } from './organization';
import '../../ui/admin.css';

function LeaveOrganization({ org }: { org: ProjectOrganization }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const leave = useMutation({
    mutationFn: () => removeMember(org.organizationId, org.userId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      queryClient.removeQueries({ queryKey: projectKeys.ofOrganization(org.organizationId) });
      void navigate({ to: '/console' });
    },
  });
  return (
    <ConfirmAction
      label="Leave organization"
      variant="secondary"
      title={`Leave ${org.organizationName}?`}
      confirmLabel="Leave organization"
      action={leave}
    >
      <p>
        You lose access to its projects at once, and the API keys you created there are revoked. To come back you need a new invitation. The
        last owner cannot leave: make someone else owner first.
      </p>
    </ConfirmAction>
  );
}

/** The members and invitations of the organization the current project belongs to. */
export function MembersPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { organization: org, isLoading, error } = useOrganizationOfProject(projectId);
  const managesMembers = !!org?.permissions.includes('members.manage');
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
            {!managesMembers && ' Owners and admins manage members and invitations.'}
          </p>
          <nav aria-label="Organization" className="row org-links">
            <Link to="/console/projects/$projectId/projects" params={{ projectId }}>
              Projects
            </Link>
            {org.permissions.includes('audit.read') && (
              <Link to="/console/projects/$projectId/audit-log" params={{ projectId }}>
                Audit log
              </Link>
            )}
          </nav>
          <section aria-labelledby="members-heading">
            <h2 id="members-heading">People</h2>
            <MembersTable org={org} />
          </section>
          {managesMembers && <Invitations org={org} />}
        </>
      )}
    </>
  );
}
