import { Link } from '@tanstack/react-router';
import type { Schemas } from '../../api/client';
import { count } from '../../ui/format';
import { Table } from '../../ui/table';
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
    <Table caption="Credit ledger" columns={['Kind', 'Amount', 'Balance after', 'Time', 'Job']}>
      {entries.map((e, i) => (
        <tr key={`${e.createdAt}-${e.kind}-${e.jobId ?? ''}-${i}`}>
          <td>{KIND_LABELS[e.kind]}</td>
          <td>{count(e.amount)}</td>
          <td>{count(e.balanceAfter)}</td>
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
    </Table>
  );
}
