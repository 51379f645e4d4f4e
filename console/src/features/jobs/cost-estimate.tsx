import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { count } from '../../ui/format';
import { estimateJob, type JobBody, jobKeys } from './jobs.queries';
import { jobFormProblems } from './problems';

/** A value that follows `value` once it stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What the job would cost now, from the API's own estimate (same validation and prices as a create). */
export function CostEstimate({ projectId, body, lineOf }: { projectId: string; body: JobBody; lineOf: (index: number) => number }) {
  const key = JSON.stringify(body);
  const settled = useDebounced(key, 400);
  const estimate = useQuery({
    queryKey: jobKeys.estimate(projectId, settled),
    queryFn: () => estimateJob(projectId, JSON.parse(settled) as JobBody),
    enabled: body.targets.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
  const stale = settled !== key || estimate.isFetching;
  let text: ReactNode;
  if (!body.targets.length) text = 'Enter at least one target to see what the job costs.';
  else if (estimate.error) {
    const first = jobFormProblems(estimate.error, lineOf).all[0];
    text =
      estimate.error instanceof ApiError && estimate.error.code === 'VALIDATION_ERROR'
        ? `No estimate until the form is valid${first ? `: ${first.text}` : '.'}`
        : `No estimate: ${estimate.error.message}`;
  } else if (estimate.data) {
    const e = estimate.data;
    text = (
      <>
        <span className="estimate-cost">
          {count(e.targets)} {e.targets === 1 ? 'target' : 'targets'} × {count(e.creditsPerTarget)} credits
          {e.pages ? ` (${e.pages} ${e.pages === 1 ? 'page' : 'pages'} each)` : ''} = <strong>{count(e.cost)} credits</strong>
        </span>
        <span>
          Balance: {count(e.balance)} credits.{' '}
          {e.accepted ? (
            <span className="badge ok">Can run now</span>
          ) : (
            <span className="badge bad">{e.refusal?.message ?? 'Would be refused'}</span>
          )}
        </span>
      </>
    );
  } else text = 'Estimating the cost…';
  return (
    <div className="estimate" role="status" aria-busy={stale || undefined}>
      <span className="estimate-label">Cost estimate{stale && body.targets.length ? ' (updating…)' : ''}</span>
      {text}
    </div>
  );
}
