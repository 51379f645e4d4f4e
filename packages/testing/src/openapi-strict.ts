/**
 * Closes the objects of an OpenAPI 3.1 document for contract checks. zod-to-openapi leaves objects
 * open (no `additionalProperties`), so a response that leaks an undocumented field would still
 * validate; the checker wants such a field to fail.
 *
 * The rule is per instance location: only the outermost schema that evaluates an object gets
 * `unevaluatedProperties: false`, and everything applied in place to the same object (allOf
 * members, `$ref` siblings, oneOf/anyOf members beside own properties) stays open, because
 * `unevaluatedProperties` on an inner allOf branch would reject the properties of its sibling
 * branch. A component used both standalone and as an allOf member gets an open copy
 * (`<Name>${OPEN_SUFFIX}`) that the in-place references point at, so standalone uses stay strict.
 * oneOf/anyOf members of a schema without own properties stay strict themselves: each alternative
 * is a complete object, and strict alternatives keep a union unambiguous.
 */

type Schema = Record<string, unknown>;

/** Suffix of the open copies of components; chosen so it cannot clash with a zod-to-openapi name in practice. */
export const OPEN_SUFFIX = '__contractOpen';
const COMPONENT_REF = '#/components/schemas/';

/** Keywords whose subschemas describe other instance locations (properties, items). */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
// `not`, `if`, `contains` and `propertyNames` are left alone: closing an object under them would
// change which instances they match, not just forbid extra fields.
const CHILD_KEYWORDS = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Context {
  pristine: Record<string, unknown>;
  schemas: Record<string, unknown>;
  openWanted: Set<string>;
}

function tighten(s: unknown, open: boolean, ctx: Context): void {
  if (!isObject(s)) return;
  for (const kw of MAP_KEYWORDS) {
    if (isObject(s[kw])) for (const child of Object.values(s[kw])) tighten(child, false, ctx);
  }
  for (const kw of CHILD_KEYWORDS) tighten(s[kw], false, ctx);
  if (Array.isArray(s.items)) for (const child of s.items) tighten(child, false, ctx);
  if (Array.isArray(s.prefixItems)) for (const child of s.prefixItems) tighten(child, false, ctx);

  const ownsProperties = isObject(s.properties) || isObject(s.patternProperties);
  const composes = Array.isArray(s.allOf);
  // Members that share this object with the schema's own properties (or with allOf siblings).
  const shared = open || ownsProperties || composes;
  if (composes) for (const member of s.allOf as unknown[]) tighten(member, true, ctx);
  for (const kw of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[kw])) for (const member of s[kw] as unknown[]) tighten(member, shared, ctx);
  }
  for (const kw of ['then', 'else'] as const) tighten(s[kw], shared, ctx);
  if (typeof s.$ref === 'string' && shared) s.$ref = openRef(s.$ref, ctx);

  const declared = 'additionalProperties' in s || 'unevaluatedProperties' in s;
  if (!open && (ownsProperties || composes) && !declared) s.unevaluatedProperties = false;
}

function openRef(ref: string, ctx: Context): string {
  if (!ref.startsWith(COMPONENT_REF)) return ref;
  const name = ref.slice(COMPONENT_REF.length);
  if (name.includes('/') || name.endsWith(OPEN_SUFFIX) || !(name in ctx.pristine)) return ref;
  ctx.openWanted.add(name);
  return `${COMPONENT_REF}${name}${OPEN_SUFFIX}`;
}

/** Visits the `schema` of every parameter, header and media type, outside examples and extensions. */
function tightenOperationSchemas(node: unknown, ctx: Context): void {
  if (Array.isArray(node)) {
    for (const item of node) tightenOperationSchemas(item, ctx);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if (key === 'schema' && isObject(value)) tighten(value, false, ctx);
    else tightenOperationSchemas(value, ctx);
  }
}

/** A deep clone of `document` with every documented object closed (see the file comment). */
export function tightenDocument(document: object): Schema {
  const doc = structuredClone(document) as Schema;
  const components = isObject(doc.components) ? doc.components : (doc.components = {});
  const schemas = isObject(components.schemas) ? components.schemas : (components.schemas = {});
  const ctx: Context = { pristine: structuredClone(schemas), schemas, openWanted: new Set() };

  for (const schema of Object.values(schemas)) tighten(schema, false, ctx);
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'paths' || key === 'webhooks') tightenOperationSchemas(value, ctx);
  }
  for (const [key, value] of Object.entries(components)) {
    if (key !== 'schemas') tightenOperationSchemas(value, ctx);
  }
  // Open copies can reference further components in place (an extension of an extension).
  const made = new Set<string>();
  for (let pending = [...ctx.openWanted]; pending.length > 0; pending = [...ctx.openWanted].filter((n) => !made.has(n))) {
    for (const name of pending) {
      made.add(name);
      const copy = structuredClone(ctx.pristine[name]);
      tighten(copy, true, ctx);
      schemas[`${name}${OPEN_SUFFIX}`] = copy;
    }
  }
  return doc;
}
