import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { fieldErrorsOf } from '../../api/client';
import { useMe } from '../../api/session';
import { Button, ErrorNotice, Loading } from '../../ui/forms';
import { AuthCard, NewPasswordField } from './auth-card';
import { acceptInvitation } from './auth.queries';

/** Signed in: one button. Not signed in: a password creates the account the invitation is for. */
export function AcceptInvitationPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const me = useMe();
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: acceptInvitation,
    // the new membership changes what every page shows
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const error = accept.error;
  const joined = accept.data;
  const fields = fieldErrorsOf(error);

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
          <Button onPress={() => accept.mutate({ token })}>Accept invitation</Button>
        </>
      ) : (
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            accept.mutate({ token, password });
          }}
        >
          <p>
            Choose a password for your new account, or{' '}
            <Link to="/console/sign-in" search={{ redirect: `/console/accept-invitation?token=${token}` }}>
              sign in
            </Link>{' '}
            if you already have one.
          </p>
          <NewPasswordField value={password} onChange={setPassword} error={fields.password} />
          <ErrorNotice error={Object.keys(fields).length ? null : error} />
          <Button type="submit">Create account and join</Button>
        </Form>
      )}
    </AuthCard>
  );
}
