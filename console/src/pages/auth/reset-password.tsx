import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ApiError, unwrap } from '../../api/client';
import { Button, ErrorNotice, Field } from '../../ui/forms';
import { AuthCard } from '../../ui/layout';

/** Without a token: ask for a link. With one (from the mail): choose a new password. */
export function ResetPasswordPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const [value, setValue] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const fields = error instanceof ApiError ? error.fieldErrors() : {};

  if (done) {
    return (
      <AuthCard title={token ? 'Password changed' : 'Check your email'}>
        <p>
          {token
            ? 'Every session of your account was signed out. Sign in with the new password.'
            : `If ${value} has an account, a link to reset its password is on its way. It works for one hour.`}
        </p>
        <p>
          <Link to="/console/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={token ? 'Choose a new password' : 'Reset your password'}>
      <Form
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            if (token) await unwrap(api.POST('/v1/account/password-reset/confirm', { body: { token, password: value } }));
            else await unwrap(api.POST('/v1/account/password-reset', { body: { email: value } }));
            setDone(true);
          } catch (err) {
            setError(err);
          }
        }}
      >
        {token ? (
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            description="At least 10 characters."
            isRequired
            value={value}
            onChange={setValue}
            error={fields.password}
          />
        ) : (
          <Field label="Email" type="email" autoComplete="email" isRequired value={value} onChange={setValue} error={fields.email} />
        )}
        <ErrorNotice error={Object.keys(fields).length ? null : error} />
        <Button type="submit">{token ? 'Set password' : 'Send link'}</Button>
      </Form>
    </AuthCard>
  );
}
