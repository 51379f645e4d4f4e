import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { useOrganizationOfProject } from '../members/organization';
import { ArchiveProject } from './archive-project';
import { ProjectNameDialog } from './project-name-dialog';
import { projectsQuery } from './projects.queries';
import '../../ui/admin.css';

/** The projects of the current project's organization: create, rename, archive, and switch to one. */
export function ProjectsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { organization: org, isLoading, error } = useOrganizationOfProject(projectId);
  const projects = useQuery({ ...projectsQuery(org?.organizationId ?? ''), enabled: !!org });
  const manager = !!org?.permissions.includes('projects.manage');
  return (
    <>
      <div className="page-head">
        <h1>Projects</h1>
        {org && manager && <ProjectNameDialog org={org} />}
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
        <Table
          wrap="table-wrap contained"
          caption={`Projects of ${org.organizationName}`}
          captionHidden
          columns={['Name', 'Created', 'State', ACTIONS]}
        >
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
                      <ProjectNameDialog org={org} project={p} />
                      <ArchiveProject org={org} project={p} />
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
