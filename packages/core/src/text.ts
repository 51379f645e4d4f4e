/**
 * Text we accept in any field: no C0/C1 control characters other than tab and line breaks
 * (NUL cannot even be stored by Postgres) and no lone UTF-16 surrogates (not encodable as
 * UTF-8, refused by jsonb). Everything else, emoji and right-to-left scripts included, is fine.
 */
const UNSAFE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE.test(value);
}

export const UNSAFE_TEXT_MESSAGE = 'must not contain control characters or invalid unicode';

const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, 'g');

/** Removes what isSafeText refuses, from every string inside a JSON-like value. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return value.replace(UNSAFE_GLOBAL, '') as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}
