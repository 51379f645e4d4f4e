import type { AuditAction } from '@crawl/core';
import type { AuditLogRepository, Database, Transaction } from '@crawl/db';
import type { Request } from 'express';
import { clientAddress } from '../access/account-guards';

/**
 * Who changes a project's configuration through the project API: the calling user, with the API
 * key they called with (none for a console session), and from where.
 */
export interface ProjectActor {
  projectId: string;
  organizationId: string;
  userId: string;
  keyId?: string | null;
  clientAddress?: string | null;
}

export const projectActor = (req: Request): ProjectActor => ({
  projectId: req.principal.projectId,
  organizationId: req.principal.organizationId,
  userId: req.principal.userId,
  keyId: req.principal.keyId,
  clientAddress: clientAddress(req),
});

/**
 * Records a project-API change in the organization's audit log (docs/accounts.md, "Audit log"),
 * in `trx`: the entry commits or rolls back with the change. `details` must hold no secret.
 */
export function recordProjectChange(
  audit: AuditLogRepository,
  trx: Transaction<Database>,
  actor: ProjectActor,
  action: AuditAction,
  subject: { type: string; id: string },
  details: Record<string, unknown>,
): Promise<void> {
  return audit.record(
    {
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action,
      subject,
      details: actor.keyId ? { ...details, keyId: actor.keyId } : details,
      clientAddress: actor.clientAddress ?? null,
    },
    trx,
  );
}
