import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Schemas } from '../../api/client';
import { EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { Table } from '../../ui/table';
import { formatTime } from '../../ui/time';
import { fetchJobs, type Job, jobKeys } from '../jobs/jobs.queries';
import { FIELD_LABELS, formatChangeValue } from './format';
import { comparisonQuery } from './tracking.queries';

type Comparison = Schemas['Comparison'];

const jobLabel = (j: Job) =>
  `${j.type} · ${j.targets[0] ?? ''}${j.targets.length > 1 ? ` +${j.targets.length - 1}` : ''} · ${formatTime(j.createdAt)}`;

interface Row {
  kind: 'Added' | 'Removed' | 'Changed' | 'Moved';
  asin: string;
  detail: string;
}

/** Every difference as one row: products only in the later set (added), only in the earlier (removed), changed or moved. */
function rowsOf(c: Comparison): Row[] {
  return [
    ...c.onlyInTo.map((asin): Row => ({ kind: 'Added', asin, detail: '' })),
    ...c.onlyInFrom.map((asin): Row => ({ kind: 'Removed', asin, detail: '' })),
    ...c.changed.map((x): Row => ({
      kind: 'Changed',
      asin: x.asin,
      detail: x.changes
        .map((ch) => `${FIELD_LABELS[ch.field]}: ${formatChangeValue(ch, 'from')} → ${formatChangeValue(ch, 'to')}`)
        .join('; '),
    })),
    ...c.moved.map((x): Row => ({ kind: 'Moved', asin: x.asin, detail: `${x.keyword}: position ${x.from} → ${x.to}` })),
  ];
}

/** Pick two completed jobs (`?from=&to=`) and see what differs between their result sets. */
export function CompareJobs(props: {
  projectId: string;
  from?: string;
  to?: string;
  onChange: (next: { from?: string; to?: string }) => void;
}) {
  const { projectId, from, to } = props;
  const jobs = useQuery({
    queryKey: jobKeys.completed(projectId),
    queryFn: () => fetchJobs(projectId, { status: 'completed', limit: 100 }),
  });
  const comparison = useQuery(comparisonQuery(projectId, from, to));
  const options = [{ value: '', label: 'Choose a job' }, ...(jobs.data?.data ?? []).map((j) => ({ value: j.id, label: jobLabel(j) }))];

  return (
    <section aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare two result sets</h2>
      {jobs.isLoading && <Loading what="completed jobs" />}
      <ErrorNotice error={jobs.error} />
      {jobs.data && jobs.data.data.length < 2 ? (
        <EmptyState title="Two completed jobs are needed">
          <p>
            Run the same crawl twice (
            <Link to="/console/projects/$projectId/jobs" params={{ projectId }}>
              Jobs
            </Link>
            ) to compare what changed between them.
          </p>
        </EmptyState>
      ) : (
        jobs.data && (
          <div className="filters compare-pickers">
            <SelectField
              label="Earlier job"
              value={from ?? ''}
              onChange={(v) => props.onChange({ from: v || undefined, to })}
              options={options}
            />
            <SelectField
              label="Later job"
              value={to ?? ''}
              onChange={(v) => props.onChange({ from, to: v || undefined })}
              options={options}
            />
          </div>
        )
      )}
      {from && to && from === to && <p className="muted">Choose two different jobs.</p>}
      {comparison.isLoading && <Loading what="the comparison" />}
      <ErrorNotice error={comparison.error} />
      {comparison.data && <ComparisonTable comparison={comparison.data.data} />}
    </section>
  );
}

function ComparisonTable({ comparison }: { comparison: Comparison }) {
  const rows = rowsOf(comparison);
  const s = comparison.summary;
  return (
    <>
      <p className="compare-summary" role="status">
        {s.onlyInTo} added, {s.onlyInFrom} removed, {s.changed} changed, {s.moved} moved; {s.inBoth} in both.
      </p>
      {comparison.note && <p className="muted">{comparison.note}</p>}
      {rows.length > 0 && (
        <Table caption="Differences between the two result sets" columns={['Difference', 'ASIN', 'Details']}>
          {rows.map((r, i) => (
            <tr key={`${r.kind}-${r.asin}-${i}`}>
              <td>
                <span className={`badge ${r.kind === 'Added' ? 'ok' : r.kind === 'Removed' ? 'bad' : 'warn'}`}>{r.kind}</span>
              </td>
              <td className="mono">{r.asin}</td>
              <td className="change-value">{r.detail || <span className="muted">—</span>}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
