import { AVAILABILITY_STATUSES, REVIEW_SORTS } from '@crawl/core';
import { jobBodySchema } from '@crawl/jobs';
import { openApiDocument } from './document';

/**
 * The document says `null` once, and only where zod accepts it; and building it changes none of
 * the schemas the gateway validates with (the generator hands out zod's own arrays of values).
 */
type Node = Record<string, unknown>;

function schemas(node: unknown, at: string, out: [string, Node][] = []): [string, Node][] {
  if (Array.isArray(node)) node.forEach((n, i) => schemas(n, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    out.push([at, node as Node]);
    for (const [k, v] of Object.entries(node)) schemas(v, `${at}/${k}`, out);
  }
  return out;
}

it('building the document leaves the enums the gateway validates with as they were', () => {
  const sorts = [...REVIEW_SORTS];
  const statuses = [...AVAILABILITY_STATUSES];
  openApiDocument();
  expect([...REVIEW_SORTS]).toEqual(sorts);
  expect([...AVAILABILITY_STATUSES]).toEqual(statuses);
  expect(sorts).not.toContain(null);
  const body = { type: 'reviews', targets: ['B0DR8G428S'], config: { marketplace: 'US', sort: null } };
  expect(jobBodySchema.safeParse(body).success).toBe(false);
});

it('an enum holds null exactly when its type does, and no anyOf or oneOf repeats a branch', () => {
  const problems: string[] = [];
  for (const [at, s] of schemas(openApiDocument(), '#')) {
    if (Array.isArray(s.enum)) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (s.enum.includes(null) !== types.includes('null'))
        problems.push(`${at}: type ${JSON.stringify(s.type)}, enum ${JSON.stringify(s.enum)}`);
    }
    for (const key of ['anyOf', 'oneOf']) {
      const branches = (s[key] as unknown[] | undefined)?.map((b) => JSON.stringify(b));
      if (branches && new Set(branches).size !== branches.length) problems.push(`${at}/${key}: ${branches.join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
  const doc = openApiDocument() as { components: { schemas: Record<string, { properties: Record<string, Node> }> } };
  // a nullable enum still accepts null, and a nullable named schema still says so once
  expect(doc.components.schemas.DetailsResultItem!.properties.price).toEqual({
    anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }],
    description: expect.any(String),
  });
  expect(schemas(doc, '#').some(([, s]) => Array.isArray(s.enum) && s.enum.includes(null))).toBe(true);
});
