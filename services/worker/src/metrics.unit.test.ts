/**
 * The location sessions' series on /metrics (docs/operations.md, "Health, metrics and logs"): read
 * from the crawler's sessions on scrape, counters that only grow by what happened since the
 * last scrape.
 */
import { createSession, destroySession, type Exit, LocationSessions } from '@crawl/marketplace';
import { Registry } from '@crawl/observability';
import { locationMetrics } from './metrics';

const exit: Exit = {
  spec: { key: 'e0', label: 'e0', proxy: null, rps: 1, maxInFlight: 0 },
  session: createSession(0, null),
  refusals: 0,
  failures: 0,
};
afterAll(() => destroySession(exit.session));

const sample = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

it('shows setups by outcome, mismatches, the sessions held and their estimated heap', async () => {
  const registry = new Registry();
  const sessions = new LocationSessions({ max: 8, perTenant: 8, idleMs: 60_000 });
  locationMetrics(registry, sessions);
  const a = sessions.get(exit, 'US', '60601', 't');
  a.session.cookieJar.setCookieSync('session-id=131-4567890-1234567; Path=/', 'https://www.amazon.com/');
  sessions.settled(a, { ok: true });
  sessions.settled(sessions.get(exit, 'US', '98101', 't'), { ok: false, refused: true, detail: 'not updated' });
  sessions.mismatched();
  let text = await registry.metrics();
  expect(sample(text, 'crawl_location_setups_total{outcome="ok"}')).toBe(1);
  expect(sample(text, 'crawl_location_setups_total{outcome="refused"}')).toBe(1);
  expect(sample(text, 'crawl_location_setups_total{outcome="blocked"}')).toBe(0);
  expect(sample(text, 'crawl_location_mismatches_total')).toBe(1);
  expect(sample(text, 'crawl_location_sessions')).toBe(2);
  expect(sample(text, 'crawl_location_session_bytes')).toBe(sessions.stats().bytes);

  // a later scrape: counters grow by what happened since, not again by the totals
  await new Promise((r) => setTimeout(r, 1_100));
  sessions.settled(sessions.get(exit, 'US', '10001', 't'), { ok: true });
  text = await registry.metrics();
  expect(sample(text, 'crawl_location_setups_total{outcome="ok"}')).toBe(2);
  expect(sample(text, 'crawl_location_mismatches_total')).toBe(1);
  expect(sample(text, 'crawl_location_sessions')).toBe(3);
});
