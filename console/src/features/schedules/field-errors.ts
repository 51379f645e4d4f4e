import { ApiError } from '../../api/client';

/**
 * A schedule's validation problems by form field: `body.cron` -> cron, `body.crawlConfig.targets.2` -> targets,
 * `body.crawlConfig.config.marketplace` -> marketplace (ApiError.fieldErrors stops at `crawlConfig`).
 */
export function scheduleFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Record<string, string> = {};
  for (const issue of error.details as Array<{ path?: string; message?: string }>) {
    const parts = String(issue.path ?? '').split('.');
    let field = parts[1] ?? '';
    if (field === 'crawlConfig') field = parts[2] === 'config' ? (parts[3] ?? 'crawlConfig') : (parts[2] ?? 'crawlConfig');
    const where = field === 'targets' && parts[3] !== undefined ? `Line ${Number(parts[3]) + 1}: ` : '';
    if (field && !out[field]) out[field] = `${where}${issue.message ?? 'is invalid'}`;
  }
  return out;
}
