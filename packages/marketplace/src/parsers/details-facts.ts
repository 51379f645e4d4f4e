/**
 * The product's facts a details page states in its tables and data: parent ASIN, manufacturer,
 * model, weight, dimensions, first-available date, ISBN-13, and the rating histogram.
 * Each is null when the page does not state it; nothing is derived from other fields.
 */
import type { Doc } from '../page';
import { extractParentAsin } from './parent-asin';
import {
  DIMENSIONS_LABELS,
  FIRST_AVAILABLE_LABELS,
  firstAvailableLanguage,
  ISBN13_LABELS,
  MANUFACTURER_LABELS,
  MODEL_LABELS,
  WEIGHT_LABELS,
  type LabelTest,
} from './product-fact-labels';
import { readProductRows, type ProductRow } from './product-tables';
import { extractRatingHistogram } from './rating-histogram';
import { parseReviewDate } from './review-date';
import type { DetailsItem } from './types';

/** The product facts of a details item (their meanings are in the item schema, @crawl/core). */
export type DetailsFacts = Pick<
  DetailsItem,
  'parentAsin' | 'manufacturer' | 'modelNumber' | 'weight' | 'dimensions' | 'firstAvailable' | 'isbn13' | 'ratingHistogram'
>;

/** The first row of the best tier that has one (rows come in the tables' preference order). */
function pick(rows: readonly ProductRow[], tiers: readonly LabelTest[], accept: (v: string) => boolean = () => true): ProductRow | null {
  for (const test of tiers) for (const row of rows) if (test(row.key) && accept(row.value)) return row;
  return null;
}

/**
 * "2.15 pounds (View shipping rates and policies)": the link in parentheses is not part of the
 * weight. A parenthesis with a number ("(pack of 2)") is.
 */
function weightAsShown(value: string): string {
  const bare = value.replace(/\s*\([^()\d]*\)\s*$/, '');
  return /\d/.test(bare) ? bare : value;
}

/**
 * "13,8 x 23 x 30 cm; 1,6 kilogramos": Amazon joins the weight to the dimensions with ";" on
 * many layouts. The part after it is a weight only if it has a number.
 */
function splitDimensions(value: string): { dimensions: string; weight: string | null } {
  const at = value.search(/[;；]/);
  if (at < 0) return { dimensions: value, weight: null };
  const tail = value.slice(at + 1).trim();
  return { dimensions: value.slice(0, at).trim(), weight: /\d/.test(tail) ? tail : null };
}

/**
 * Weight and dimensions. The product's own values win over the package's (see product-fact-labels):
 * weight = item-weight row, else the weight joined to the product-dimensions row, else the
 * shipping-weight row, else the weight joined to the package-dimensions row.
 */
function measures(rows: readonly ProductRow[]): { weight: string | null; dimensions: string | null } {
  const productRow = pick(rows, DIMENSIONS_LABELS.product);
  const packageRow = productRow ? null : pick(rows, DIMENSIONS_LABELS.package);
  const dims = productRow ?? packageRow;
  const split = dims ? splitDimensions(dims.value) : null;
  const itemWeight = pick(rows, [WEIGHT_LABELS.item]);
  const shippingWeight = pick(rows, [WEIGHT_LABELS.shipping]);
  const weight =
    (itemWeight && weightAsShown(itemWeight.value)) ??
    (productRow ? split?.weight : null) ??
    (shippingWeight && weightAsShown(shippingWeight.value)) ??
    split?.weight ??
    null;
  return { weight, dimensions: split?.dimensions || null };
}

function isbn13Of(rows: readonly ProductRow[]): string | null {
  const digits = (v: string) => v.replace(/[\s\-‐‑]/g, '');
  const row = pick(rows, ISBN13_LABELS, (v) => /^97[89]\d{10}$/.test(digits(v)));
  return row ? digits(row.value) : null;
}

/** The facts of a parsed detail page; `asin` is the page's own ASIN (null when it has none). */
export function extractFacts(doc: Doc, asin: string | null): DetailsFacts {
  const rows = readProductRows(doc);
  // The date is read in the label's language (docs/parsing.md): each row with its own.
  let firstAvailable: string | null = null;
  for (const test of FIRST_AVAILABLE_LABELS)
    for (const row of rows)
      if (firstAvailable === null && test(row.key)) firstAvailable = parseReviewDate(row.value, firstAvailableLanguage(row.key)).date;
  return {
    parentAsin: extractParentAsin(doc.source, asin),
    manufacturer: pick(rows, MANUFACTURER_LABELS)?.value ?? null,
    modelNumber: pick(rows, MODEL_LABELS)?.value ?? null,
    ...measures(rows),
    firstAvailable,
    isbn13: isbn13Of(rows),
    ratingHistogram: extractRatingHistogram(doc),
  };
}
