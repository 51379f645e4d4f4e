import { snapshotOf } from '../product-snapshot';
import { firstPerAsin } from './snapshot-values';
import type { TrackingKind } from './types';

/**
 * A result card observes what a card shows; the first card of an ASIN over a keyword's pages
 * is the observation. Compare also reports position moves per keyword.
 */
export const search: TrackingKind = {
  snapshots: (items) => firstPerAsin(items, (item) => snapshotOf('card', item)),
  compare: {
    fields: 'card',
    snapshot: (item) => snapshotOf('card', item),
    position: (item) => ({ list: String(item.keyword ?? ''), position: item.position }),
    positionFields: ['keyword', 'position'],
  },
};
