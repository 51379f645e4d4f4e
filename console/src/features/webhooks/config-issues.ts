import { ApiError } from '../../api/client';

/**
 * The API's problem with one field of the configs it was sent (`body.configs.3.url`), for the
 * configs at the given indexes: the dialog shows it next to its field.
 */
export function configIssue(error: unknown, indexes: number[], field: string): string | undefined {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return undefined;
  for (const issue of error.details as Array<{ path?: string; message?: string }>) {
    const [, , index, name] = String(issue.path ?? '').split('.');
    if (name === field && indexes.includes(Number(index))) return issue.message;
  }
  return undefined;
}
