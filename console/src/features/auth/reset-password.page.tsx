import { useMutation } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { fieldErrorsOf } from '../../api/client';
import { Button, ErrorNotice, Field } from '../../ui/forms';
import { AuthCard, AuthDone, NewPasswordField } from './auth-card';
import { confirmPasswordReset, requestPasswordReset } from './auth.queries';

/** Without a token: ask for a link. With one (from the mail): choose a new password. */
export function ResetPasswordPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const [value, setValue] = useState('');
  const reset = useMutation({ mutationFn: () => (token ? confirmPasswordReset(token, value) : requestPasswordReset(value)) });
  const fields = fieldErrorsOf(reset.error);

  if (reset.isSuccess) {
    return (
      <AuthDone title={token ? 'Password changed' : 'Check your email'}>
        {token
          ? 'Every session of your account was signed out. Sign in with the new password.'
          : `If ${value} has an account, a link to reset its password is on its way. It works for one hour.`}
      </AuthDone>
    );
  }
  return (
    <AuthCard title={token ? 'Choose a new password' : 'Reset your password'}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          reset.mutate();
        }}
      >
        {token ? (
          <NewPasswordField label="New password" value={value} onChange={setValue} error={fields.password} />
        ) : (
          <Field label="Email" type="email" autoComplete="email" isRequired value={value} onChange={setValue} error={fields.email} />
        )}
        <ErrorNotice error={Object.keys(fields).length ? null : reset.error} />
        <Button type="submit">{token ? 'Set password' : 'Send link'}</Button>
      </Form>
    </AuthCard>
  );
}
