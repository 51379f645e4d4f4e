import type { Schemas } from '../../api/client';
import { formatTime } from '../../ui/time';
import { formatMoney } from './format';

type Entry = Schemas['TimelineEntry'];

const day = (iso: string) => formatTime(iso);

/**
 * The timeline in one line: the latest price move ("Price fell from $24.99 to $19.99 on Nov 26, 2026, 1:49 PM UTC."),
 * or the price it held. `entries` are oldest first.
 */
export function summarizeTimeline(entries: Entry[]): string {
  const last = entries[entries.length - 1];
  if (!last) return 'No snapshots yet.';
  for (let i = entries.length - 1; i > 0; i--) {
    const change = entries[i]!.changes.find((c) => c.field === 'price');
    if (change && change.field === 'price') {
      const currency = entries[i]!.snapshot.currency;
      const verb = change.to < change.from ? 'fell' : 'rose';
      return `Price ${verb} from ${formatMoney(change.from, currency)} to ${formatMoney(change.to, currency)} on ${day(entries[i]!.capturedAt)}.`;
    }
  }
  const count = `${entries.length} snapshot${entries.length === 1 ? '' : 's'}`;
  if (last.snapshot.price == null) return `No price seen in ${count} since ${day(entries[0]!.capturedAt)}.`;
  return `Price held at ${formatMoney(last.snapshot.price, last.snapshot.currency)} over ${count} since ${day(entries[0]!.capturedAt)}.`;
}
