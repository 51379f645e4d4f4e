import { z } from './openapi-zod';

/**
 * A zod object's shape, computed once: `.shape` of a merged or extended object builds a new
 * object on every read (~25 us), and an export orders every field of every row by it.
 */
const shapes = new WeakMap<z.AnyZodObject, Record<string, z.ZodTypeAny>>();
export function shapeOf(object: z.AnyZodObject): Record<string, z.ZodTypeAny> {
  let shape = shapes.get(object);
  if (!shape) {
    shape = object.shape as Record<string, z.ZodTypeAny>;
    shapes.set(object, shape);
  }
  return shape;
}

/** The schema under optional/nullable/default/effects/branded/readonly/lazy wrappers. */
function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodDefault) s = s.removeDefault() as z.ZodTypeAny;
    else if (s instanceof z.ZodEffects) s = s.innerType() as z.ZodTypeAny;
    else if (s instanceof z.ZodBranded || s instanceof z.ZodReadonly) s = s.unwrap() as z.ZodTypeAny;
    else if (s instanceof z.ZodLazy) s = s.schema as z.ZodTypeAny;
    else return s;
  }
}

/** The object members of each union, computed once (a union of a named object and null is on many fields). */
const unionObjects = new WeakMap<z.ZodTypeAny, z.AnyZodObject[]>();

/**
 * The member of a union that describes `value`, read from the structure only (no validation, so
 * it stays cheap on every row of an export): a discriminated union's member for the value's
 * discriminator; otherwise the first object member whose shape names every key of the value.
 */
function memberFor(schema: z.ZodTypeAny, value: Record<string, unknown>): z.ZodTypeAny | undefined {
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const d = schema as z.ZodDiscriminatedUnion<string, z.ZodDiscriminatedUnionOption<string>[]>;
    return d.optionsMap.get(value[d.discriminator] as z.Primitive);
  }
  if (schema instanceof z.ZodUnion) {
    let objects = unionObjects.get(schema);
    if (!objects) {
      objects = (schema.options as z.ZodTypeAny[]).map(unwrap).filter((o): o is z.AnyZodObject => o instanceof z.ZodObject);
      unionObjects.set(schema, objects);
    }
    if (objects.length === 1) return objects[0];
    return objects.find((o) => Object.keys(value).every((key) => key in shapeOf(o))) ?? objects[0];
  }
  return undefined;
}

/**
 * `value` with the keys of every object in it in the order of `schema`'s shapes (nested objects,
 * arrays, nullable/optional fields and unions too); keys the schema does not name follow, in
 * their own order. Nothing is validated, added or dropped: only the order changes.
 *
 * JSON kept in a jsonb column (result items, outbox events) comes back with its keys in Postgres'
 * order (shortest first), not in the order they were written; every response, export and
 * webhook body is serialized through this, never as read from the database.
 */
export function inSchemaOrder(schema: z.ZodTypeAny, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  let s = unwrap(schema);
  if (Array.isArray(value)) {
    if (!(s instanceof z.ZodArray)) return value;
    const element = s.element as z.ZodTypeAny;
    return value.map((v) => inSchemaOrder(element, v));
  }
  const source = value as Record<string, unknown>;
  if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
    const member = memberFor(s, source);
    if (!member) return value;
    s = unwrap(member);
  }
  if (s instanceof z.ZodRecord) {
    const values = s.valueSchema as z.ZodTypeAny;
    return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, inSchemaOrder(values, v)]));
  }
  if (!(s instanceof z.ZodObject)) return value;
  const shape = shapeOf(s);
  const { keys, template } = layoutOf(s);
  let present = 0;
  for (const key of keys) if (Object.hasOwn(source, key)) present += 1;
  // A value with every key (any stored item, once read) is copied from a template of the final
  // size; adding keys one by one to `{}` regrows the copy's property store several times.
  const out: Record<string, unknown> = present === keys.length ? { ...template } : {};
  for (const key of keys) if (Object.hasOwn(source, key)) out[key] = inSchemaOrder(shape[key]!, source[key]);
  for (const key in source) if (Object.hasOwn(source, key) && !Object.hasOwn(out, key)) out[key] = source[key];
  return out;
}

/** An object schema's keys and an object with each of them (undefined), in shape order, computed once. */
const layouts = new WeakMap<z.AnyZodObject, { keys: string[]; template: Record<string, unknown> }>();
function layoutOf(object: z.AnyZodObject): { keys: string[]; template: Record<string, unknown> } {
  let layout = layouts.get(object);
  if (!layout) {
    const keys = Object.keys(shapeOf(object));
    layout = { keys, template: Object.fromEntries(keys.map((key) => [key, undefined])) };
    layouts.set(object, layout);
  }
  return layout;
}
