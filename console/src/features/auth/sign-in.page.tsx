import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { ApiError } from '../../api/client';
import { meQuery } from '../../api/session';
import { Button, ErrorNotice, Field } from '../../ui/forms';
import { AuthCard } from './auth-card';
import { resendVerification, signIn } from './auth.queries';

export function SignInPage() {
  const [values, setValues] = useState({ email: '', password: '' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const session = useMutation({
    mutationFn: async () => {
      await signIn(values);
      await queryClient.invalidateQueries();
      await queryClient.fetchQuery(meQuery);
    },
    onSuccess: () => {
      // only a path of the console, never another origin
      const target = search.redirect?.startsWith('/console/') ? search.redirect : '/console';
      void navigate({ to: target });
    },
  });

  return (
    <AuthCard title="Sign in">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          session.mutate();
        }}
      >
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          isRequired
          value={values.email}
          onChange={(email) => setValues({ ...values, email })}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          isRequired
          value={values.password}
          onChange={(password) => setValues({ ...values, password })}
        />
        <ErrorNotice error={session.error} />
        {session.error instanceof ApiError && session.error.code === 'EMAIL_NOT_VERIFIED' && <ResendVerification email={values.email} />}
        <Button type="submit" isDisabled={session.isPending}>
          Sign in
        </Button>
      </Form>
      <p className="muted">
        <Link to="/console/reset-password">Forgot your password?</Link>
      </p>
      <p className="muted">
        New here? <Link to="/console/sign-up">Create account</Link>
      </p>
    </AuthCard>
  );
}

/** After EMAIL_NOT_VERIFIED: one button for a new link (the API answers alike for every address). */
function ResendVerification({ email }: { email: string }) {
  const [sent, setSent] = useState(false);
  return (
    <p className="row">
      <Button
        variant="secondary"
        isDisabled={sent}
        onPress={async () => {
          await resendVerification(email).catch(() => undefined);
          setSent(true);
        }}
      >
        Send a new verification link
      </Button>
      <span role="status">{sent ? 'Sent: check your email.' : ''}</span>
    </p>
  );
}
