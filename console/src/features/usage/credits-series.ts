import type { Schemas } from '../../api/client';
import { count } from '../../ui/format';

export interface CreditsBucket {
  /** Bucket start, ms. */
  start: number;
  consumed: number;
  reserved: number;
  refunded: number;
}

type Daily = Schemas['Analytics']['daily'];
type Ledger = Schemas['LedgerEntry'][];

/** Per UTC day, straight from the analytics `daily` series (zero-filled by the API, one entry per day). */
export function bucketsFromDaily(daily: Daily, buckets: number[]): CreditsBucket[] {
  const byDate = new Map(daily.map((d) => [d.date, d.credits]));
  return buckets.map((start) => {
    const credits = byDate.get(new Date(start).toISOString().slice(0, 10));
    return { start, consumed: credits?.consumed ?? 0, reserved: credits?.reserved ?? 0, refunded: credits?.refunded ?? 0 };
  });
}

/** Per hour, summed from ledger entries (the API has no hourly series); grants are not usage and are left out. */
export function bucketsFromLedger(ledger: Ledger, buckets: number[], bucketMs: number): CreditsBucket[] {
  const out = buckets.map((start) => ({ start, consumed: 0, reserved: 0, refunded: 0 }));
  const first = buckets[0] ?? 0;
  for (const entry of ledger) {
    const index = Math.floor((Date.parse(entry.createdAt) - first) / bucketMs);
    const bucket = out[index];
    if (!bucket) continue;
    if (entry.kind === 'consume') bucket.consumed += entry.amount;
    else if (entry.kind === 'reserve') bucket.reserved += entry.amount;
    else if (entry.kind === 'refund') bucket.refunded += entry.amount;
  }
  return out;
}

/** The one-line summary of the chart, e.g. "Last 7 days: 120 consumed, 130 reserved, 10 refunded; most on Nov 24 (60 consumed)." */
export function summarizeCredits(buckets: CreditsBucket[], rangeLabel: string, formatBucket: (start: number) => string): string {
  const total = (k: 'consumed' | 'reserved' | 'refunded') => buckets.reduce((sum, b) => sum + b[k], 0);
  const consumed = total('consumed');
  const head = `${rangeLabel}: ${count(consumed)} consumed, ${count(total('reserved'))} reserved, ${count(total('refunded'))} refunded`;
  if (!consumed) return `${head}.`;
  const peak = buckets.reduce((best, b) => (b.consumed > best.consumed ? b : best));
  return `${head}; most on ${formatBucket(peak.start)} (${count(peak.consumed)} consumed).`;
}
