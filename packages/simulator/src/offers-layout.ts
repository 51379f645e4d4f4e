/**
 * Which offer listing an ASIN without a saved one gets (`/__sim/offers-layout`,
 * `Simulator.setOffersLayout`): the saved legacy "Buying Choices" page re-targeted at it
 * (default, what existing tests expect), or the generated 2021+ All Offers Display page, the
 * only layout that marks a buy-box offer.
 */
import type { OffersLayout } from './types';

export const OFFERS_LAYOUTS: readonly OffersLayout[] = ['legacy', 'aod'];
export const DEFAULT_OFFERS_LAYOUT: OffersLayout = 'legacy';

/** Throws TypeError unless `layout` is one of OFFERS_LAYOUTS. */
export function validateOffersLayout(layout: unknown): OffersLayout {
  if (!OFFERS_LAYOUTS.includes(layout as OffersLayout))
    throw new TypeError(`layout must be one of ${OFFERS_LAYOUTS.map((l) => JSON.stringify(l)).join(', ')}`);
  return layout as OffersLayout;
}

/** The control API's body `{ "layout": "aod" | "legacy" }`; null (DELETE) is the default. Throws TypeError on anything else. */
export function parseOffersLayoutBody(body: unknown): OffersLayout {
  if (body === null) return DEFAULT_OFFERS_LAYOUT;
  if (typeof body !== 'object' || Array.isArray(body)) throw new TypeError('body must be {"layout": "aod" | "legacy"}');
  const extra = Object.keys(body).filter((k) => k !== 'layout');
  if (extra.length) throw new TypeError(`unknown field ${JSON.stringify(extra[0])}: body must be {"layout": "aod" | "legacy"}`);
  return validateOffersLayout((body as { layout?: unknown }).layout);
}
