import { count } from '../../ui/format';
import { isActive } from './job-status';
import type { Job } from './jobs.queries';

/** Succeeded and failed targets out of all, as a bar with its numbers for assistive technologies. */
export function Progress({ job }: { job: Job }) {
  const { total, succeeded, failed } = job.progress;
  const done = succeeded + failed;
  const pct = (n: number) => (total ? `${(100 * n) / total}%` : '0%');
  const text = `${count(succeeded)} succeeded, ${count(failed)} failed, of ${count(total)} ${total === 1 ? 'target' : 'targets'}`;
  return (
    <div className="progress">
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={text}
        className="progress-track"
      >
        <span className="progress-ok" style={{ width: pct(succeeded) }} />
        <span className="progress-failed" style={{ width: pct(failed) }} />
      </div>
      <p className="progress-text">
        {text}
        {isActive(job.status) && <span className="muted"> · updating</span>}
      </p>
    </div>
  );
}

export function Credits({ job }: { job: Job }) {
  const items = [
    ['Credits reserved', job.credits.reserved],
    ['Credits consumed', job.credits.consumed],
    ['Credits refunded', job.credits.refunded],
  ] as const;
  return (
    <div className="stats">
      {items.map(([label, value]) => (
        <div className="stat" key={label}>
          <span className="stat-label">{label}</span>
          <span className="stat-value">{count(value)}</span>
        </div>
      ))}
    </div>
  );
}
