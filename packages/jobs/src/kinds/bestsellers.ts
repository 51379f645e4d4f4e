import { snapshotOf } from '../product-snapshot';
import type { TrackingKind } from './types';

/**
 * Best-seller lists feed compare (rank moves per list URL), not product tracking: a list card is
 * one of 50 on a list page. A list card shows what a search card shows.
 */
export const bestsellers: TrackingKind = {
  snapshots: null,
  compare: {
    fields: 'card',
    snapshot: (item) => snapshotOf('card', item),
    position: (item) => ({ list: String(item.target ?? ''), position: item.rank }),
    positionFields: ['target', 'rank'],
  },
};
