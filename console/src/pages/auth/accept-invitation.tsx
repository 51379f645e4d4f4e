import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ApiError, unwrap } from '../../api/client';
import { useMe } from '../../api/session';
import { Button, ErrorNotice, Field, Loading } from '../../ui/forms';
import { AuthCard } from '../../ui/layout';

/** Signed in: one button. Not signed in: a password creates the account the invitation is for. */
export function AcceptInvitationPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const me = useMe();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [joined, setJoined] = useState<{ organizationName: string; role: string } | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = error instanceof ApiError ? error.fieldErrors() : {};

  const accept = async (body: { token: string; password?: string }) => {
    setError(null);
    try {
      const { data } = await unwrap(api.POST('/v1/account/invitations/accept', { body }));
      setJoined(data);
      await queryClient.invalidateQueries();
    } catch (err) {
      setError(err);
    }
  };

  if (!token)
    return (
      <AuthCard title="Invitation">
        {<ErrorNotice error={new Error('This link has no token: open the link from the mail again.')} />}
      </AuthCard>
    );
  if (me.isLoading)
    return (
      <AuthCard title="Invitation">
        <Loading what="your session" />
      </AuthCard>
    );
  if (joined) {
    return (
      <AuthCard title={`You joined ${joined.organizationName}`}>
        <p>Your role: {joined.role}.</p>
        <p>
          {me.data ? (
            <Button onPress={() => void navigate({ to: '/console' })}>Open the console</Button>
          ) : (
            <Link to="/console/sign-in">Sign in</Link>
          )}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Accept the invitation">
      {me.data ? (
        <>
          <p>
            Signed in as <strong>{me.data.user.email}</strong>. The invitation must be for this address.
          </p>
          <ErrorNotice error={error} />
          <Button onPress={() => void accept({ token })}>Accept invitation</Button>
        </>
      ) : (
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            void accept({ token, password });
          }}
        >
          <p>
            Choose a password for your new account, or{' '}
            <Link to="/console/sign-in" search={{ redirect: `/console/accept-invitation?token=${token}` }}>
              sign in
            </Link>{' '}
            if you already have one.
          </p>
          <Field
            label="Password"
            type="password"
            autoComplete="new-password"
            description="At least 10 characters."
            isRequired
            value={password}
            onChange={setPassword}
            error={fields.password}
          />
          <ErrorNotice error={Object.keys(fields).length ? null : error} />
          <Button type="submit">Create account and join</Button>
        </Form>
      )}
    </AuthCard>
  );
}
