import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// `.openapi()` below must work whichever module loads this one first (a no-op once zod is extended).
extendZodWithOpenApi(z);

/**
 * Date and timestamp query parameters (`from`, `to`, `changedSince`, …), one reading for every
 * endpoint. The API's time zone is UTC everywhere (docs/http-api.md), so a timestamp without an
 * offset (`2026-03-01T12:00`) is UTC, never the server's local time; a bare date
 * (`2026-03-01`) is that UTC day. Impossible dates and times (`2026-02-30`, `2026-02-29`,
 * `24:00`) are refused rather than rolled over to the next valid one, as `Date.parse` does.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const DAY_MS = 24 * 3600 * 1000;

export interface ApiDate {
  /** The instant; a bare date: its first millisecond (UTC). */
  start: Date;
  /** The same instant; a bare date: its last millisecond (UTC), so `to=2026-03-01` covers that day. */
  end: Date;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * `Date.UTC` for every four-digit year: `Date.UTC` itself reads years 0 to 99 as 1900 to 1999,
 * so `0050-01-01` would silently mean 1950. The year is set apart, after the rest.
 */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millis));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** Parses a date parameter, or says in a few words what is wrong with it. */
export function parseApiDate(value: string): ApiDate | { problem: string } {
  const m = ISO.exec(value);
  if (!m) return { problem: 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SSZ)' };
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return { problem: `${m[1]}-${m[2]}-${m[3]} is not a calendar date` };
  if (m[4] === undefined) {
    const start = utc(year, month, day);
    return { start: new Date(start), end: new Date(start + DAY_MS - 1) };
  }
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return { problem: 'has a time of day out of range (00:00:00 to 23:59:59)' };
  const millis = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const offset = offsetMinutes(m[8]);
  if (offset === null) return { problem: 'has an offset out of range (Z, or -23:59 to +23:59)' };
  const instant = new Date(utc(year, month, day, hour, minute, second, millis) - offset * 60_000);
  return { start: instant, end: instant };
}

/** Minutes east of UTC; no offset at all is UTC (the API's time zone). */
function offsetMinutes(raw: string | undefined): number | null {
  if (!raw || raw === 'Z' || raw === 'z') return 0;
  const digits = raw.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
  if (hours > 23 || minutes > 59) return null;
  return (raw[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const dateParam = (bound: keyof ApiDate) =>
  z.string().transform((value, ctx) => {
    const parsed = parseApiDate(value);
    if ('problem' in parsed) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.problem });
      return z.NEVER;
    }
    return parsed[bound];
  });

/** A lower bound (`from`, `changedSince`): a bare date means its midnight UTC. */
export const dateLowerBound = dateParam('start').openapi({
  type: 'string',
  description: 'ISO 8601 date (`2026-03-01`: from the start of that UTC day) or timestamp; a timestamp without an offset is UTC',
});
/** An upper bound (`to`, inclusive): a bare date covers that whole UTC day. */
export const dateUpperBound = dateParam('end').openapi({
  type: 'string',
  description:
    'ISO 8601 date (`2026-03-01`: through the end of that UTC day) or timestamp, inclusive; a timestamp without an offset is UTC',
});
