import type { AlertCondition, AlertValue, JobType } from '@crawl/core';
import type { PriceMedians } from '@crawl/db';
import type { FieldChange, ProductSnapshot } from './product-snapshot';

/**
 * Alert conditions, pure functions (docs/alerts.md). A rule reads a product's state as product
 * pages showed it (`page_state`: details, offers and reviews crawls), never a search card's: a
 * card's price is another offer, and a product crawled both ways would otherwise flip between
 * the two on every crawl.
 */

/** The crawls that observe a product page, and so move the state alert rules read. */
export const PAGE_SOURCES: readonly JobType[] = ['details', 'offers', 'reviews'];

/** Which page crawls may move each condition: prices, stock and the buy box come from the product page and its offers only. */
const SOURCES: Record<AlertCondition['type'], readonly JobType[]> = {
  price_below: ['details', 'offers'],
  price_above: ['details', 'offers'],
  price_drop_pct: ['details', 'offers'],
  price_rise_pct: ['details', 'offers'],
  back_in_stock: ['details'],
  out_of_stock: ['details'],
  seller_changed: ['details', 'offers'],
  rating_below: ['details', 'reviews'],
  field_changed: PAGE_SOURCES,
};

/** One product page observation, as a rule sees it. */
export interface PageObservation {
  source: JobType;
  /** What this crawl showed (null: not observed). */
  observed: ProductSnapshot;
  /** The page state before it (null: the product's first product-page observation). */
  before: ProductSnapshot | null;
  /** The page state after it. */
  after: ProductSnapshot;
  /** What changed between the two (the rules of product-snapshot.ts). */
  changes: FieldChange[];
}

export interface ConditionResult {
  /** null: this observation says nothing about the condition (a field not shown, a crawl that does not move it). */
  holds: boolean | null;
  value: AlertValue;
  previous: AlertValue;
  baseline: number | null;
  /**
   * Whether the condition held on the state before, judged by the same rule: known for a level
   * (a price under a threshold), not for a change (a seller that changed), which is false unless
   * the rule's own state says otherwise.
   */
  heldBefore: boolean;
}

const cents = (v: number) => Math.round(v * 100);

function baselineOf(
  condition: { baseline: 'previous' | 'median_7d' | 'median_30d' },
  o: PageObservation,
  medians?: PriceMedians,
): number | null {
  if (condition.baseline === 'previous') return o.before?.price ?? null;
  return (condition.baseline === 'median_7d' ? medians?.median7d : medians?.median30d) ?? null;
}

/** The percentage `price` is under (drop) or over (rise) `base`, in hundredths to keep float noise out. */
const pctDiff = (price: number, base: number, dir: 1 | -1) => Math.round(((dir * (price - base)) / base) * 10_000) / 100;

/** The condition on this observation, and on the state before it. */
export function evaluateCondition(condition: AlertCondition, o: PageObservation, medians?: PriceMedians): ConditionResult {
  const none: ConditionResult = { holds: null, value: null, previous: null, baseline: null, heldBefore: false };
  if (!SOURCES[condition.type].includes(o.source)) return none;
  const before = o.before;
  switch (condition.type) {
    case 'price_below':
    case 'price_above': {
      if (o.observed.price === null) return none;
      const test = (p: number | null | undefined) =>
        p !== null &&
        p !== undefined &&
        (condition.type === 'price_below' ? cents(p) < cents(condition.value) : cents(p) > cents(condition.value));
      return {
        holds: test(o.after.price),
        value: o.after.price,
        previous: before?.price ?? null,
        baseline: null,
        heldBefore: test(before?.price),
      };
    }
    case 'price_drop_pct':
    case 'price_rise_pct': {
      const price = o.observed.price;
      const base = baselineOf(condition, o, medians);
      if (price === null || base === null || base <= 0) return none;
      const dir = condition.type === 'price_drop_pct' ? -1 : 1;
      const test = (p: number | null | undefined) => p !== null && p !== undefined && pctDiff(p, base, dir) >= condition.value;
      // against the previous price the state before is the baseline itself: never a drop
      const heldBefore = condition.baseline !== 'previous' && test(before?.price);
      return { holds: test(price), value: price, previous: before?.price ?? null, baseline: base, heldBefore };
    }
    case 'back_in_stock':
    case 'out_of_stock': {
      if (o.observed.availability === null) return none;
      const wanted = condition.type === 'back_in_stock' ? 'in_stock' : 'out_of_stock';
      return {
        holds: o.after.availability === wanted,
        value: o.after.availability,
        previous: before?.availability ?? null,
        baseline: null,
        heldBefore: before?.availability === wanted,
      };
    }
    case 'seller_changed': {
      if (o.observed.seller === null) return none;
      return {
        holds: o.changes.some((c) => c.field === 'seller'),
        value: o.after.seller,
        previous: before?.seller ?? null,
        baseline: null,
        heldBefore: false,
      };
    }
    case 'rating_below': {
      if (o.observed.rating === null) return none;
      const test = (r: number | null | undefined) => r !== null && r !== undefined && Math.round(r * 10) < Math.round(condition.value * 10);
      return {
        holds: test(o.after.rating),
        value: o.after.rating,
        previous: before?.rating ?? null,
        baseline: null,
        heldBefore: test(before?.rating),
      };
    }
    case 'field_changed': {
      const field = condition.field;
      if (o.observed[field] === null) return none;
      return {
        holds: o.changes.some((c) => c.field === field),
        value: o.after[field],
        previous: before?.[field] ?? null,
        baseline: null,
        heldBefore: false,
      };
    }
  }
}

/** Whether a rule needs the product's price medians. */
export const needsMedians = (c: AlertCondition) =>
  (c.type === 'price_drop_pct' || c.type === 'price_rise_pct') && c.baseline !== 'previous';

export type Verdict = 'alert' | 'cooling_down' | 'quiet';

/**
 * A rule's decision for one product: an alert only when the condition turns from false to true
 * (never on the product's first product-page observation), and only once `cooldownSeconds` have
 * passed since its last alert for that product. `state` is the rule's own memory of the product
 * (absent: it never held since the rule saw the product, or the rule never saw it; then the state
 * before is judged by the condition itself).
 */
export function decide(
  result: ConditionResult,
  o: Pick<PageObservation, 'before'>,
  state: { firing: boolean; lastAlertAt: Date | null } | undefined,
  cooldownSeconds: number,
  now: Date,
): { verdict: Verdict; firing: boolean } | null {
  if (result.holds === null) return null;
  if (!result.holds) return { verdict: 'quiet', firing: false };
  if (!o.before) return { verdict: 'quiet', firing: true };
  const was = state ? state.firing : result.heldBefore;
  if (was) return { verdict: 'quiet', firing: true };
  if (state?.lastAlertAt && now.getTime() - state.lastAlertAt.getTime() < cooldownSeconds * 1000)
    return { verdict: 'cooling_down', firing: true };
  return { verdict: 'alert', firing: true };
}
