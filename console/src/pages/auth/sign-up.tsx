import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ApiError, unwrap } from '../../api/client';
import { Button, ErrorNotice, Field } from '../../ui/forms';
import { AuthCard } from '../../ui/layout';

/** Runtime settings the gateway serves as /console/settings.js (no inline script under the CSP). */
const settings = (window as unknown as { __CONSOLE_SETTINGS__?: { signupMode?: string } }).__CONSOLE_SETTINGS__ ?? {};

export function SignUpPage() {
  const [values, setValues] = useState({ email: '', password: '', organizationName: '' });
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const fields = error instanceof ApiError ? error.fieldErrors() : {};

  if (settings.signupMode && settings.signupMode !== 'open') {
    return (
      <AuthCard title="Sign-up is closed">
        <p>
          {settings.signupMode === 'invite'
            ? "Accounts on this service are made by invitation: ask your organization's owner or admin to invite you."
            : 'This service does not take new accounts.'}
        </p>
        <p>
          Already have an account? <Link to="/console/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    );
  }

  if (sent) {
    return (
      <AuthCard title="Check your email">
        <p>
          We sent a link to <strong>{values.email}</strong>. Open it to verify your address, then sign in. The link works for 24 hours.
        </p>
        <p>
          <Link to="/console/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create your account">
      <Form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await unwrap(api.POST('/v1/account/signup', { body: values }));
            setSent(true);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          isRequired
          value={values.email}
          onChange={(email) => setValues({ ...values, email })}
          error={fields.email}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          isRequired
          description="At least 10 characters."
          value={values.password}
          onChange={(password) => setValues({ ...values, password })}
          error={fields.password}
        />
        <Field
          label="Organization name"
          autoComplete="organization"
          isRequired
          value={values.organizationName}
          onChange={(organizationName) => setValues({ ...values, organizationName })}
          error={fields.organizationName}
        />
        <ErrorNotice error={Object.keys(fields).length ? null : error} />
        <Button type="submit" isDisabled={busy}>
          Create account
        </Button>
      </Form>
      <p className="muted">
        Already have an account? <Link to="/console/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
