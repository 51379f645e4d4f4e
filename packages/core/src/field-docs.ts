import { z } from './openapi-zod';
import type { JobType } from './domain';
import { JOB_KINDS } from './kinds';
import { shapeOf } from './schema-order';

/**
 * The field tables of docs/results.md, rendered from the item schemas: the field list, the
 * types and the meanings are the schemas' own, so the documentation cannot drift from what the
 * API returns. `pnpm docs:fields` writes them into that page between markers, and a test fails
 * when the page is behind.
 */

export interface FieldDoc {
  name: string;
  type: string;
  meaning: string;
}

/** A component's name given with `.openapi('Money')`, when the schema has one. */
function componentName(schema: z.ZodTypeAny): string | undefined {
  const openapi = (schema._def as { openapi?: { _internal?: { refId?: string } } }).openapi;
  return openapi?._internal?.refId;
}

/** The type of a field in words: `integer or null`, `array of string`, `Money {amount, currency}`. */
export function typeInWords(schema: z.ZodTypeAny): string {
  if (schema instanceof z.ZodNullable) return `${typeInWords(schema.unwrap() as z.ZodTypeAny)} or null`;
  if (schema instanceof z.ZodOptional) return typeInWords(schema.unwrap() as z.ZodTypeAny);
  if (schema instanceof z.ZodUnion) {
    const options = schema.options as z.ZodTypeAny[];
    const nonNull = options.filter((o) => !(o instanceof z.ZodNull));
    const words = nonNull.map(typeInWords).join(' or ');
    return nonNull.length < options.length ? `${words} or null` : words;
  }
  if (schema instanceof z.ZodString) return 'string';
  if (schema instanceof z.ZodNumber) return schema.isInt ? 'integer' : 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodEnum) return `one of ${(schema.options as string[]).map((o) => `\`${o}\``).join(', ')}`;
  if (schema instanceof z.ZodArray) {
    const element = typeInWords(schema.element as z.ZodTypeAny);
    return `array of ${element.startsWith('one of ') ? `(${element})` : element}`;
  }
  if (schema instanceof z.ZodRecord) return `object of ${typeInWords(schema.valueSchema as z.ZodTypeAny)}`;
  if (schema instanceof z.ZodObject) {
    const keys = `{${Object.keys(shapeOf(schema)).join(', ')}}`;
    const name = componentName(schema);
    return name ? `${name} ${keys}` : `object ${keys}`;
  }
  throw new Error(`no words for a ${schema.constructor.name} field`);
}

/** The description of a field, wherever in its wrappers it was given. */
function meaningOf(schema: z.ZodTypeAny): string | undefined {
  if (schema.description) return schema.description;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return meaningOf(schema.unwrap() as z.ZodTypeAny);
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodTypeAny[]) {
      const meaning = meaningOf(option);
      if (meaning) return meaning;
    }
  }
  return undefined;
}

/** One row per field of an item schema, in its documented order; a field without a description is a bug. */
export function fieldDocs(schema: z.AnyZodObject): FieldDoc[] {
  return Object.entries(shapeOf(schema)).map(([name, field]) => {
    const meaning = meaningOf(field);
    if (!meaning) throw new Error(`field ${name} has no description`);
    return { name, type: typeInWords(field), meaning };
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The markdown table of a job type's result item. */
export function fieldTable(type: JobType): string {
  const rows = fieldDocs(JOB_KINDS[type].itemSchema).map((f) => `| \`${f.name}\` | ${cell(f.type)} | ${cell(f.meaning)} |`);
  return ['| field | type | meaning, and when it is null |', '|---|---|---|', ...rows].join('\n');
}

/** The markers around a job type's table in docs/results.md. */
export function fieldTableMarkers(type: JobType): { start: string; end: string } {
  return { start: `<!-- fields:${type}:start -->`, end: `<!-- fields:${type}:end -->` };
}

/** `readme` with every job type's table between its markers replaced by the current rendering. */
export function withFieldTables(readme: string): string {
  let out = readme;
  for (const type of Object.keys(JOB_KINDS) as JobType[]) {
    const { start, end } = fieldTableMarkers(type);
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`the page has no ${start} ... ${end} section`);
    out = `${out.slice(0, from + start.length)}\n${fieldTable(type)}\n${out.slice(to)}`;
  }
  return out;
}
