import { checkCron, nextFireAfter } from './schedule-cron';

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
