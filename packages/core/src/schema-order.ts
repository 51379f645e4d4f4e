import { z } from './openapi-zod';

/**
 * `value` with the keys of every object in it in the order of `schema`'s shape (nested objects,
 * arrays, nullable/optional fields and unions too); keys the schema does not know follow, in
 * their own order. Nothing is validated, added or dropped: only the order changes.
 *
 * JSON kept in a jsonb column comes back with its keys in Postgres' order (shortest first), not
 * in the order they were written; serializing through this restores the documented order.
 */
export function orderLike(schema: z.ZodTypeAny, value: unknown): unknown {
  const s = unwrap(schema);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return s instanceof z.ZodArray ? value.map((v) => orderLike(s.element as z.ZodTypeAny, v)) : value;
  const record = value as Record<string, unknown>;
  if (s instanceof z.ZodObject) {
    const shape = s.shape as Record<string, z.ZodTypeAny>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) if (Object.hasOwn(record, key)) out[key] = orderLike(shape[key]!, record[key]);
    for (const key of Object.keys(record)) if (!Object.hasOwn(shape, key)) out[key] = record[key];
    return out;
  }
  if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
    const options = [...(s.options as Iterable<z.ZodTypeAny>)];
    const match = options.find((o) => o.safeParse(value).success);
    return match ? orderLike(match, value) : value;
  }
  if (s instanceof z.ZodRecord) return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, orderLike(s.valueSchema as z.ZodTypeAny, v)]));
  return value;
}

function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodDefault) s = s.removeDefault() as z.ZodTypeAny;
    else if (s instanceof z.ZodEffects) s = s.innerType() as z.ZodTypeAny;
    else if (s instanceof z.ZodBranded) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodReadonly) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodLazy) s = s.schema as z.ZodTypeAny;
    else return s;
  }
}
