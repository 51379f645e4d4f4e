/** The ranges a product's chart shows, in the URL as `?range=`; `all` every stored snapshot. */
export const RANGES = { '7d': 7, '30d': 30, '90d': 90, all: null } as const;
export type Range = keyof typeof RANGES;
export const isRange = (v: unknown): v is Range => typeof v === 'string' && v in RANGES;

/** The tracking page's URL state: the list's search, sort and page, the product shown and its range, a comparison. */
export type TrackingSearch = {
  q?: string;
  sort?: string;
  offset?: number;
  asin?: string;
  marketplace?: string;
  postalCode?: string;
  range?: Range;
  from?: string;
  to?: string;
};
