import { z } from './openapi-zod';
import type { JobType } from './domain';
import { JOB_KINDS, type ResultItemOf } from './kinds';
import { asinOfTarget } from './targets';

/**
 * Stored result items read as the current item schema (JOB_KINDS[type].itemSchema), whatever
 * shape they were stored in. A row is written once and read for as long as retention keeps it,
 * while the schema keeps gaining fields: rows crawled before a field existed, by an older
 * parser, lack it, and every reader (results, exports, compare) must still get a whole item.
 *
 * Rules:
 * - A field the row lacks reads as its "not observed" value, derived from the schema: nullable
 *   -> null, array -> [], record -> {}, an enum with an `unknown` member -> 'unknown', a field
 *   with a zod default -> the default, and an object whose every field has such a value ->
 *   that object (availability -> { status: 'unknown', text: null }; a review's `product`
 *   summary -> all null).
 * - A value of the wrong type (a string where a number is expected, an unknown enum member, a
 *   money object without an amount) reads the same way: it says nothing the schema can carry.
 *   Nothing is coerced ("12" is not 12). In an array or record, an element that cannot be read
 *   is left out; an object with a required field that cannot be read is unreadable as a whole,
 *   and becomes its own field's not-observed value (a seller without a name -> null).
 * - Keys the schema does not name (a newer or an older shape) are dropped: every response and
 *   export serves the documented (strict) item, never undocumented fields.
 * - Required fields that older shapes lacked, and whose absence the row itself explains, are
 *   derived from it (ABSENT_MEANS). A required field with no such reading (a corrupt row)
 *   reads as null rather than failing the whole download.
 *
 * Speed: exports read 100,000s of rows. Each schema is compiled once into plain closures; a row
 * that is already complete and valid is returned as it is, without allocating.
 */

/** No reading: a value that is invalid under a schema which has no repair for it. */
const UNREADABLE: unique symbol = Symbol('unreadable');
type Reading = unknown;

interface Node {
  /** `value` itself when it is valid, a repaired copy, or UNREADABLE (then `empty` applies, if any). */
  read(value: unknown): Reading;
  /** The not-observed value (a fresh one per call: rows never share mutable objects), if the schema has one. */
  empty: (() => unknown) | undefined;
  /** An optional field: its object leaves the key out rather than holding undefined. */
  optional?: boolean;
}

type Row = Record<string, unknown>;

const isRecord = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Required item fields whose absence an older shape explains, read from the row itself. */
const ABSENT_MEANS: Record<string, (row: Row) => unknown> = {
  // Search cards and reviews stored before multi-page crawls were all of the first page
  // (migration 202611231300_search_pages wrote the same into search rows).
  page: () => 1,
  // Offers and reviews stored before the product's ASIN was a field: the target is the product.
  asin: (row) => (typeof row.target === 'string' ? asinOfTarget(row.target) : null),
};

/** Keys of a parsed JSON object (it inherits no enumerable key); for-in does not allocate as Object.keys does. */
function keyCount(value: Row): number {
  let n = 0;
  for (const _ in value) n += 1;
  return n;
}

const leaf = (valid: (value: unknown) => boolean, empty?: () => unknown): Node => ({
  read: (value) => (valid(value) ? value : UNREADABLE),
  empty,
});

/** Number checks zod keeps on the schema (int, min, max, finite); anything else falls back to zod itself. */
function numberNode(schema: z.ZodNumber): Node {
  const checks = schema._def.checks;
  if (checks.some((c) => !['int', 'min', 'max', 'finite'].includes(c.kind)))
    return leaf((v) => typeof v === 'number' && schema.safeParse(v).success);
  const int = checks.some((c) => c.kind === 'int');
  const min = checks.find((c) => c.kind === 'min') as { value: number; inclusive: boolean } | undefined;
  const max = checks.find((c) => c.kind === 'max') as { value: number; inclusive: boolean } | undefined;
  return leaf(
    (v) =>
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!int || Number.isInteger(v)) &&
      (!min || (min.inclusive ? v >= min.value : v > min.value)) &&
      (!max || (max.inclusive ? v <= max.value : v < max.value)),
  );
}

function arrayNode(element: Node): Node {
  return {
    read(value) {
      if (!Array.isArray(value)) return UNREADABLE;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const r = element.read(item);
        if (r === item && !out) continue;
        out ??= value.slice(0, i);
        if (r !== UNREADABLE) out.push(r);
      }
      return out ?? value;
    },
    empty: () => [],
  };
}

