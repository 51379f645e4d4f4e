import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Field } from '../../ui/forms';

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

/** The end of a mail or account step: what happened, and the way to sign in. */
export function AuthDone({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AuthCard title={title}>
      <p>{children}</p>
      <p>
        <Link to="/console/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}

/** A new password, with the API's rule said beside it. */
export function NewPasswordField(props: { label?: string; value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <Field
      label={props.label ?? 'Password'}
      type="password"
      autoComplete="new-password"
      description="At least 10 characters."
      isRequired
      value={props.value}
      onChange={props.onChange}
      error={props.error}
    />
  );
}
