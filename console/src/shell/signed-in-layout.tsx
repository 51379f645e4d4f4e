import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import type { Me } from '../api/session';
import { signOut } from '../features/auth/auth.queries';
import { useAllProjects } from '../features/projects/projects.queries';
import { ProjectContext } from '../ui/current-project';
import { Button, SelectField } from '../ui/forms';

const SECTIONS = [
  { label: 'Overview', to: '/console/projects/$projectId' },
  { label: 'Jobs', to: '/console/projects/$projectId/jobs' },
  { label: 'API keys', to: '/console/projects/$projectId/keys' },
  { label: 'Usage', to: '/console/projects/$projectId/usage' },
  { label: 'Webhooks', to: '/console/projects/$projectId/webhooks' },
  { label: 'Schedules', to: '/console/projects/$projectId/schedules' },
  { label: 'Tracking', to: '/console/projects/$projectId/tracking' },
  { label: 'Alerts', to: '/console/projects/$projectId/alerts' },
  { label: 'Destinations', to: '/console/projects/$projectId/destinations' },
  { label: 'Members', to: '/console/projects/$projectId/members' },
  { label: 'Projects', to: '/console/projects/$projectId/projects' },
  { label: 'Audit log', to: '/console/projects/$projectId/audit-log' },
] as const;

/** Every signed-in page: the navigation `Main`, the `Project` switcher and `Sign out`. */
export function SignedInLayout({ me }: { me: Me }) {
  const [projectId, setProjectId] = useState<string | null>(null);
  const { projects } = useAllProjects(me);
  const current = projectId ?? projects[0]?.id ?? null;
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const queryClient = useQueryClient();

  const switchTo = (id: string) => {
    setProjectId(id);
    // the same page in the other project; a job's or schedule's page goes to the project's list
    const section = /\/console\/projects\/[^/]+\/([\w-]+)/.exec(pathname)?.[1] ?? 'jobs';
    void navigate({ to: `/console/projects/$projectId/${section}` as '/console/projects/$projectId/jobs', params: { projectId: id } });
  };

  // the cache is emptied once the signed-in pages are gone: emptied under them, their queries
  // would ask again with the ended session (a 401 each)
  const leave = async () => {
    await queryClient.cancelQueries();
    await signOut();
    await navigate({ to: '/console/sign-in' });
    queryClient.clear();
  };

  return (
    <ProjectContext.Provider value={{ projectId: current, setProjectId }}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Crawl Data Service</span>
        {projects.length > 0 && current && (
          <SelectField
            label="Project"
            value={current}
            onChange={switchTo}
            options={projects.map((p) => ({
              value: p.id,
              label: `${p.name}${p.archivedAt ? ' (archived)' : ''}`,
              group: p.organizationName,
            }))}
          />
        )}
        <span className="user muted">{me.user.email}</span>
        <Button variant="secondary" onPress={leave}>
          Sign out
        </Button>
      </header>
      <div className="shell">
        <nav aria-label="Main" className="sidenav">
          <ul>
            {current &&
              SECTIONS.map((s) => (
                <li key={s.label}>
                  {/* the Overview's path is every project page's prefix: it is current only on itself */}
                  <Link
                    to={s.to}
                    params={{ projectId: current }}
                    activeOptions={{ exact: true, includeSearch: false }}
                    activeProps={{ 'aria-current': 'page', className: 'active' }}
                  >
                    {s.label}
                  </Link>
                </li>
              ))}
            <li>
              <a href="/docs">API docs</a>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </ProjectContext.Provider>
  );
}
