import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { alertKeys, type CreateAlertRuleBody, previewAlertRule } from './alerts.queries';

/** How long the form rests before a preview is asked for: typing a price asks once, not per key. */
const DEBOUNCE_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const times = (n: number) => `${n.toLocaleString()} time${n === 1 ? '' : 's'}`;

/**
 * "Would have fired N times in the last 30 days": the rule replayed by the API over the
 * project's stored snapshots (docs/alerts.md, "Preview"), asked for again as the condition,
 * value or products change. A polite live region reads the new figure; a preview that fails
 * says so and never stands in the way of creating the rule.
 */
export function RulePreview({ projectId, body, complete }: { projectId: string; body: CreateAlertRuleBody; complete: boolean }) {
  // the name and the mail change nothing in what the rule would have done
  const { name: _name, notify: _notify, ...rule } = body;
  // the body and whether it is complete settle together: a body from before the last edit is
  // never sent because the form is complete now (a stock condition's body with a price rule's gap)
  const settled = useDebounced(JSON.stringify({ rule, complete }), DEBOUNCE_MS);
  const asked = JSON.parse(settled) as { rule: typeof rule; complete: boolean };
  const preview = useQuery({
    queryKey: [...alertKeys.ofProject(projectId), 'preview', JSON.stringify(asked.rule)],
    queryFn: () => previewAlertRule(projectId, asked.rule),
    enabled: complete && asked.complete && settled === JSON.stringify({ rule, complete }),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
  let text = '';
  if (!complete) text = 'Enter a value to see how often this rule would have fired.';
  else if (preview.isError) text = `No preview: ${preview.error.message}`;
  else if (!preview.data) text = 'Replaying the last 30 days…';
  else {
    const p = preview.data.data;
    const products = `${p.productsEvaluated.toLocaleString()} product${p.productsEvaluated === 1 ? '' : 's'}`;
    text =
      `Would have fired ${times(p.fired)} in the last 30 days` +
      (p.suppressed ? `, and ${times(p.suppressed)} more past the daily cap` : '') +
      ` (${products}, ${p.snapshotsEvaluated.toLocaleString()} snapshots${p.truncated ? '; only part of the products read' : ''}).`;
  }
  return (
    <p className="rule-preview" role="status" aria-live="polite" aria-busy={preview.isFetching}>
      {text}
    </p>
  );
}
