import { DateTime } from '../../ui/time';
import type { Delivery } from './webhooks.queries';

type Attempt = Delivery['attempts'][number];

export function AttemptOutcome({ attempt }: { attempt: Attempt }) {
  return attempt.statusCode !== null ? (
    <span className={attempt.success ? 'ok-text' : 'bad-text'}>HTTP {attempt.statusCode}</span>
  ) : (
    <span className="bad-text">{attempt.error ?? 'no answer'}</span>
  );
}

/** The attempts of a delivery (the API keeps the last 10), behind a native disclosure. */
export function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span className="muted">none yet</span>;
  return (
    <details className="attempts">
      <summary>
        {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
      </summary>
      <ol>
        {delivery.attempts.map((a) => (
          <li key={a.attempt}>
            #{a.attempt}
            {a.manual ? ' (manual)' : ''}: <AttemptOutcome attempt={a} />, {a.durationMs} ms, <DateTime value={a.createdAt} withSeconds />
            {a.error && a.statusCode !== null && a.error !== `HTTP ${a.statusCode}` && <span className="block muted">{a.error}</span>}
            {a.responseBody && <pre className="snippet">{a.responseBody}</pre>}
          </li>
        ))}
      </ol>
    </details>
  );
}
