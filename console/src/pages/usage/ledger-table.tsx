import { Link } from '@tanstack/react-router';
import type { Schemas } from '../../api/client';
import { DateTime } from '../../ui/time';

const KIND_LABELS: Record<Schemas['LedgerEntry']['kind'], string> = {
  grant: 'Grant',
  reserve: 'Reserve',
  consume: 'Consume',
  refund: 'Refund',
};

/** The credit ledger of the range, newest first: what moved the balance, and which job did. */
export function LedgerTable({ entries }: { entries: Schemas['LedgerEntry'][] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>Credit ledger</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Amount</th>
            <th scope="col">Balance after</th>
            <th scope="col">Time</th>
            <th scope="col">Job</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={`${e.createdAt}-${e.kind}-${e.jobId ?? ''}-${i}`}>
              <td>{KIND_LABELS[e.kind]}</td>
              <td>{e.amount}</td>
              <td>{e.balanceAfter}</td>
              <td>
                <DateTime value={e.createdAt} withSeconds />
              </td>
              <td>
                {e.jobId ? (
                  <Link to="/console/jobs/$jobId" params={{ jobId: e.jobId }} className="mono">
                    {e.jobId}
                  </Link>
                ) : (
                  <span className="muted">Organization</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
