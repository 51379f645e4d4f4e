import { Link } from '@tanstack/react-router';
import { AuthCard } from '../features/auth/auth-card';

/** Any console address no route matches. `/console` leads to the first project's Overview (or sign-in). */
export function NotFoundPage() {
  return (
    <AuthCard title="Page not found">
      <p>There is no console page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/console">Back to the Overview</Link>
      </p>
    </AuthCard>
  );
}
