import { ApiError } from '../../api/client';

export type RuleField =
  'name' | 'condition' | 'value' | 'baseline' | 'field' | 'asins' | 'marketplace' | 'postalCode' | 'cooldownSeconds' | 'maxPerDay';

/**
 * A rule's validation problems by form field: `body.condition.value` -> value, `body.asins.2` ->
 * asins ("Line 3: …", the line of the textbox the ASIN came from), `body.cooldownSeconds` ->
 * cooldownSeconds. A problem of no field (the rules limit, an unknown field) stays in the
 * dialog's alert only. `lineOf` maps the index of a sent ASIN to its line in the textbox.
 */
export function ruleFieldErrors(error: unknown, lineOf: (index: number) => number): Partial<Record<RuleField, string>> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Partial<Record<RuleField, string>> = {};
  for (const issue of error.details as Array<{ path?: string; message?: string }>) {
    const [where, top, sub] = String(issue.path ?? '').split('.');
    if (where !== 'body' || !top) continue;
    const field = (top === 'condition' && (sub === 'value' || sub === 'baseline' || sub === 'field') ? sub : top) as RuleField;
    const line = field === 'asins' && sub !== undefined && /^\d+$/.test(sub) ? `Line ${lineOf(Number(sub))}: ` : '';
    if (!out[field]) out[field] = `${line}${issue.message ?? 'is invalid'}`;
  }
  return out;
}
