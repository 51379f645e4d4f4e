import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';

/**
 * Cron as the API reads it: 5 fields, or 6 with seconds first, evaluated in UTC (docs/schedules-and-tracking.md, "Schedules").
 * cronstrue and cron-parser both take seconds first when there are 6 fields.
 */
const fieldCount = (cron: string) => cron.trim().split(/\s+/).filter(Boolean).length;

/** "At 09:00 AM, only on Monday (UTC)", or null when the expression is not one the API takes. */
export function describeCron(cron: string): string | null {
  const fields = fieldCount(cron);
  if (fields !== 5 && fields !== 6) return null;
  try {
    return `${cronstrue.toString(cron.trim(), { throwExceptionOnParseError: true, verbose: false })} (UTC)`;
  } catch {
    return null;
  }
}

/** The next `count` fire times after `after`, or [] for an expression that does not parse. */
export function nextRuns(cron: string, count: number, after: Date = new Date()): Date[] {
  const fields = fieldCount(cron);
  if (fields !== 5 && fields !== 6) return [];
  try {
    return CronExpressionParser.parse(cron.trim(), { tz: 'UTC', currentDate: after })
      .take(count)
      .map((d) => d.toDate());
  } catch {
    return [];
  }
}
