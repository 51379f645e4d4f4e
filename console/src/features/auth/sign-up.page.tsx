import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { fieldErrorsOf } from '../../api/client';
import { Button, ErrorNotice, Field } from '../../ui/forms';
import { AuthCard, AuthDone, NewPasswordField } from './auth-card';
import { signUp } from './auth.queries';

/** Runtime settings the gateway serves as /console/settings.js (no inline script under the CSP). */
const settings = (window as unknown as { __CONSOLE_SETTINGS__?: { signupMode?: string } }).__CONSOLE_SETTINGS__ ?? {};

export function SignUpPage() {
  const [values, setValues] = useState({ email: '', password: '', organizationName: '' });
  const signup = useMutation({ mutationFn: () => signUp(values) });
  const fields = fieldErrorsOf(signup.error);
  // the API's answer was about the form as it was: an edit makes it stale
  const edit = (patch: Partial<typeof values>) => {
    setValues({ ...values, ...patch });
    if (signup.error) signup.reset();
  };

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

  if (signup.isSuccess) {
    return (
      <AuthDone title="Check your email">
        We sent a link to <strong>{values.email}</strong>. Open it to verify your address, then sign in. The link works for 24 hours.
      </AuthDone>
    );
  }

  return (
    <AuthCard title="Create your account">
      <Form
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          signup.mutate();
        }}
      >
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          isRequired
          value={values.email}
          onChange={(email) => edit({ email })}
          error={fields.email}
        />
        <NewPasswordField value={values.password} onChange={(password) => edit({ password })} error={fields.password} />
        <Field
          label="Organization name"
          autoComplete="organization"
          isRequired
          value={values.organizationName}
          onChange={(organizationName) => edit({ organizationName })}
          error={fields.organizationName}
        />
        <ErrorNotice error={Object.keys(fields).length ? null : signup.error} />
        <Button type="submit" isDisabled={signup.isPending}>
          Create account
        </Button>
      </Form>
      <p className="muted">
        Already have an account? <Link to="/console/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
