import { AppError, type LedgerEntryResource, rateLimitPolicy, type UsageResource } from '@crawl/core';
import type { CreditRepository, ProjectPrincipal, LedgerEntryRow } from '@crawl/db';

export interface UsageQuery {
  from: Date;
  to: Date;
  limit: number;
  offset: number;
}

function toLedgerEntry(row: LedgerEntryRow): LedgerEntryResource {
  return {
    jobId: row.job_id,
    kind: row.kind,
    amount: row.amount,
    balanceAfter: row.balance_after,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Balance and usage as a project sees them. The balance and plan are the
 * organization's (shared by its projects); the totals and the ledger are the project's own
 * jobs' entries plus the organization's grants, never another project's job ids.
 */
export class UsageService {
  constructor(private readonly credits: CreditRepository) {}

  async forProject(principal: ProjectPrincipal, query: UsageQuery): Promise<{ usage: UsageResource; total: number }> {
    const { organizationId, projectId } = principal;
    const [balance, totals, page] = await Promise.all([
      this.credits.balance(organizationId),
      this.credits.projectTotals(organizationId, projectId, query.from, query.to),
      this.credits.projectLedgerPage(organizationId, projectId, query),
    ]);
    if (balance === undefined) throw new AppError('NOT_FOUND', `Organization ${organizationId} not found.`);
    const usage: UsageResource = {
      organizationId,
      plan: principal.plan,
      balance,
      rateLimit: rateLimitPolicy(principal.plan, principal.perMinuteLimit),
      range: { from: query.from.toISOString(), to: query.to.toISOString() },
      credits: { granted: totals.grant, reserved: totals.reserve, consumed: totals.consume, refunded: totals.refund },
      ledger: page.rows.map(toLedgerEntry),
    };
    return { usage, total: page.total };
  }
}
