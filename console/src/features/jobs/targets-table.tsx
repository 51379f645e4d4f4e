import { type ReactNode, useState } from 'react';
import { count } from '../../ui/format';
import { Button } from '../../ui/forms';
import { Table } from '../../ui/table';
import { finished } from './job-status';
import type { Job } from './jobs.queries';

const TARGETS_SHOWN = 100;

interface Outcome {
  label: string;
  tone: 'ok' | 'bad' | '';
  detail: ReactNode;
}

/**
 * What became of each target. The job lists its failed targets (errors) and those with a note;
 * the others succeeded once it has finished, except those a cancel stopped before they were crawled:
 * the progress counts say how many those are, not which (unless none of the rest succeeded).
 */
function outcomes(job: Job): (target: string) => Outcome {
  const errors = new Map(job.errors.map((e) => [e.target, e]));
  const notes = new Map(job.notes.map((n) => [n.target, n]));
  const { total, succeeded, failed } = job.progress;
  const notCrawled = total - succeeded - failed;
  return (target) => {
    const error = errors.get(target);
    if (error)
      return {
        label: 'failed',
        tone: 'bad',
        detail: (
          <span className="outcome-failed">
            <code>{error.code}</code> {error.message}
          </span>
        ),
      };
    const note = notes.get(target);
    if (note)
      return {
        label: 'succeeded',
        tone: 'ok',
        detail: (
          <>
            <code>{note.code}</code> {note.message}
          </>
        ),
      };
    if (!finished(job)) return { label: 'pending', tone: '', detail: <span className="muted">Not finished yet</span> };
    if (notCrawled <= 0) return { label: 'succeeded', tone: 'ok', detail: <span className="muted">—</span> };
    if (succeeded === 0)
      return { label: 'not crawled', tone: '', detail: <span className="muted">The job ended before this target was crawled.</span> };
    return {
      label: 'succeeded or not crawled',
      tone: '',
      detail: <span className="muted">The job ended with {count(notCrawled)} targets not crawled; the results show which succeeded.</span>,
    };
  };
}

/** Every target with its outcome: failed (code and message), succeeded (with a note), pending or not crawled. */
export function TargetsTable({ job }: { job: Job }) {
  const [all, setAll] = useState(false);
  const outcomeOf = outcomes(job);
  const shown = all ? job.targets : job.targets.slice(0, TARGETS_SHOWN);
  return (
    <>
      <Table caption={`Targets of job ${job.id} and their outcome`} captionHidden columns={['Target', 'Outcome', 'Detail']}>
        {shown.map((t) => {
          const outcome = outcomeOf(t);
          return (
            <tr key={t}>
              <td className="mono target-cell">{t}</td>
              <td>
                <span className={`badge ${outcome.tone}`.trim()}>{outcome.label}</span>
              </td>
              <td>{outcome.detail}</td>
            </tr>
          );
        })}
      </Table>
      {job.targets.length > TARGETS_SHOWN && (
        <div className="row">
          <Button variant="secondary" onPress={() => setAll(!all)}>
            {all ? `Show the first ${TARGETS_SHOWN} targets` : `Show all ${count(job.targets.length)} targets`}
          </Button>
        </div>
      )}
    </>
  );
}
