import { AppError, type FieldIssue } from '@crawl/core';
import { z } from 'zod';

/**
 * Every zod issue becomes a `{path, message}` entry of a 400's details (`query.limit`,
 * `body.config.pages`), not just the first. The message names the first problem once:
 * `Invalid request query: unknown field(s): type.`, `Invalid request body: config.pages must be
 * at most 7 for search jobs.` (the part of the request, then the field within it, if any).
 */
export function parseOrThrow<S extends z.ZodTypeAny>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    field: issue.path.join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  const details: FieldIssue[] = issues.map(({ field, message }) => ({ path: field ? `${where}.${field}` : where, message }));
  const first = issues[0]!;
  throw new AppError(
    'VALIDATION_ERROR',
    `Invalid request ${where}: ${first.field ? `${first.field} ` : ''}${first.message.replace(/\.$/, '')}.`,
    { details },
  );
}

/**
 * An integer query parameter (`?limit=20`): a string of digits, parsed to a number within
 * [min, max]. Documented as an integer, which is what clients send and the SDK types.
 */
export const intQueryParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(String(fallback))
    // the metadata is typed by the zod input (a string); the document describes what clients send
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback as unknown as string });
