import { useMutation } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useEffect } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorNotice, Loading } from '../../ui/forms';
import { AuthCard } from '../../ui/layout';

export function VerifyEmailPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const verify = useMutation({ mutationFn: (t: string) => unwrap(api.POST('/v1/account/email-verification', { body: { token: t } })) });
  const { mutate } = verify;
  // once per token
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);

  if (verify.isSuccess) {
    return (
      <AuthCard title="Email verified">
        <p>Your address is confirmed. You can sign in now.</p>
        <p>
          <Link to="/console/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verifying your email">
      {!token && <ErrorNotice error={new Error('This link has no token: open the link from the mail again.')} />}
      {verify.isPending && <Loading what="your verification" />}
      <ErrorNotice error={verify.error} title="This link did not work." />
      {verify.isError && (
        <p>
          Links work once and for 24 hours. <Link to="/console/sign-in">Sign in</Link> to have a new one sent, or{' '}
          <Link to="/console/sign-up">sign up again</Link>.
        </p>
      )}
    </AuthCard>
  );
}
