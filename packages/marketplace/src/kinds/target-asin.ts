import { ASIN_PATTERN, asinOfTarget, type JobType } from '@crawl/core';

/**
 * The ASIN of a product target (validated by normalizeTargets): a target without one is a bug
 * upstream, so this throws rather than falling back to anything the user wrote.
 */
export function productAsin(type: JobType, target: string): string {
  const asin = asinOfTarget(target);
  if (!asin || !ASIN_PATTERN.test(asin)) throw new Error(`${type} target has no valid ASIN`);
  return asin;
}
