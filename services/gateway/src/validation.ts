import { AppError, type FieldIssue } from '@crawl/core';
import { z } from 'zod';

/** Every zod issue becomes a `{path, message}` entry of a 400's details, not just the first. */
export function parseOrThrow<S extends z.ZodTypeAny>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: FieldIssue[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path].join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw new AppError('VALIDATION_ERROR', `Invalid request ${where}: ${details[0]!.path} ${details[0]!.message}.`, { details });
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
