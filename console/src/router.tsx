import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  type RouteComponent,
} from '@tanstack/react-router';
import { meQuery } from './api/session';
import { AcceptInvitationPage } from './features/auth/accept-invitation.page';
import { ResetPasswordPage } from './features/auth/reset-password.page';
import { SignInPage } from './features/auth/sign-in.page';
import { SignUpPage } from './features/auth/sign-up.page';
import { VerifyEmailPage } from './features/auth/verify-email.page';
import { fetchProjects } from './features/projects/projects.queries';
import { isRange, type TrackingSearch } from './features/tracking/tracking-search';
import { SignedInLayout } from './shell/signed-in-layout';
import { ErrorNotice } from './ui/forms';
import { NotFoundPage } from './shell/not-found.page';

/** Signed-in pages load with their route: the sign-in page's JavaScript stays small. */
const AlertsPage = lazyRouteComponent(() => import('./features/alerts/alerts.page'), 'AlertsPage');
const AuditLogPage = lazyRouteComponent(() => import('./features/audit-log/audit-log.page'), 'AuditLogPage');
const DestinationsPage = lazyRouteComponent(() => import('./features/destinations/destinations.page'), 'DestinationsPage');
const JobPage = lazyRouteComponent(() => import('./features/jobs/job.page'), 'JobPage');
const JobsPage = lazyRouteComponent(() => import('./features/jobs/jobs.page'), 'JobsPage');
const KeysPage = lazyRouteComponent(() => import('./features/keys/keys.page'), 'KeysPage');
const OverviewPage = lazyRouteComponent(() => import('./features/overview/overview.page'), 'OverviewPage');
const MembersPage = lazyRouteComponent(() => import('./features/members/members.page'), 'MembersPage');
const ProjectsPage = lazyRouteComponent(() => import('./features/projects/projects.page'), 'ProjectsPage');
const SchedulesPage = lazyRouteComponent(() => import('./features/schedules/schedules.page'), 'SchedulesPage');
const TrackingPage = lazyRouteComponent(() => import('./features/tracking/tracking.page'), 'TrackingPage');
const UsagePage = lazyRouteComponent(() => import('./features/usage/usage.page'), 'UsagePage');
const WebhooksPage = lazyRouteComponent(() => import('./features/webhooks/webhooks.page'), 'WebhooksPage');

/**
 * Every page and its path. Filters and pagination live in the URL (each page's `validateSearch`),
 * so a view can be bookmarked, shared and reloaded. Signed-in pages sit under one layout route
 * that loads the user first and sends anyone signed out to the sign-in page.
 */
const root = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  errorComponent: ({ error }) => (
    <main id="main" className="auth">
      <ErrorNotice error={error} title="Something went wrong." />
    </main>
  ),
});

const tokenSearch = (search: Record<string, unknown>): { token?: string } => ({
  token: typeof search.token === 'string' ? search.token : undefined,
});

const signIn = createRoute({
  getParentRoute: () => root,
  path: '/console/sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: typeof search.redirect === 'string' ? search.redirect : undefined,
  }),
  component: SignInPage,
});
const signUp = createRoute({ getParentRoute: () => root, path: '/console/sign-up', component: SignUpPage });

/** A page a mail links to, with the link's one-time `?token=`. */
const mailLinkPage = <P extends string>(path: P, component: RouteComponent) =>
  createRoute({ getParentRoute: () => root, path, validateSearch: tokenSearch, component });
const verifyEmail = mailLinkPage('/console/verify-email', VerifyEmailPage);
const resetPassword = mailLinkPage('/console/reset-password', ResetPasswordPage);
const acceptInvitation = mailLinkPage('/console/accept-invitation', AcceptInvitationPage);

/** The signed-in layout: no session, no page (back to sign-in, then here again). */
const signedIn = createRoute({
  getParentRoute: () => root,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/console/sign-in', search: { redirect: location.href } });
    return { me };
  },
  component: function SignedIn() {
    const { me } = signedIn.useRouteContext();
    return <SignedInLayout me={me} />;
  },
});

/** `/console`: the first project's Overview (a new user has one project, `Default`). */
const home = createRoute({
  getParentRoute: () => signedIn,
  path: '/console',
  beforeLoad: async ({ context }) => {
    const { me } = context;
    for (const m of me.memberships) {
      const data = await fetchProjects(m.organizationId);
      const project = data.find((p) => !p.archivedAt) ?? data[0];
      if (project) throw redirect({ to: '/console/projects/$projectId', params: { projectId: project.id } });
    }
  },
  component: () => <p>You belong to no organization with a project yet. Ask for an invitation, or create an account.</p>,
});

const projectPage = (path: string, component: RouteComponent, validateSearch?: (s: Record<string, unknown>) => object) =>
  createRoute({
    getParentRoute: () => signedIn,
    path: `/console/projects/$projectId/${path}`,
    component,
    ...(validateSearch ? { validateSearch } : {}),
  });

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const int = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) >= 0 ? Number(v) : undefined);

export interface JobsSearch {
  status?: string;
  type?: string;
  q?: string;
  from?: string;
  to?: string;
  offset?: number;
}
export const jobsRoute = projectPage('jobs', JobsPage, (s): JobsSearch => ({
  status: text(s.status),
  type: text(s.type),
  q: text(s.q),
  from: text(s.from),
  to: text(s.to),
  offset: int(s.offset),
}));
const jobRoute = createRoute({ getParentRoute: () => signedIn, path: '/console/jobs/$jobId', component: JobPage });
const overviewRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/console/projects/$projectId',
  validateSearch: (s: Record<string, unknown>): { range?: string } => ({ range: text(s.range) }),
  component: OverviewPage,
});
const routes = [
  overviewRoute,
  jobsRoute,
  jobRoute,
  projectPage('keys', KeysPage),
  projectPage('usage', UsagePage, (s): { range?: string; offset?: number } => ({ range: text(s.range), offset: int(s.offset) })),
  projectPage('webhooks', WebhooksPage, (s): { status?: string; event?: string; offset?: number } => ({
    status: text(s.status),
    event: text(s.event),
    offset: int(s.offset),
  })),
  projectPage('schedules', SchedulesPage),
  projectPage('tracking', TrackingPage, (s): TrackingSearch => ({
    q: text(s.q),
    sort: text(s.sort),
    offset: int(s.offset),
    asin: text(s.asin),
    marketplace: text(s.marketplace),
    postalCode: text(s.postalCode),
    range: isRange(s.range) ? s.range : undefined,
    from: text(s.from),
    to: text(s.to),
  })),
  projectPage('destinations', DestinationsPage, (s): { destination?: string; status?: string; offset?: number } => ({
    destination: text(s.destination),
    status: text(s.status),
    offset: int(s.offset),
  })),
  projectPage('alerts', AlertsPage, (s): { offset?: number } => ({ offset: int(s.offset) })),
  projectPage('members', MembersPage),
  projectPage('projects', ProjectsPage),
  projectPage('audit-log', AuditLogPage, (s): { offset?: number } => ({ offset: int(s.offset) })),
];

const tree = root.addChildren([signIn, signUp, verifyEmail, resetPassword, acceptInvitation, signedIn.addChildren([home, ...routes])]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({ routeTree: tree, context: { queryClient }, defaultPreload: 'intent', defaultNotFoundComponent: NotFoundPage });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
