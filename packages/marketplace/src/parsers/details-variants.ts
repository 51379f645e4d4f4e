/**
 * Variation family ("twister") of a detail page. The twister script data is
 * complete (every child ASIN with its dimension values); the DOM swatches are
 * the fallback for scripts-stripped renders (2026 inline twister, 2017-2020
 * #twister lists).
 */
import type { Doc, PageScripts } from '../page';
import { ASIN_RE, clean, findJson, isRecord, textOf } from './text';

type Variant = { asin: string; dimensions: Record<string, string> };

function isNonEmptyRecord(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && Object.keys(v).length > 0;
}
function isNonEmptyStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

function variantsFromScripts(scripts: PageScripts): Variant[] {
  if (!scripts.includes('dimensionValuesDisplayData')) return [];
  // Each key is looked for once, in whatever spacing ("key":, "key" :): a search costs a pass
  // over the scripts, and jsonAfter accepts only whitespace and ":" before the value.
  const values = findJson(scripts, '"dimensionValuesDisplayData"', isNonEmptyRecord, 8);
  if (!values) return [];
  const keys = findJson(scripts, '"dimensions"', isNonEmptyStringArray, 8);
  const labels = findJson(scripts, '"variationDisplayLabels"', isNonEmptyRecord, 8);
  const display = findJson(scripts, '"dimensionsDisplay"', isNonEmptyStringArray, 8);
  const names = (n: number): string[] => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const key = keys?.[i];
      const label = key && labels && typeof labels[key] === 'string' ? (labels[key] as string) : undefined;
      out.push(clean(label ?? display?.[i] ?? key ?? `dimension_${i + 1}`));
    }
    return out;
  };
  const variants: Variant[] = [];
  for (const [asin, vals] of Object.entries(values)) {
    if (!ASIN_RE.test(asin)) continue;
    const list = Array.isArray(vals) ? vals.map((v) => clean(String(v))) : [clean(String(vals))];
    const dimNames = names(list.length);
    const dimensions: Record<string, string> = {};
    list.forEach((v, i) => {
      if (v) dimensions[dimNames[i]!] = v; // names(n) returns exactly n names
    });
    variants.push({ asin, dimensions });
  }
  return variants;
}

/** 2022+ inline twister rows: #inline-twister-row-<dim> with li[data-asin] swatches. */
function variantsFromInlineTwister(doc: Doc): Variant[] {
  const byAsin = new Map<string, Record<string, string>>();
  doc.q('[id^="inline-twister-row-"]').each((_, row) => {
    const $row = doc.$(row);
    const dimKey = ($row.attr('id') ?? '').replace('inline-twister-row-', '');
    const title = textOf($row.find(`[id="inline-twister-dim-title-${dimKey}"] .a-color-secondary`).first());
    const dimName = clean(title.replace(/[:：]\s*$/, '')) || dimKey;
    $row.find('li[data-asin]').each((__, li) => {
      const $li = doc.$(li);
      const asin = $li.attr('data-asin') ?? '';
      if (!ASIN_RE.test(asin)) return;
      const value =
        clean($li.find('img').first().attr('alt')) ||
        textOf($li.find('.swatch-title-text-display, .swatch-title-text').first()) ||
        textOf($li.find('.a-button-text').first());
      const dims = byAsin.get(asin) ?? {};
      if (value) dims[dimName] = value;
      byAsin.set(asin, dims);
    });
  });
  return Array.from(byAsin, ([asin, dimensions]) => ({ asin, dimensions }));
}

/** 2015-2020 #twister: ul#variation_<dim> li[data-defaultasin] (title "Click to select X"). */
function variantsFromClassicTwister(doc: Doc): Variant[] {
  const byAsin = new Map<string, Record<string, string>>();
  doc.q('#twister [id^="variation_"]').each((_, block) => {
    const $b = doc.$(block);
    const dimName = clean(textOf($b.find('label').first()).replace(/[:：]\s*$/, '')) || ($b.attr('id') ?? '').replace('variation_', '');
    $b.find('li[data-defaultasin]').each((__, li) => {
      const $li = doc.$(li);
      const asin = $li.attr('data-defaultasin') ?? '';
      if (!ASIN_RE.test(asin)) return;
      const value = clean($li.find('img').first().attr('alt')) || textOf($li.find('.a-size-base, .twisterTextDiv').first());
      const dims = byAsin.get(asin) ?? {};
      if (value) dims[dimName] = value;
      byAsin.set(asin, dims);
    });
  });
  return Array.from(byAsin, ([asin, dimensions]) => ({ asin, dimensions }));
}

export function extractVariants(doc: Doc): Variant[] {
  const fromScripts = variantsFromScripts(doc.scripts);
  if (fromScripts.length) return fromScripts;
  const inline = variantsFromInlineTwister(doc);
  if (inline.length) return inline;
  return variantsFromClassicTwister(doc);
}
