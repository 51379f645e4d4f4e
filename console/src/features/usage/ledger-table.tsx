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

type Kind = Schemas['LedgerEntry']['kind'];

/**
 * What each kind does to the balance (docs/console.md, "The ledger's wording"): a job reserves its
 * worst case when created (the balance drops), consumes from that reservation as targets are
 * crawled (the balance does not move again) and gets back what it did not use (a refund).
 */
const MOVES: Record<Kind, (amount: number) => string> = {
  grant: (a) => `+${count(a)}`,
  reserve: (a) => `−${count(a)}`,
  consume: () => 'None: settles the reservation',
  refund: (a) => `+${count(a)}`,
};

/** The ledger's kinds in words, shown above the table. */
export function LedgerLegend() {
  return (
    <p className="muted">
      Reserve takes a job’s most it can cost from the balance when it is created; Consume settles crawled targets against that reservation,
      so the balance does not move again; Refund gives back what the job did not use; Grant adds credits to the organization.
    </p>
  );
}

/** The credit ledger of the range, newest first: what moved the balance, and which job did. */
export function LedgerTable({ entries }: { entries: Schemas['LedgerEntry'][] }) {
  return (
    <Table caption="Credit ledger" columns={['Kind', 'Amount', 'Balance moved', 'Balance after', 'Time', 'Job']}>
      {entries.map((e, i) => (
        <tr key={`${e.createdAt}-${e.kind}-${e.jobId ?? ''}-${i}`}>
          <td>{KIND_LABELS[e.kind]}</td>
          <td>{count(e.amount)}</td>
          <td>{MOVES[e.kind](e.amount)}</td>
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
