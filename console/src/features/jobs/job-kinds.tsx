import type { ReactNode } from 'react';
import type { Schemas } from '../../api/client';
import { count } from '../../ui/format';
import type { JobType } from './jobs.queries';

/** The stored result item of each job type, as the API's document names it. */
interface ResultItems {
  details: Schemas['DetailsResultItem'];
  search: Schemas['SearchResultItem'];
  offers: Schemas['OfferResultItem'];
  bestsellers: Schemas['BestsellerResultItem'];
  reviews: Schemas['ReviewResultItem'];
}

export interface ResultColumn<Item> {
  header: string;
  cell: (item: Item) => ReactNode;
  className?: string;
}

/** What a target of a job type is (the API's `normalizeTargets` decides what it accepts). */
export type TargetKind = 'keyword' | 'asin' | 'bestseller-list';

/** Everything the console says or offers about one job type. */
export interface JobKindView<T extends JobType> {
  /** Its name in the jobs list, on the job page and in the new-job form. */
  label: string;
  /** Its name in the schedule form, which says "Search results" for a search. */
  scheduleLabel: string;
  target: TargetKind;
  /** The new-job form's help under Targets, and the field's placeholder. */
  targetHelp: string;
  placeholder: string;
  /** `config.pages` as the new-job form offers it (the API's maximum for the type); absent: the form does not ask. */
  pages?: { max: number; what: string };
  /** Whether `config.sort` applies: the form offers Sort. */
  sortable: boolean;
  /** The results table's main fields; the whole item is one click away (`Raw`). */
  columns: ResultColumn<ResultItems[T]>[];
}

const money = (m: Schemas['Money'] | null) =>
  m ? (
    <span className="nowrap">
      {m.amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} {m.currency}
    </span>
  ) : (
    <span className="muted">—</span>
  );
const maybe = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? <span className="muted">—</span> : v);
const yesNo = (v: boolean | null) => (v === null ? <span className="muted">—</span> : v ? 'Yes' : 'No');
const rating = (v: number | null) => (v === null ? <span className="muted">—</span> : `${v.toFixed(1)} / 5`);
const asin = (v: string) => <span className="mono">{v}</span>;
const title = (text: string | null, url?: string | null) =>
  text && url ? (
    <a href={url} target="_blank" rel="noreferrer noopener">
      {text}
    </a>
  ) : (
    maybe(text)
  );

/**
 * The console's one table of job types, keyed by the API's `JobType` enum: a type the API adds
 * fails the console's type-check here (docs/adding-a-job-type.md) instead of going missing from
 * a form or a list. Every list of types is this table's keys, in this order.
 */
