import { CronExpressionParser } from 'cron-parser';
import { checkCron, FIVE_FIELD_EXAMPLE, nextFireAfter, shortestIntervalSeconds, SIX_FIELD_EXAMPLE } from './schedule-cron';

it('accepts 5- and 6-field expressions and computes UTC fire times', () => {
  expect(checkCron('0 9 * * 1')).toEqual({ ok: true, fields: 5 });
  expect(checkCron('*/2 * * * * *')).toEqual({ ok: true, fields: 6 });
  expect(nextFireAfter('0 9 * * 1', new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-05T09:00:00.000Z');
  expect(nextFireAfter('*/2 * * * * *', new Date('2026-01-01T00:00:01.500Z')).toISOString()).toBe('2026-01-01T00:00:02.000Z');
  // strictly after: a fire time is never returned twice
  expect(nextFireAfter('*/2 * * * * *', new Date('2026-01-01T00:00:02.000Z')).toISOString()).toBe('2026-01-01T00:00:04.000Z');
});

it.each(['* * *', '* * * * * * *', '61 * * * *', 'every minute', '', '0 25 * * *'])('refuses %j with a helpful message', (expr) => {
  const check = checkCron(expr);
  expect(check.ok).toBe(false);
  if (!check.ok) expect(check.message.length).toBeGreaterThan(10);
});

it('recommends, in the refusal, examples that are valid and respect the 60 s minimum interval', () => {
  const check = checkCron('*/30 * * *');
  expect(check).toEqual({ ok: false, message: expect.stringContaining(`"${FIVE_FIELD_EXAMPLE}"`) });
  if (!check.ok) expect(check.message).toContain(`"${SIX_FIELD_EXAMPLE}"`);
  expect(checkCron(FIVE_FIELD_EXAMPLE)).toEqual({ ok: true, fields: 5 });
  expect(checkCron(SIX_FIELD_EXAMPLE)).toEqual({ ok: true, fields: 6 });
  for (const example of [FIVE_FIELD_EXAMPLE, SIX_FIELD_EXAMPLE]) expect(shortestIntervalSeconds(example)).toBeGreaterThanOrEqual(60);
  expect(shortestIntervalSeconds(SIX_FIELD_EXAMPLE)).toBe(900);
});

describe('shortestIntervalSeconds', () => {
  /** The same figure by walking fire times (what the function avoids on the request path). */
  function walked(expression: string): number {
    const it = CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: new Date('2026-01-01T00:00:00Z') });
    let previous = it.next().getTime();
    let shortest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3_000; i++) {
      const fire = it.next().getTime();
      shortest = Math.min(shortest, (fire - previous) / 1000);
      previous = fire;
    }
    return shortest;
  }

  it.each([
    '0 * * * *',
    '*/5 * * * *',
    '0 9 * * *',
    '* * * * * *',
    '0,59 0,1 9 * * *',
    '0 0,1 9 * * *',
    '0 0,23 * * *',
    '*/30 * * * * *',
    '15,45 10-12 * * *',
    '0 */7 * * *',
    '5,50 */2 * * * *',
    '59 23 * * *',
    '0,30 0 0,12 * * *',
  ])('%s: computed from the field sets, equal to walking its fires', (expression) => {
    expect(shortestIntervalSeconds(expression)).toBe(walked(expression));
  });

  it('restricting days only removes fires: the figure is a lower bound', () => {
    expect(shortestIntervalSeconds('0 0,23 * * 1')).toBe(3_600); // Monday 23:00 -> Tuesday 00:00 never fires; refusing is the safe side
  });
});
