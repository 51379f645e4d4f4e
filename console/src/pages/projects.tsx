import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { api, ApiError, type Schemas, unwrap } from '../api/client';
import { projectsQuery } from '../api/projects';
import { Button, EmptyState, ErrorNotice, Field, Loading } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { DateTime } from '../ui/time';
import { ConfirmButton } from './members/confirm';
import { isManager, type ProjectOrganization, useOrganizationOfProject } from './members/organization';
import './members/admin.css';

type Project = Schemas['Project'];

/** Create (no project) or rename (a project): one name field. */
function NameDialog({ org, project }: { org: ProjectOrganization; project?: Project }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(project?.name ?? '');
  const save = useMutation({
    mutationFn: () =>
      project
        ? unwrap(
            api.PATCH('/v1/account/projects/{projectId}', { params: { path: { projectId: project.id } }, body: { name: name.trim() } }),
          )
        : unwrap(
            api.POST('/v1/account/organizations/{orgId}/projects', {
              params: { path: { orgId: org.organizationId } },
              body: { name: name.trim() },
            }),
          ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['projects', org.organizationId] }),
  });
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const title = project ? `Rename “${project.name}”` : 'Create project';
  return (
    <DialogTrigger onOpenChange={(open) => (open ? setName(project?.name ?? '') : save.reset())}>
      {project ? (
        <Button variant="secondary" aria-describedby={`project-${project.id}`}>
          Rename
        </Button>
      ) : (
        <Button>Create project</Button>
      )}
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) => (
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                if (!save.isPending) save.mutate(undefined, { onSuccess: close });
              }}
            >
              <Heading slot="title">{title}</Heading>
              <Field label="Name" isRequired autoFocus maxLength={100} value={name} onChange={setName} error={fields.name} />
              {!project && <p className="muted">A project has its own jobs, keys, webhooks, schedules and usage.</p>}
              <ErrorNotice error={fields.name ? null : save.error} />
              <div className="row">
                <Button type="submit" isPending={save.isPending}>
                  {project ? 'Save' : 'Create project'}
                </Button>
                <Button variant="secondary" onPress={close}>
                  Cancel
                </Button>
              </div>
            </Form>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function ArchiveProject({ org, project }: { org: ProjectOrganization; project: Project }) {
  const queryClient = useQueryClient();
  const archive = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/account/projects/{projectId}', { params: { path: { projectId: project.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['projects', org.organizationId] }),
  });
  return (
    <ConfirmButton
      label="Archive"
      describedBy={`project-${project.id}`}
      title={`Archive “${project.name}”?`}
      confirmLabel="Archive project"
      onOpenChange={(open) => !open && archive.reset()}
      isPending={archive.isPending}
      error={archive.error}
      onConfirm={() => archive.mutateAsync()}
    >
      <p>
        Its API keys are revoked and its schedules disabled at once; its jobs, results and usage stay readable. It cannot be archived while
        jobs are queued or running. Archiving cannot be undone.
      </p>
    </ConfirmButton>
  );
}

/** The projects of the current project's organization: create, rename, archive, and switch to one. */
export function ProjectsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { organization: org, isLoading, error } = useOrganizationOfProject(projectId);
  const projects = useQuery({ ...projectsQuery(org?.organizationId ?? ''), enabled: !!org });
  const manager = isManager(org?.role);
  return (
    <>
      <div className="page-head">
        <h1>Projects</h1>
        {org && manager && <NameDialog org={org} />}
      </div>
      {(isLoading || projects.isLoading) && <Loading what="projects" />}
      <ErrorNotice error={error ?? projects.error} />
      {org && (
        <p className="muted">
          The projects of {org.organizationName}.{!manager && ' Owners and admins create, rename and archive them.'}
        </p>
      )}
      {projects.data && projects.data.length === 0 && (
        <EmptyState title="No projects">
          <p>{manager ? 'Create one to start crawling.' : 'Ask an owner or admin to create one.'}</p>
        </EmptyState>
      )}
      {org && projects.data && projects.data.length > 0 && (
        <div className="table-wrap contained">
          <table>
            <caption className="visually-hidden">Projects of {org.organizationName}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {projects.data.map((p) => (
                <tr key={p.id}>
                  <td id={`project-${p.id}`}>
                    {p.id === projectId ? (
                      <strong>
                        {p.name} <span className="muted">(current)</span>
                      </strong>
                    ) : (
                      <Link to="/console/projects/$projectId/jobs" params={{ projectId: p.id }}>
                        {p.name}
                      </Link>
                    )}
                    <span className="block muted mono">{p.id}</span>
                  </td>
                  <td className="nowrap">
                    <DateTime value={p.createdAt} />
                  </td>
                  <td>
                    {p.archivedAt ? (
                      <>
                        <span className="badge warn">Archived</span>{' '}
                        <span className="muted">
                          <DateTime value={p.archivedAt} />
                        </span>
                      </>
                    ) : (
                      <span className="badge ok">Active</span>
                    )}
                  </td>
                  <td>
                    <div className="actions-wrap">
                      {p.id !== projectId && (
                        <Link to="/console/projects/$projectId/jobs" params={{ projectId: p.id }} aria-describedby={`project-${p.id}`}>
                          Switch to it
                        </Link>
                      )}
                      {manager && !p.archivedAt && (
                        <>
                          <NameDialog org={org} project={p} />
                          <ArchiveProject org={org} project={p} />
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
