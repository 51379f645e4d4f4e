import { EndpointBreakers } from './endpoint-breaker';

const settings = { failures: 3, pauseMs: 1_000, maxPauseMs: 3_000 };
const T = 1_000_000;

/** Records `n` unanswered attempts of `id` at `now`; returns the last result. */
function unanswered(breakers: EndpointBreakers, id: string, n: number, now: number): number | null {
  let result: number | null = null;
  for (let i = 0; i < n; i++) result = breakers.record(id, false, false, now);
  return result;
}

it('pauses an endpoint after `failures` unanswered attempts in a row, not before', () => {
  const breakers = new EndpointBreakers(settings);
  expect(unanswered(breakers, 'whk_a', 2, T)).toBeNull();
  expect(breakers.isPaused('whk_a', T)).toBe(false);
  expect(breakers.record('whk_a', false, false, T)).toBe(T + 1_000);
  expect(breakers.isPaused('whk_a', T + 999)).toBe(true);
  expect(breakers.isPaused('whk_a', T + 1_000)).toBe(false);
  expect(breakers.paused(T + 10)).toEqual(['whk_a']);
  expect(breakers.isPaused('whk_b', T)).toBe(false);
});

it('opens once per pause: more unanswered attempts during a pause do not extend it', () => {
  const breakers = new EndpointBreakers(settings);
  unanswered(breakers, 'whk_a', 3, T);
  expect(unanswered(breakers, 'whk_a', 5, T + 500)).toBeNull();
  expect(breakers.pausedUntil('whk_a')).toBe(T + 1_000);
});

it('doubles each pause that follows without a success, up to the longest, and forgets it all on a success', () => {
  const breakers = new EndpointBreakers(settings);
  expect(unanswered(breakers, 'whk_a', 3, T)).toBe(T + 1_000);
  // The probe after the pause goes unanswered too: paused again at once, twice as long.
  expect(breakers.record('whk_a', false, false, T + 1_000)).toBe(T + 3_000);
  expect(breakers.record('whk_a', false, false, T + 3_000)).toBe(T + 3_000 + 3_000); // capped at maxPauseMs
  breakers.record('whk_a', true, true, T + 6_000);
  expect(breakers.isPaused('whk_a', T + 6_000)).toBe(false);
  expect(unanswered(breakers, 'whk_a', 2, T + 7_000)).toBeNull();
  expect(unanswered(breakers, 'whk_a', 1, T + 7_000)).toBe(T + 8_000);
});

it('never pauses an endpoint that answers, even with errors, and a success resets the count', () => {
  const breakers = new EndpointBreakers(settings);
  for (let i = 0; i < 10; i++) expect(breakers.record('whk_a', false, true, T)).toBeNull();
  unanswered(breakers, 'whk_a', 2, T);
  breakers.record('whk_a', true, true, T);
  expect(unanswered(breakers, 'whk_a', 2, T)).toBeNull();
  expect(breakers.paused(T)).toEqual([]);
});
