import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, setCsrfToken, unwrap } from '../api/client';
import { useAllProjects } from '../api/projects';
import type { Me } from '../api/session';
import { Button, SelectField } from './forms';

/** The project the signed-in pages act in: from the path, or from the job or schedule a page shows. */
const ProjectContext = createContext<{ projectId: string | null; setProjectId: (id: string) => void }>({
  projectId: null,
  setProjectId: () => undefined,
});

export const useCurrentProject = () => useContext(ProjectContext);

/** Pages call this with the project they show, so the navigation and the switcher follow. */
export function useProjectOfPage(projectId: string | undefined) {
  const { setProjectId } = useCurrentProject();
  useEffect(() => {
    if (projectId) setProjectId(projectId);
  }, [projectId, setProjectId]);
}

const SECTIONS = [
  { label: 'Jobs', to: '/console/projects/$projectId/jobs' },
  { label: 'API keys', to: '/console/projects/$projectId/keys' },
  { label: 'Usage', to: '/console/projects/$projectId/usage' },
  { label: 'Webhooks', to: '/console/projects/$projectId/webhooks' },
  { label: 'Schedules', to: '/console/projects/$projectId/schedules' },
  { label: 'Tracking', to: '/console/projects/$projectId/tracking' },
  { label: 'Members', to: '/console/projects/$projectId/members' },
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

  const signOut = async () => {
    await unwrap(api.DELETE('/v1/account/sessions/current')).catch(() => undefined);
    setCsrfToken(null);
    queryClient.clear();
    void navigate({ to: '/console/sign-in' });
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
        <Button variant="secondary" onPress={signOut}>
          Sign out
        </Button>
      </header>
      <div className="shell">
        <nav aria-label="Main" className="sidenav">
          <ul>
            {current &&
              SECTIONS.map((s) => (
                <li key={s.label}>
                  <Link to={s.to} params={{ projectId: current }} activeProps={{ 'aria-current': 'page', className: 'active' }}>
                    {s.label}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </ProjectContext.Provider>
  );
}

/** The sign-up, sign-in and mail-link pages: one centred card. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth">
      <div className="card">
        <p className="brand">Crawl Data Service</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
