import type { Schemas } from '../../api/client';
import type { WebhookConfig } from './webhooks.queries';

export type TestResult = { config: WebhookConfig; result: Schemas['WebhookTestResult'] };

/** What a test delivery got back: the receiver's status (or that none came), the time it took, and the delivery's id. */
export function TestOutcome({ tested }: { tested: TestResult }) {
  const { config, result } = tested;
  return (
    <p className={`notice ${result.success ? 'ok' : 'error'}`}>
      Test {result.event} to <span className="mono">{config.url}</span>:{' '}
      {result.statusCode !== null ? <strong>HTTP {result.statusCode}</strong> : <strong>no HTTP answer</strong>} in {result.durationMs} ms
      {result.error && result.statusCode === null ? ` (${result.error})` : ''}.{' '}
      {result.success ? 'The receiver accepted it.' : 'The receiver did not answer 2xx.'}{' '}
      <span className="muted">
        Delivery <span className="mono">{result.deliveryId}</span>
      </span>
    </p>
  );
}
