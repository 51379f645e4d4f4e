import { AppError, type FieldIssue } from '@crawl/core';
import type { z } from 'zod';

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
