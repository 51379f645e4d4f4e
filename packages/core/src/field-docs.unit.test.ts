import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from './openapi-zod';
import { JOB_TYPES } from './domain';
import { JOB_KINDS } from './kinds';
import { fieldDocs, fieldTable, typeInWords, withFieldTables } from './field-docs';

const RESULTS_PAGE = path.resolve(__dirname, '../../../docs/results.md');

describe('result field tables', () => {
  it('every field of every item type has a meaning', () => {
    for (const type of JOB_TYPES) {
      const docs = fieldDocs(JOB_KINDS[type].itemSchema);
      expect(docs.map((d) => d.name)).toEqual(Object.keys(JOB_KINDS[type].itemSchema.shape));
      for (const d of docs) expect(d.meaning.length).toBeGreaterThan(5);
    }
  });

  it('a field without a description is refused, so the docs cannot skip one', () => {
    expect(() => fieldDocs(z.object({ shown: z.string().describe('fine'), bare: z.number() }))).toThrow('field bare has no description');
  });

  it('types read as words, nullable and nested ones too', () => {
    expect(typeInWords(z.number().int().nullable())).toBe('integer or null');
    expect(typeInWords(z.array(z.enum(['a', 'b'])))).toBe('array of (one of `a`, `b`)');
    expect(typeInWords(z.union([z.object({ x: z.string() }), z.null()]))).toBe('object {x} or null');
    expect(typeInWords(z.record(z.string()))).toBe('object of string');
  });

  it('a pipe in a description does not break the table', () => {
    expect(fieldTable('reviews')).toContain('Size: 27-Inch \\| Style: Curved');
  });

  it('docs/results.md holds the current tables (run `pnpm docs:fields` after changing an item schema)', () => {
    const page = readFileSync(RESULTS_PAGE, 'utf8');
    expect(withFieldTables(page)).toBe(page);
  });
});
