import { useOrganizationOfProject } from '../members/organization';

/**
 * Who can add credits, for a job refused for want of them. Credits are the organization's, and
 * only the service's operators grant them (docs/tenancy-and-credits.md: `admin grant-credits`);
 * no role of a member can, and the console sells none. The organization's id is what they ask for.
 */
export function CreditsHelp({ projectId }: { projectId: string }) {
  const { organization } = useOrganizationOfProject(projectId);
  return (
    <p className="problem-detail">
      Remove targets or pages, or ask the operators of this service to grant credits to{' '}
      {organization ? (
        <>
          your organization {organization.organizationName} (<code>{organization.organizationId}</code>)
        </>
      ) : (
        'your organization'
      )}
      : credits are shared by all its projects, and only the operators can add them.
    </p>
  );
}
