import { ApiError } from '../../api/client';
import { CreditsHelp } from './credits-help';

interface Issue {
  path?: string;
  message?: string;
}

/** A form field of the job form that an API issue path (`body.targets.2`, `body.config.pages`) concerns. */
export type JobField = 'type' | 'targets' | 'marketplace' | 'pages' | 'sort' | 'lang';

/** Field names as the form shows them, for the alert's list. */
const FIELD_LABELS: Record<JobField, string> = {
  type: 'Type',
  targets: 'Targets',
  marketplace: 'Marketplace',
  pages: 'Pages',
  sort: 'Sort',
  lang: 'Language',
};

const FIELDS = new Set<string>(Object.keys(FIELD_LABELS));

/** One problem of a VALIDATION_ERROR in words: the field it concerns and, for a target, its line. */
interface Problem {
  field: JobField | null;
  text: string;
}

function problemOf(issue: Issue, lineOf: (index: number) => number): Problem {
  const parts = String(issue.path ?? '')
    .split('.')
    .filter((p) => p !== 'body');
  const message = issue.message ?? 'is invalid';
  const name = parts[0] === 'config' ? parts[1] : parts[0];
  const field = name && FIELDS.has(name) ? (name as JobField) : null;
  // `targets.2` is the third target sent, on the line of the textarea `lineOf` says
  const line = field === 'targets' && parts[1] !== undefined && /^\d+$/.test(parts[1]) ? lineOf(Number(parts[1])) : null;
  return { field, text: line ? `line ${line}: ${message}` : message };
}

/**
 * The problems of an API error, by form field (several targets' problems joined), and all of them in order.
 * `lineOf` turns the index of a target sent into its line number in the form (blank lines are not sent).
 */
export function jobFormProblems(
  error: unknown,
  lineOf: (index: number) => number = (i) => i + 1,
): { byField: Partial<Record<JobField, string>>; all: Problem[] } {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR' || !Array.isArray(error.details)) return { byField: {}, all: [] };
  const all = (error.details as Issue[]).map((issue) => problemOf(issue, lineOf));
  const byField: Partial<Record<JobField, string>> = {};
  for (const p of all) if (p.field) byField[p.field] = byField[p.field] ? `${byField[p.field]}; ${p.text}` : p.text;
  return { byField, all };
}

/**
 * The API's refusal of a create in an alert with the request id: every validation problem named with
 * its field (each is also shown next to the field), or the cost and balance of INSUFFICIENT_CREDITS.
 */
export function CreateJobAlert({ error, lineOf, projectId }: { error: unknown; lineOf?: (index: number) => number; projectId: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const { all } = jobFormProblems(error, lineOf);
  // its message says the cost and the balance
  const credits = api?.code === 'INSUFFICIENT_CREDITS';
  return (
    <div role="alert" className="notice error">
      <strong>{credits ? 'Not enough credits. ' : all.length ? 'The job was not created. ' : 'The job could not be created. '}</strong>
      {api ? api.message : error instanceof Error ? error.message : String(error)}
      {credits && <CreditsHelp projectId={projectId} />}
      {all.length > 0 && (
        <ul className="problem-list">
          {all.map((p, i) => (
            <li key={i}>
              {p.field ? `${FIELD_LABELS[p.field]}, ` : ''}
              {p.text}
            </li>
          ))}
        </ul>
      )}
      {api?.requestId && (
        <span className="request-id">
          Request id: <code>{api.requestId}</code>
        </span>
      )}
    </div>
  );
}
