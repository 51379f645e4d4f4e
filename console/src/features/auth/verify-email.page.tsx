import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { ErrorNotice, Loading } from '../../ui/forms';
import { AuthCard, AuthDone } from './auth-card';
import { authKeys, verifyEmail } from './auth.queries';

/**
 * A token works once: however often the page renders or mounts, it is sent once per page load
 * (the same promise is shared), or a second send would turn a success into "link used".
 */
type Verification = ReturnType<typeof verifyEmail>;
const sent = new Map<string, Verification>();
function verifyOnce(token: string): Verification {
  let verification = sent.get(token);
  if (!verification) {
    verification = verifyEmail(token);
    sent.set(token, verification);
  }
  return verification;
}

export function VerifyEmailPage() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const verify = useQuery({
    queryKey: authKeys.verification(token),
    queryFn: () => verifyOnce(token!),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });

  if (verify.isSuccess && verify.data.data.alreadyVerified) {
    // a link opened again (the API says so only to a real link whose address is verified)
    return (
      <AuthCard title="Email already verified">
        <p>This link was used before: your address is confirmed, and there is nothing more to do.</p>
        <p className="row">
          <Link to="/console/sign-in">Sign in</Link>
          <Link to="/console">Go to the console</Link>
        </p>
      </AuthCard>
    );
  }
  if (verify.isSuccess) {
    return <AuthDone title="Email verified">Your address is confirmed. You can sign in now.</AuthDone>;
  }
  return (
    <AuthCard title="Verifying your email">
      {!token && <ErrorNotice error={new Error('This link has no token: open the link from the mail again.')} />}
      {verify.isLoading && <Loading what="your verification" />}
      <ErrorNotice error={verify.error} title="This link did not work." />
      {verify.isError && (
        <p>
          Links work for 24 hours, until the address is verified. <Link to="/console/sign-in">Sign in</Link> to have a new one sent, or{' '}
          <Link to="/console/sign-up">sign up again</Link>.
        </p>
      )}
    </AuthCard>
  );
}
