import { useState } from 'react';
import { fieldErrorsOf } from '../../api/client';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field } from '../../ui/forms';
import type { ProjectOrganization } from '../members/organization';
import { createProject, type Project, projectKeys, renameProject } from './projects.queries';

/** Create (no project) or rename (a project): one name field. */
export function ProjectNameDialog({ org, project }: { org: ProjectOrganization; project?: Project }) {
  const [name, setName] = useState(project?.name ?? '');
  const save = useWrite(
    () => (project ? renameProject(project.id, name.trim()) : createProject(org.organizationId, name.trim())),
    projectKeys.ofOrganization(org.organizationId),
  );
  const fields = fieldErrorsOf(save.error);
  return (
    <FormDialog
      trigger={
        project ? (
          <Button variant="secondary" aria-describedby={`project-${project.id}`}>
            Rename
          </Button>
        ) : (
          <Button>Create project</Button>
        )
      }
      title={project ? `Rename “${project.name}”` : 'Create project'}
      submitLabel={project ? 'Save' : 'Create project'}
      onOpenChange={(open) => (open ? setName(project?.name ?? '') : save.reset())}
      onSubmit={(close) => save.mutate(undefined, { onSuccess: close })}
      isPending={save.isPending}
      error={fields.name ? null : save.error}
    >
      <Field label="Name" isRequired autoFocus maxLength={100} value={name} onChange={setName} error={fields.name} />
      {!project && <p className="muted">A project has its own jobs, keys, webhooks, schedules and usage.</p>}
    </FormDialog>
  );
}
