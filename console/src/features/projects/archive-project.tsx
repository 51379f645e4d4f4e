import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import type { ProjectOrganization } from '../members/organization';
import { archiveProject, type Project, projectKeys } from './projects.queries';

export function ArchiveProject({ org, project }: { org: ProjectOrganization; project: Project }) {
  const archive = useWrite(() => archiveProject(project.id), projectKeys.ofOrganization(org.organizationId));
  return (
    <ConfirmAction
      label="Archive"
      describedBy={`project-${project.id}`}
      title={`Archive “${project.name}”?`}
      confirmLabel="Archive project"
      action={archive}
    >
      <p>
        Its API keys are revoked and its schedules disabled at once; its jobs, results and usage stay readable. It cannot be archived while
        jobs are queued or running. Archiving cannot be undone.
      </p>
    </ConfirmAction>
  );
}
