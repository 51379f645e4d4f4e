import { FIELD_LABELS, formatMoney, formatRank } from '../tracking/format';
import type { Alert, AlertCondition } from './alerts.queries';

export type ConditionType = AlertCondition['type'];
export type Baseline = Extract<AlertCondition, { baseline: string }>['baseline'];
export type WatchedField = Extract<AlertCondition, { field: string }>['field'];

/** What a condition's `value` is: a price in the product's currency, a percentage, a number of stars; none for the others. */
type ValueKind = 'price' | 'percent' | 'stars';

interface ConditionKind {
  label: string;
  value?: { kind: ValueKind; help: string };
  /** A percentage against a baseline (`previous`, `median_7d`, `median_30d`). */
  baseline?: true;
  /** `field_changed`: which snapshot field. */
  field?: true;
}

/**
 * Every condition type of the API (docs/alerts.md, "Conditions"): a `Record` of the generated
 * union's `type`, so a type the API adds fails the type check here until the form knows it, and
 * the `Condition` combobox lists this table's keys.
 */
export const CONDITIONS: Record<ConditionType, ConditionKind> = {
  price_below: {
    label: 'Price falls below',
    value: { kind: 'price', help: "A price in the product's currency, such as 19.99." },
  },
  price_above: {
    label: 'Price rises above',
    value: { kind: 'price', help: "A price in the product's currency, such as 50." },
  },
  price_drop_pct: {
    label: 'Price drops by a percentage',
    value: { kind: 'percent', help: 'Percent under the baseline, above 0 and under 100, such as 10.' },
    baseline: true,
  },
  price_rise_pct: {
    label: 'Price rises by a percentage',
    value: { kind: 'percent', help: 'Percent over the baseline, above 0, such as 10.' },
    baseline: true,
  },
  back_in_stock: { label: 'Back in stock' },
  out_of_stock: { label: 'Out of stock' },
  seller_changed: { label: 'Buy box goes to another seller' },
  rating_below: {
    label: 'Rating falls below',
    value: { kind: 'stars', help: 'Stars, above 0 and at most 5, to one decimal, such as 4.' },
  },
  field_changed: { label: 'A field changes', field: true },
};

export const CONDITION_TYPES = Object.keys(CONDITIONS) as ConditionType[];

export const BASELINES: Record<Baseline, string> = {
  previous: 'The price before',
  median_7d: 'Median of the last 7 days',
  median_30d: 'Median of the last 30 days',
};

export const WATCHED_FIELDS = Object.keys(FIELD_LABELS) as WatchedField[];

/** A condition in words: "Price falls below 19.99", "Price drops by 10 % from the median of the last 7 days". */
export function describeCondition(c: AlertCondition): string {
  switch (c.type) {
    case 'price_below':
    case 'price_above':
    case 'rating_below':
      return `${CONDITIONS[c.type].label} ${c.value}${c.type === 'rating_below' ? ' stars' : ''}`;
    case 'price_drop_pct':
    case 'price_rise_pct':
      return `Price ${c.type === 'price_drop_pct' ? 'drops' : 'rises'} by ${c.value} % from ${BASELINES[c.baseline].toLowerCase()}`;
    case 'field_changed':
      return `${FIELD_LABELS[c.field]} changes`;
    default:
      return CONDITIONS[c.type].label;
  }
}

/** What an alert's condition looked at, in words: money for prices, a rank with its category, yes/no. */
export function formatAlertValue(alert: Alert, which: 'value' | 'previous' | 'baseline'): string {
  const v = alert[which];
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return formatRank(v);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  const c = alert.condition;
  const isPrice =
    c.type.startsWith('price_') ||
    (c.type === 'field_changed' && (c.field === 'price' || c.field === 'listPrice' || c.field === 'lowestNewPrice'));
  if (typeof v === 'number' && isPrice) return formatMoney(v, alert.snapshot.currency);
  if (typeof v === 'number' && c.type === 'rating_below') return `${v} stars`;
  // availability statuses (in_stock, out_of_stock) read as words
  return c.type === 'back_in_stock' || c.type === 'out_of_stock' ? String(v).replace(/_/g, ' ') : String(v);
}
