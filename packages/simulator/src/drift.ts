/**
 * Products that change between crawls, on demand (`/__sim/drift`, `Simulator.setDrift`), so
 * that tracking, change history and `product.changed` alerts can be shown against the
 * simulator: `{ "B0ABCDEFGH": 2 }` serves that product's generated pages at epoch 2 (another
 * price, stock state, rating and count of ratings than at epoch 0), `{ "*": 1 }` every product
 * and list. A key is an ASIN, a keyword (its search results) or a best-seller category slug
 * (`electronics`); `*` is the epoch of every other one. Saved real pages are served as saved.
 */
import { keywordSlugs } from './keyword-slug';

const ASIN_RE = /^[A-Za-z0-9]{10}$/;
const MAX_EPOCH = 1_000_000;

export type DriftEpochs = ReadonlyMap<string, number>;

/** The routing key of a drift entry: an ASIN upper-cased, `*`, else the first keyword slug (a category slug is one). */
export function driftKey(key: string): string {
  const k = key.trim();
  if (k === '*') return '*';
  if (ASIN_RE.test(k)) return k.toUpperCase();
  return keywordSlugs(k)[0] ?? '';
}

/** The control API's body -> the epochs; null clears them. Throws TypeError on anything else (nothing changes then). */
export function validateDrift(input: unknown): Map<string, number> {
  const epochs = new Map<string, number>();
  if (input === null || input === undefined) return epochs;
  if (typeof input !== 'object' || Array.isArray(input))
    throw new TypeError('drift must be an object of ASIN, keyword, category or "*" -> epoch');
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_EPOCH)
      throw new TypeError(`drift[${JSON.stringify(key)}] must be an integer 0..${MAX_EPOCH}`);
    const id = driftKey(key);
    if (!id) throw new TypeError(`drift: ${JSON.stringify(key)} names no product, keyword or list`);
    epochs.set(id, value);
  }
  return epochs;
}

/** The epoch of `key` (already a driftKey): its own, else `*`'s, else 0. */
export function epochOf(epochs: DriftEpochs | undefined, key: string): number {
  return epochs?.get(key) ?? epochs?.get('*') ?? 0;
}
