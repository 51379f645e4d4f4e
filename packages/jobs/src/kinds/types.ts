import type { ProductSnapshotData } from '@crawl/core';
import type { Item } from './snapshot-values';

/**
 * What a job type's results mean for change tracking and compare. One module per type
 * (kinds/<type>.ts), gathered in JOBS_KINDS (kinds/index.ts). The rules themselves (noise,
 * units, first observation) are product-snapshot.ts's, the same for every type.
 */
export interface TrackingKind {
  /**
   * One snapshot per product of a target's result items, compared with the product's last known
   * state (and announced as `product.changed`); null: results of this type do not update
   * tracked products.
   */
  snapshots: ((items: Item[]) => Map<string, ProductSnapshotData>) | null;
  /** How `compare` reads a result set of this type; null: compare refuses jobs of this type. */
  compare: CompareRule | null;
}

export interface CompareRule {
  /** 'product': every monitored field (a product page); 'card': only what a result card shows (SEARCH_FIELDS). */
  fields: 'product' | 'card';
  snapshot(item: Item): ProductSnapshotData;
  /** The list an item is ranked in (keyword, list URL) and its position there; null: items of this type are not ranked. */
  position(item: Item): { list: string; position: unknown } | null;
  /** The item fields `position` reads. */
  positionFields: readonly string[];
}