function recordNode(values: Node): Node {
  return {
    read(value) {
      if (!isRecord(value)) return UNREADABLE;
      let out: Row | undefined;
      for (const key in value) {
        const r = values.read(value[key]);
        if (r === value[key] && !out) continue;
        if (!out) {
          out = {};
          for (const k in value) {
            if (k === key) break;
            out[k] = value[k];
          }
        }
        if (r !== UNREADABLE) out[key] = r;
      }
      return out ?? value;
    },
    empty: () => ({}),
  };
}

interface Field {
  key: string;
  node: Node;
}

/**
 * An object: each field read in shape order; the row itself when every field is valid and it
 * has no other key. `fill` reads a required field that has no reading (the item's top level
 * only); without it such a field makes the whole object unreadable.
 */
function objectNode(fields: Field[], fill?: (key: string, row: Row) => unknown): Node {
  // A copy is made from a template holding every key: one allocation of the final size, where
  // adding keys one by one regrows the object's property store several times per row.
  const template: Row = Object.fromEntries(fields.map((f) => [f.key, undefined]));
  const optional = fields.some((f) => f.node.optional);
  /** The copy without the keys of optional fields it has no value for (JSON drops them anyway; `in` must not see them). */
  const finish = (out: Row): Row => {
    if (optional) for (const { key } of fields) if (out[key] === undefined) delete out[key];
    return out;
  };
  const empties = fields.map((f) => f.node.empty);
  const empty = empties.every(Boolean)
    ? () => {
        const out: Row = { ...template };
        for (let i = 0; i < fields.length; i++) out[fields[i]!.key] = empties[i]!();
        return finish(out);
      }
    : undefined;
  const read = (value: unknown): Reading => {
    const row = isRecord(value) ? value : fill ? {} : undefined;
    if (!row) return UNREADABLE;
    let out: Row | undefined;
    let present = 0;
    for (let i = 0; i < fields.length; i++) {
      const { key, node } = fields[i]!;
      const raw = row[key];
      if (raw !== undefined) present += 1;
      let r = node.read(raw);
      if (r === raw && !out) continue;
      if (r === UNREADABLE) r = node.empty ? node.empty() : fill ? fill(key, row) : UNREADABLE;
      if (r === UNREADABLE) return UNREADABLE;
      if (!out) {
        out = { ...template };
        for (let j = 0; j < i; j++) out[fields[j]!.key] = row[fields[j]!.key];
      }
      out[key] = r;
    }
    if (out) return finish(out);
    if (row === value && keyCount(row) === present) return row;
    // Keys the schema does not name: the known fields, all valid, without them.
    out = { ...template };
    for (const { key } of fields) out[key] = row[key];
    return finish(out);
  };
  return { read, empty };
}

function unionNode(options: z.ZodTypeAny[]): Node {
  const members = options.map(compile);
  const nullable = options.some((o) => o instanceof z.ZodNull);
  const firstEmpty = members.find((m) => m.empty)?.empty;
  return {
    read(value) {
      if (value === null && nullable) return null;
      let repaired: Reading = UNREADABLE;
      for (const member of members) {
        const r = member.read(value);
        if (r === value) return value;
        if (repaired === UNREADABLE) repaired = r;
      }
      return repaired;
    },
    empty: nullable ? () => null : firstEmpty,
  };
}

const compiled = new WeakMap<z.ZodTypeAny, Node>();

function compile(schema: z.ZodTypeAny): Node {
  let node = compiled.get(schema);
  if (!node) {
    node = build(schema);
    compiled.set(schema, node);
  }
  return node;
}

