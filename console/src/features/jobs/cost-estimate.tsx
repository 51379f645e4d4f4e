import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
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

/**
 * What a create with `body` would cost now, from the API's own estimate (same validation and
 * prices as a create), asked for once the form stopped changing. `stale`: the form changed since.
 */
export function useCostEstimate(projectId: string, body: JobBody) {
  const key = JSON.stringify(body);
  const settled = useDebounced(key, 400);
  const settledBody = useMemo(() => JSON.parse(settled) as JobBody, [settled]);
  const estimate = useQuery({
    queryKey: jobKeys.estimate(projectId, settled),
    queryFn: () => estimateJob(projectId, settledBody),
    // the body asked about is the settled one: a form typed into quickly has targets before its
    // settled body does, and a body without targets only earns a 400
    enabled: settledBody.targets.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
  return { estimate, stale: settled !== key || estimate.isFetching };
}

export type CostEstimateState = ReturnType<typeof useCostEstimate>;

/** The estimate of `useCostEstimate` in words: targets × price = cost, the balance, and whether it can run. */
export function CostEstimate({ body, lineOf, state }: { body: JobBody; lineOf: (index: number) => number; state: CostEstimateState }) {
  const { estimate, stale } = state;
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
            <span className="badge bad">
              {e.refusal?.code === 'INSUFFICIENT_CREDITS' ? 'Not enough credits' : (e.refusal?.message ?? 'Would be refused')}
            </span>
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
