import { CronExpressionParser } from 'cron-parser';

export type CronCheck = { ok: true; fields: 5 | 6 } | { ok: false; message: string };

/**
 * Standard 5-field cron (minute first) or 6-field (seconds first), evaluated in UTC.
 * Anything else (3, 4 or 7 fields, @-macros with seconds, out-of-range values) is refused
 * with a message that says what a valid expression looks like.
 */
export function checkCron(expression: string): CronCheck {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) {
    return {
      ok: false,
      message: `has ${fields.length} field${fields.length === 1 ? '' : 's'}; use 5 fields "minute hour day-of-month month day-of-week" (e.g. "0 9 * * 1") or 6 with seconds first (e.g. "*/30 * * * * *")`,
    };
  }
  try {
    CronExpressionParser.parse(fields.join(' '), { tz: 'UTC' }).next();
  } catch (err) {
    return { ok: false, message: `is not a valid cron expression: ${(err as Error).message}` };
  }
  return { ok: true, fields: fields.length as 5 | 6 };
}

/** The first fire time strictly after `after`, in UTC. */
export function nextFireAfter(expression: string, after: Date): Date {
  return CronExpressionParser.parse(expression.trim(), { tz: 'UTC', currentDate: after }).next().toDate();
}

/**
 * The shortest gap, in seconds, between two consecutive fires of `expression`, looking at the
 * fires of the coming year (at most `maxFires` of them). Stops early once a gap shorter than
 * `floorSeconds` is seen: the caller only needs to know the floor is broken.
 */
export function shortestIntervalSeconds(expression: string, floorSeconds: number, maxFires = 2_000): number {
  const start = new Date();
  const horizon = start.getTime() + 366 * 24 * 3600 * 1000;
  const it = CronExpressionParser.parse(expression.trim(), { tz: 'UTC', currentDate: start });
  let previous = it.next().getTime();
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < maxFires && it.hasNext(); i++) {
    const fire = it.next().getTime();
    shortest = Math.min(shortest, (fire - previous) / 1000);
    if (shortest < floorSeconds || fire > horizon) break;
    previous = fire;
  }
  return shortest;
}
