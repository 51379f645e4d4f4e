import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface LedgerEntryRow {
  job_id: string | null;
  kind: 'grant' | 'reserve' | 'refund' | 'consume';
  amount: number;
  balance_after: number;
  created_at: Date;
}

export interface LedgerTotals {
  grant: number;
  reserve: number;
  refund: number;
  consume: number;
}

/**
 * Organization credit balance plus an append-only ledger. Every balance change is one
 * conditional UPDATE (never negative, thanks to `credit_balance >= amount` and the CHECK)
 * followed by one ledger row carrying the balance after it, in the caller's transaction.
 */
export class CreditRepository {
  constructor(private readonly db: Db) {}

  async balance(organizationId: string, executor: Executor = this.db): Promise<number | undefined> {
    const row = await executor.selectFrom('organization').select('credit_balance').where('id', '=', organizationId).executeTakeFirst();
    return row?.credit_balance;
  }

  async grant(organizationId: string, amount: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .updateTable('organization')
      .set((eb) => ({ credit_balance: eb('credit_balance', '+', amount) }))
      .where('id', '=', organizationId)
      .returning('credit_balance')
      .executeTakeFirstOrThrow();
    await this.append(executor, organizationId, null, 'grant', amount, row.credit_balance);
    return row.credit_balance;
  }

  /** Settles a job's reservation: `refunded` goes back to the balance, `consumed` is recorded as spent. */
  async settle(trx: Transaction<Database>, organizationId: string, jobId: string, consumed: number, refunded: number): Promise<void> {
    let balance: number;
    if (refunded > 0) {
      const row = await trx
        .updateTable('organization')
        .set((eb) => ({ credit_balance: eb('credit_balance', '+', refunded) }))
        .where('id', '=', organizationId)
        .returning('credit_balance')
        .executeTakeFirstOrThrow();
      balance = row.credit_balance;
      await this.append(trx, organizationId, jobId, 'refund', refunded, balance);
    } else {
      balance = (await this.balance(organizationId, trx)) ?? 0;
    }
    if (consumed > 0) await this.append(trx, organizationId, jobId, 'consume', consumed, balance);
  }

  async ledgerTotals(organizationId: string): Promise<LedgerTotals> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select(['kind', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('organization_id', '=', organizationId)
      .groupBy('kind')
      .execute();
    const totals: LedgerTotals = { grant: 0, reserve: 0, refund: 0, consume: 0 };
    for (const r of rows) totals[r.kind] = Number(r.total);
    return totals;
  }

  /**
   * Ledger totals per kind over [from, to] as one project sees them: its own jobs' entries plus
   * the organization's grants (they feed the shared balance). Entries of the organization's
   * other projects stay hidden.
   */
  async projectTotals(organizationId: string, projectId: string, from: Date, to: Date): Promise<LedgerTotals> {
    const rows = await this.projectLedger(organizationId, projectId, from, to)
      .select(['kind', (eb) => eb.fn.sum<number>('amount').as('total')])
      .groupBy('kind')
      .execute();
    const totals: LedgerTotals = { grant: 0, reserve: 0, refund: 0, consume: 0 };
    for (const r of rows) totals[r.kind] = Number(r.total);
    return totals;
  }

  /** The project's ledger entries over [from, to] (see `projectTotals`), newest first. */
  async projectLedgerPage(
    organizationId: string,
    projectId: string,
    range: { from: Date; to: Date; limit: number; offset: number },
  ): Promise<{ rows: LedgerEntryRow[]; total: number }> {
    const query = this.projectLedger(organizationId, projectId, range.from, range.to);
    const [rows, count] = await Promise.all([
      query
        .select(['job_id', 'kind', 'amount', 'balance_after', 'created_at'])
        .orderBy('id', 'desc')
        .limit(range.limit)
        .offset(range.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  private projectLedger(organizationId: string, projectId: string, from: Date, to: Date) {
    return this.db
      .selectFrom('credit_ledger')
      .where('organization_id', '=', organizationId)
      .where('created_at', '>=', from)
      .where('created_at', '<=', to)
      .where((eb) =>
        eb.or([
          eb('job_id', 'is', null),
          eb(
            'job_id',
            'in',
            eb.selectFrom('job').select('job.id').where('job.project_id', '=', projectId).where('job.organization_id', '=', organizationId),
          ),
        ]),
      );
  }

  private async append(
    executor: Executor,
    organizationId: string,
    jobId: string | null,
    kind: 'grant' | 'reserve' | 'refund' | 'consume',
    amount: number,
    balanceAfter: number,
  ): Promise<void> {
    await executor
      .insertInto('credit_ledger')
      .values({ organization_id: organizationId, job_id: jobId, kind, amount, balance_after: balanceAfter })
      .execute();
  }
}