function build(schema: z.ZodTypeAny): Node {
  if (schema instanceof z.ZodNullable) {
    const inner = compile(schema.unwrap() as z.ZodTypeAny);
    return { read: (v) => (v === null ? null : inner.read(v)), empty: () => null };
  }
  if (schema instanceof z.ZodOptional) {
    const inner = compile(schema.unwrap() as z.ZodTypeAny);
    return { read: (v) => (v === undefined ? undefined : inner.read(v)), empty: () => undefined, optional: true };
  }
  if (schema instanceof z.ZodDefault) {
    const inner = compile(schema.removeDefault() as z.ZodTypeAny);
    const value = schema._def.defaultValue as () => unknown;
    return { read: (v) => (v === undefined ? UNREADABLE : inner.read(v)), empty: value };
  }
  if (schema instanceof z.ZodBranded || schema instanceof z.ZodReadonly) return compile(schema.unwrap() as z.ZodTypeAny);
  if (schema instanceof z.ZodLazy) return compile(schema.schema as z.ZodTypeAny);
  if (schema instanceof z.ZodString) {
    // The type first: a failing safeParse builds a ZodError, and a field that older rows lack is
    // read as undefined on every one of them (an export's garbage doubled on one such field).
    if (schema._def.checks.length) return leaf((v) => typeof v === 'string' && schema.safeParse(v).success);
    return leaf((v) => typeof v === 'string');
  }
  if (schema instanceof z.ZodNumber) return numberNode(schema);
  if (schema instanceof z.ZodBoolean) return leaf((v) => typeof v === 'boolean');
  if (schema instanceof z.ZodNull)
    return leaf(
      (v) => v === null,
      () => null,
    );
  if (schema instanceof z.ZodLiteral) return leaf((v) => v === schema.value);
  if (schema instanceof z.ZodEnum) {
    const members = new Set<unknown>(schema.options as string[]);
    return leaf((v) => members.has(v), members.has('unknown') ? () => 'unknown' : undefined);
  }
  if (schema instanceof z.ZodArray) return arrayNode(compile(schema.element as z.ZodTypeAny));
  if (schema instanceof z.ZodRecord) return recordNode(compile(schema.valueSchema as z.ZodTypeAny));
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    return objectNode(Object.entries(shape).map(([key, field]) => ({ key, node: compile(field) })));
  }
  if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion)
    return unionNode([...(schema.options as Iterable<z.ZodTypeAny>)]);
  if (schema instanceof z.ZodAny || schema instanceof z.ZodUnknown) return leaf(() => true);
  // Anything else (effects, tuples, ...): zod decides validity; no repair.
  return leaf((v) => schema.safeParse(v).success);
}

/**
 * A required top-level field with no reading: what its absence means (ABSENT_MEANS; a JSON null
 * counts as absent, the way a projection reports a key the row lacks), or null (a corrupt row).
 */
function fillTopLevel(key: string, row: Row): unknown {
  const absent = row[key] === undefined || row[key] === null ? ABSENT_MEANS[key] : undefined;
  return absent ? (absent(row) ?? null) : null;
}

const itemFields = (type: JobType): Field[] =>
  Object.entries(JOB_KINDS[type].itemSchema.shape as Record<string, z.ZodTypeAny>).map(([key, field]) => ({ key, node: compile(field) }));

/** The item reader of each job type, compiled once from its item schema. */
const ITEM_READERS = Object.fromEntries(
  Object.keys(JOB_KINDS).map((type) => [type, objectNode(itemFields(type as JobType), fillTopLevel)]),
) as Record<JobType, Node>;

/**
 * A stored result item of a job of `type` (a `result_item.data` value, as read from Postgres)
 * as an item of the current schema: missing and wrong-typed fields read as not observed, unknown
 * keys dropped (rules above). Never throws. The stored value itself is returned when it is
 * already a complete, valid item; otherwise a new object (the stored value is never mutated).
 * Its keys are in schema order only when it was rebuilt: serialise through inDocumentedOrder.
 */
export function readStoredItem<T extends JobType>(type: T, raw: unknown): ResultItemOf<T> {
  return ITEM_READERS[type].read(raw) as ResultItemOf<T>;
}

/** Readers of projections, per field list (callers pass a constant list) and job type. */
const FIELD_READERS = new WeakMap<readonly string[], Partial<Record<JobType, Node>>>();

/**
 * A projection of a stored item (`jsonb_build_object` of some of its keys) read by the rules of
 * readStoredItem, as if the type's schema had only the `fields` of the list it names: those and
 * only those are in the result. A projection of exactly those keys, all valid, is returned as it
 * is. `fields` is compiled once per list object, so pass a constant.
 */
export function readStoredFields(type: JobType, raw: unknown, fields: readonly string[]): Record<string, unknown> {
  let readers = FIELD_READERS.get(fields);
  if (!readers) FIELD_READERS.set(fields, (readers = {}));
  let reader = readers[type];
  if (!reader) {
    const wanted = new Set(fields);
    reader = readers[type] = objectNode(
      itemFields(type).filter((f) => wanted.has(f.key)),
      fillTopLevel,
    );
  }
  return reader.read(raw) as Record<string, unknown>;
}
