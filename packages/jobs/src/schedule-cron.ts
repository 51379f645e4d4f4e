import { CronExpressionParser } from 'cron-parser';

/**
 * The examples the refusal message recommends. Both fire far less often than the plans' minimum
 * interval between runs (60 s), so a user who copies one gets a schedule, not a second 400.
 */
export const FIVE_FIELD_EXAMPLE = '0 9 * * 1'; // Mondays at 09:00 UTC
export const SIX_FIELD_EXAMPLE = '30 */15 * * * *'; // every 15 minutes, at second 30

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
      message: `has ${fields.length} field${fields.length === 1 ? '' : 's'}; use 5 fields "minute hour day-of-month month day-of-week" (e.g. "${FIVE_FIELD_EXAMPLE}") or 6 with seconds first (e.g. "${SIX_FIELD_EXAMPLE}")`,
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
 * The shortest gap, in seconds, between two fires of `expression`, computed from its
 * second, minute and hour sets rather than by walking fire times (walking a year of an hourly
 * cron took ~150-300 ms of the gateway's event loop per request). Restricting days only
 * removes fires, so the gaps within a day, and from the last fire of a day to the first of
 * the next, bound every gap from below; the bound is exact when every day is allowed.
 */
export function shortestIntervalSeconds(expression: string): number {
  const { second, minute, hour } = CronExpressionParser.parse(expression.trim(), { tz: 'UTC' }).fields;
  const [S, M, H] = [second, minute, hour].map((f) => f.values.map(Number).sort((x, y) => x - y)) as [number[], number[], number[]];
  const first = (xs: number[]) => xs[0]!;
  const last = (xs: number[]) => xs[xs.length - 1]!;
  const closest = (xs: number[]) => xs.slice(1).reduce((min, x, i) => Math.min(min, x - xs[i]!), Number.POSITIVE_INFINITY);
  // Fire times of a day are hours x minutes x seconds in order: the gaps are within a minute,
  // from one allowed minute to the next, from one allowed hour to the next, and across midnight.
  const spanOfMinute = last(S) - first(S);
  const spanOfHour = last(M) * 60 + last(S) - (first(M) * 60 + first(S));
  return Math.min(
    closest(S),
    closest(M) * 60 - spanOfMinute,
    closest(H) * 3600 - spanOfHour,
    86_400 - (last(H) * 3600 + last(M) * 60 + last(S)) + (first(H) * 3600 + first(M) * 60 + first(S)),
  );
}
