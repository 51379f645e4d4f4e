import type { AuditAction } from '@crawl/core';
import { AuditLogRepository, type Database, type Transaction } from '@crawl/db';

export interface OperatorChange {
  organizationId: string;
  action: AuditAction;
  subject: { type: string; id: string };
  details: Record<string, unknown>;
}

/**
 * The operator's changes in the organizations' audit logs, written in the change's own
 * transaction (docs/accounts.md, "Audit log"): no actor (the operator) and no client address.
 * The repository is made here, on the transaction, so that the commands' dependencies
 * (`AdminDeps`, which tests and the demo build too) need none for the audit log.
 */
export async function recordOperatorChange(trx: Transaction<Database>, changes: OperatorChange | OperatorChange[]): Promise<void> {
  const list = (Array.isArray(changes) ? changes : [changes]).map((c) => ({ ...c, actorUserId: null, clientAddress: null }));
  await new AuditLogRepository(trx).record(list, trx);
}
