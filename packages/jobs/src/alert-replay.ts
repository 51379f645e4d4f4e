import type { AlertCondition, AlertStatus, AlertValue, JobType } from '@crawl/core';
import type { PriceMedians, RuleSeriesState } from '@crawl/db';
import { needsMedians } from './alert-conditions';
import { stepRule } from './alert-evaluation';
import { diffSnapshot, type ProductSnapshot } from './product-snapshot';

/**
 * A rule replayed over a project's stored snapshots, as if it had existed all along (the
 * preview, docs/alerts.md): each product-page observation is turned into the page state before
 * and after it with the tracking path's own diff, and taken through the same step as the
 * tracking transaction (stepRule), at the time it was recorded; the daily cap is counted per UTC
 * day of those times.
 */

/** One stored product-page observation of a series. */
export interface StoredObservation {
  source: JobType;
  capturedAt: Date;
  snapshot: ProductSnapshot;
}

/** One product series (ASIN, marketplace, delivery location) as the replay reads it. */
export interface ReplaySeries {
  asin: string;
  marketplace: string;
  postalCode: string;
  /** Its last observation of each page source before the period, oldest first: the page state it starts from. */
  seed: StoredObservation[];
  /** Its observations in the period, in the order they were recorded. */
  observations: StoredObservation[];
  /** The page prices (details and offers) from 30 days before the period to its end, oldest first: the medians' input. */
  prices: { capturedAt: Date; price: number }[];
}

export interface ReplayedAlert {
  asin: string;
  marketplace: string;
  postalCode: string;
  status: AlertStatus;
  firedAt: Date;
  value: AlertValue;
  previous: AlertValue;
  baseline: number | null;
}

export interface ReplayRule {
  condition: AlertCondition;
  cooldownSeconds: number;
  maxPerDay: number;
}

const DAY_MS = 86_400_000;

/** percentile_cont(0.5), as the tracking transaction's medians are computed in Postgres. */
function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (sorted.length - 1) / 2;
  return (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
}

/** The medians evaluation reads at `at`: the page prices of the 7 and 30 days before it, itself excluded. */
function mediansAt(prices: ReplaySeries['prices'], at: Date): PriceMedians {
  const t = at.getTime();
  const in30 = prices.filter((p) => p.capturedAt.getTime() >= t - 30 * DAY_MS && p.capturedAt.getTime() < t);
  return {
    median7d: median(in30.filter((p) => p.capturedAt.getTime() >= t - 7 * DAY_MS).map((p) => p.price)),
    median30d: median(in30.map((p) => p.price)),
  };
}

/** The alerts one series would have fired, before the daily cap. */
function replaySeries(rule: ReplayRule, s: ReplaySeries): Omit<ReplayedAlert, 'status'>[] {
  let page: ProductSnapshot | null = null;
  for (const o of s.seed) page = diffSnapshot(page, o.snapshot).merged;
  let state: RuleSeriesState | undefined;
  const alerts: Omit<ReplayedAlert, 'status'>[] = [];
  const medians = needsMedians(rule.condition);
  for (const o of s.observations) {
    const before = page;
    const diff = diffSnapshot(before, o.snapshot);
    const observation = { asin: s.asin, source: o.source, observed: o.snapshot, before, after: diff.merged, changes: diff.changes };
    const step = stepRule({ id: '', ...rule }, observation, state, medians ? mediansAt(s.prices, o.capturedAt) : undefined, o.capturedAt);
    if (step.state) state = step.state;
    if (step.alert) {
      const { value, previous, baseline } = step.alert;
      alerts.push({ asin: s.asin, marketplace: s.marketplace, postalCode: s.postalCode, firedAt: o.capturedAt, value, previous, baseline });
    }
    page = diff.merged;
  }
  return alerts;
}

/** Every alert the rule would have fired over `series`, oldest first, each sent or suppressed by `maxPerDay`. */
export function replayRule(rule: ReplayRule, series: ReplaySeries[]): ReplayedAlert[] {
  const fired = series.flatMap((s) => replaySeries(rule, s)).sort((a, b) => a.firedAt.getTime() - b.firedAt.getTime());
  const sentOn = new Map<string, number>();
  return fired.map((a) => {
    const day = a.firedAt.toISOString().slice(0, 10);
    const sent = sentOn.get(day) ?? 0;
    if (sent >= rule.maxPerDay) return { ...a, status: 'suppressed' as const };
    sentOn.set(day, sent + 1);
    return { ...a, status: 'sent' as const };
  });
}
