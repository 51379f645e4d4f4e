/**
 * The product's trade item number (GTIN) as its product tables state it (docs/results.md, "The
 * hard cases of the product fields"): the GTIN, EAN or UPC row in the marketplaces' languages
 * (Japan's EAN is the JAN code). A label matches as a whole, folded by labelKey, as the other
 * facts' labels do (product-fact-labels.ts), so "EAN-Code" and "Código EAN" match and "Codice
 * produttore" does not.
 */
import { labelKey, type ProductRow } from './product-tables';

function labelSet(labels: readonly string[]): ReadonlySet<string> {
  return new Set(labels.map(labelKey));
}

/** Best first: a row named GTIN, then EAN (and JAN), then UPC; a page seldom has more than one. */
const GTIN_LABEL_TIERS: readonly ReadonlySet<string>[] = [
  labelSet(['GTIN', 'GTIN-13', 'GTIN-14', 'GTIN-12', 'Global Trade Identification Number', 'Global Trade Item Number', 'Código GTIN']),
  labelSet([
    'EAN',
    'EAN-13',
    'EAN13',
    'EAN-Code',
    'EAN code',
    'EAN-Nummer',
    'Code EAN',
    'Numéro EAN',
    'Código EAN',
    'Código de barras',
    'Codice EAN',
    'Codice a barre',
    'EAN-code',
    'Streepjescode',
    'EAN-kod',
    'Streckkod',
    'Kod EAN',
    'Kod kreskowy',
    'EAN kodu',
    'Barkod',
    'International Article Number',
    'JAN',
    'JANコード',
    'JAN コード',
    'EANコード',
    'رمز EAN',
    'الرمز الشريطي',
    'الباركود',
    'EAN/UPC',
    'UPC/EAN',
  ]),
  labelSet(['UPC', 'UPC-A', 'UPC code', 'UPC-Code', 'Code UPC', 'Código UPC', 'Codice UPC', 'Kod UPC', 'UPC kodu', 'UPCコード', 'رمز UPC']),
];

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/** The GS1 check digit: the last digit makes the weighted sum (3, 1, 3, ... from the right) a multiple of ten. */
function hasValidCheckDigit(code: string): boolean {
  let sum = 0;
  for (let i = code.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(code[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(code[code.length - 1]);
}

/**
 * The code of a row's value, digits only: a row may list several codes ("4006381333931,
 * 4006381333948" or one per line) or group one code's digits ("0 12345 67890 5"). The first code
 * of a GTIN length (8, 12, 13 or 14 digits) whose check digit holds wins, else the first of a
 * GTIN length; null when the value holds none.
 */
export function gtinOf(value: string): string | null {
  const tokens = value.split(/[,;/|\s]+/).map((t) => t.replace(/[-‐‑.]/g, ''));
  const whole = value.replace(/\D/g, '');
  const candidates = [...tokens.filter((t) => /^\d+$/.test(t)), whole].filter((t) => GTIN_LENGTHS.has(t.length));
  return candidates.find(hasValidCheckDigit) ?? candidates[0] ?? null;
}

/** The GTIN of the product tables' rows (readProductRows order): the best label tier with a code wins. */
export function extractGtin(rows: readonly ProductRow[]): string | null {
  for (const labels of GTIN_LABEL_TIERS)
    for (const row of rows) {
      if (!labels.has(row.key)) continue;
      const code = gtinOf(row.value);
      if (code) return code;
    }
  return null;
}
