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
 * The repository is bound to the transaction because the commands' callers (tests, the demo)
 * hand them only the tenancy and credit repositories.
 */
export async function recordOperatorChange(trx: Transaction<Database>, changes: OperatorChange | OperatorChange[]): Promise<void> {
  const list = (Array.isArray(changes) ? changes : [changes]).map((c) => ({ ...c, actorUserId: null, clientAddress: null }));
  await new AuditLogRepository(trx).record(list, trx);
}
