import { snapshotOf } from '../product-snapshot';
import { firstPerAsin } from './snapshot-values';
import type { TrackingKind } from './types';

/** A product page observes every monitored field; compare reads it the same way. */
export const details: TrackingKind = {
  snapshots: (items) => firstPerAsin(items, (item) => snapshotOf('product', item)),
  compare: { fields: 'product', snapshot: (item) => snapshotOf('product', item), position: () => null, positionFields: [] },
};