export const JOB_KINDS: { [T in JobType]: JobKindView<T> } = {
  search: {
    label: 'Search',
    scheduleLabel: 'Search results',
    target: 'keyword',
    targetHelp: 'One search keyword per line, e.g. “usb c cable”.',
    placeholder: 'usb c cable\nwireless mouse',
    pages: { max: 7, what: 'Result pages per keyword' },
    sortable: false,
    columns: [
      { header: 'Keyword', cell: (i) => i.keyword },
      { header: 'Position', className: 'nowrap', cell: (i) => `${i.position} (page ${i.page})` },
      { header: 'ASIN', cell: (i) => asin(i.asin) },
      { header: 'Title', cell: (i) => title(i.title, i.url), className: 'cell-title' },
      { header: 'Price', className: 'nowrap', cell: (i) => money(i.price) },
      { header: 'Rating', className: 'nowrap', cell: (i) => rating(i.rating) },
      { header: 'Sponsored', cell: (i) => yesNo(i.isSponsored) },
    ],
  },
  details: {
    label: 'Product details',
    scheduleLabel: 'Product details',
    target: 'asin',
    targetHelp: 'One product per line: an ASIN (B0DR8G428S) or a product URL (…/dp/B0DR8G428S).',
    placeholder: 'B0DR8G428S\nhttps://www.amazon.com/dp/B08N5WRWNW',
    sortable: false,
    columns: [
      { header: 'ASIN', cell: (i) => asin(i.asin) },
      { header: 'Title', cell: (i) => title(i.title, i.url), className: 'cell-title' },
      { header: 'Brand', cell: (i) => maybe(i.brand) },
      { header: 'Price', className: 'nowrap', cell: (i) => money(i.price) },
      { header: 'Rating', className: 'nowrap', cell: (i) => rating(i.rating) },
      { header: 'Reviews', cell: (i) => maybe(i.reviewsCount === null ? null : count(i.reviewsCount)) },
      { header: 'Availability', cell: (i) => i.availability.status.replace(/_/g, ' ') },
    ],
  },
  offers: {
    label: 'Offers',
    scheduleLabel: 'Offers',
    target: 'asin',
    targetHelp: 'One product per line whose offers (sellers, prices) to list: an ASIN or a product URL.',
    placeholder: 'B0DR8G428S',
    sortable: false,
    columns: [
      { header: 'ASIN', cell: (i) => asin(i.asin) },
      { header: 'Position', className: 'nowrap', cell: (i) => i.position },
      { header: 'Price', className: 'nowrap', cell: (i) => money(i.price) },
      { header: 'Shipping', className: 'nowrap', cell: (i) => money(i.shipping) },
      { header: 'Condition', cell: (i) => maybe(i.condition) },
      { header: 'Seller', cell: (i) => maybe(i.seller?.name) },
      { header: 'Buy box', cell: (i) => yesNo(i.isBuyBox) },
    ],
  },
  bestsellers: {
    label: 'Best sellers',
    scheduleLabel: 'Best sellers',
    target: 'bestseller-list',
    targetHelp: 'One best-seller list URL per line, on the chosen marketplace, e.g. https://www.amazon.com/gp/bestsellers/electronics.',
    placeholder: 'https://www.amazon.com/gp/bestsellers/electronics',
    sortable: false,
    columns: [
      { header: 'List', cell: (i) => maybe(i.category) },
      { header: 'Rank', className: 'nowrap', cell: (i) => `#${i.rank}` },
      { header: 'ASIN', cell: (i) => asin(i.asin) },
      { header: 'Title', cell: (i) => title(i.title, i.url), className: 'cell-title' },
      { header: 'Price', className: 'nowrap', cell: (i) => money(i.price) },
      { header: 'Rating', className: 'nowrap', cell: (i) => rating(i.rating) },
    ],
  },
  reviews: {
    label: 'Reviews',
    scheduleLabel: 'Reviews',
    target: 'asin',
    targetHelp: 'One product per line whose reviews to collect: an ASIN or a product URL.',
    placeholder: 'B0DR8G428S',
    pages: { max: 10, what: 'Review pages per product' },
    sortable: true,
    columns: [
      { header: 'ASIN', cell: (i) => asin(i.asin) },
      { header: 'Rating', className: 'nowrap', cell: (i) => rating(i.rating) },
      { header: 'Title', cell: (i) => maybe(i.title), className: 'cell-title' },
      { header: 'Author', cell: (i) => maybe(i.author) },
      { header: 'Date', className: 'nowrap', cell: (i) => maybe(i.date ?? i.dateText) },
      { header: 'Verified', cell: (i) => yesNo(i.verifiedPurchase) },
      { header: 'Helpful', cell: (i) => maybe(i.helpfulVotes) },
    ],
  },
};

/** The job types in the table's order (its keys: no second list to keep). */
export const JOB_TYPES = Object.keys(JOB_KINDS) as JobType[];

export const isJobType = (v: string | undefined): v is JobType => !!v && v in JOB_KINDS;

/** The schedule form's one-line hint for each kind of target. */
export const TARGET_HINTS: Record<TargetKind, string> = {
  asin: 'One ASIN or product URL per line.',
  keyword: 'One keyword per line.',
  'bestseller-list': 'One best-sellers list URL per line.',
};
