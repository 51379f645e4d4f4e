/**
 * The run's invariants, checked against the private database and what the clients and the
 * receivers saw. Every check returns a row of the final table; any failure fails the run.
 */
import { CREDITS_PER_TARGET } from '@crawl/core';
import fs from 'node:fs';
import { type Db, sql } from '@crawl/db';
import type { AcceptedJob, ApiRecord, IdemProblem, KeyRecovery, Tenant } from './load';
import type { ManagedProcess, UnexpectedExit } from './procs';
import type { WebhookReceiver } from './receivers';
import type { RssSeries } from './sampler';

export interface CheckResult {
  check: string;
  ok: boolean;
  /** Informational row: shown, never fails the run. */
  info?: boolean;
  details: string;
}

export interface CheckInput {
  db: Db;
  tenants: Tenant[];
  accepted: Map<string, AcceptedJob>;
  records: ApiRecord[];
  idemProblems: IdemProblem[];
  recoveries: KeyRecovery[];
  gateways: ManagedProcess[];
  receivers: WebhookReceiver[];
  /** Webhook id -> receiver kind, from the PATCH responses. */
  webhookReceiver: Map<string, WebhookReceiver>;
  scheduleIds: string[];
  unexpectedExits: UnexpectedExit[];
  rss: RssSeries[];
  quiesced: boolean;
  postgresLog: string;
  /** Service logs (one file per process incarnation). */
  logDir?: string;
}

const sample = (xs: unknown[], n = 3) =>
  xs.length
    ? ` e.g. ${xs
        .slice(0, n)
        .map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
        .join('; ')}`
    : '';

async function rows<T>(db: Db, query: { execute(db: Db): Promise<{ rows: T[] }> }): Promise<T[]> {
  return (await query.execute(db)).rows;
}

export async function runChecks(input: CheckInput): Promise<CheckResult[]> {
  const { db } = input;
  const projects = input.tenants.map((t) => t.projectId);
  const orgs = input.tenants.map((t) => t.organizationId);
  const out: CheckResult[] = [];
  const add = (check: string, ok: boolean, details: string) => out.push({ check, ok, details });
  const info = (check: string, details: string) => out.push({ check, ok: true, info: true, details });

  // 1. Every job the API accepted (202) exists.
  const acceptedIds = [...input.accepted.keys()];
  const found = new Set((await rows<{ id: string }>(db, sql`select id from job where id = any(${acceptedIds}::text[])`)).map((r) => r.id));
  const missing = acceptedIds.filter((id) => !found.has(id));
  const via = (v: AcceptedJob['via']) => [...input.accepted.values()].filter((a) => a.via === v).length;
  add(
    'accepted jobs stored',
    missing.length === 0,
    `${acceptedIds.length} accepted (create ${via('create')}, retry ${via('retry')}, replay ${via('replay')}); missing ${missing.length}${sample(missing)}`,
  );

  // 2. Every job (accepted, scheduled, or created by a request whose answer was lost) is terminal.
  const byStatus = await rows<{ status: string; n: number; accepted: number }>(
    db,
    sql`select status, count(*)::int as n, count(*) filter (where id = any(${acceptedIds}::text[]))::int as accepted
        from job where project_id = any(${projects}::text[]) group by status order by status`,
  );
  const open = await rows<{ id: string; status: string; pending: number }>(
    db,
    sql`select j.id, j.status, (select count(*)::int from job_target t where t.job_id = j.id and t.status = 'pending') as pending
        from job j where j.project_id = any(${projects}::text[]) and j.status in ('queued', 'running') order by j.created_at limit 5`,
  );
  const openAccepted = byStatus.filter((r) => r.status === 'queued' || r.status === 'running').reduce((a, r) => a + r.accepted, 0);
  const openAll = byStatus.filter((r) => r.status === 'queued' || r.status === 'running').reduce((a, r) => a + r.n, 0);
  add(
    'every job terminal',
    openAll === 0,
    `${byStatus.map((r) => `${r.status} ${r.n}`).join(', ')}; not terminal: ${openAll} (${openAccepted} accepted)${input.quiesced ? '' : ' [quiescence deadline hit]'}${sample(open)}`,
  );

  // 3. Targets of terminal jobs are settled, consistently with the job's state.
  const badTargets = await rows<{ job_id: string; job_status: string; target_status: string; n: number }>(
    db,
    sql`select t.job_id, j.status as job_status, t.status as target_status, count(*)::int as n
        from job_target t join job j on j.id = t.job_id
        where j.project_id = any(${projects}::text[]) and j.status in ('completed', 'failed', 'cancelled')
          and (t.status = 'pending' or (t.status = 'cancelled' and j.status <> 'cancelled'))
        group by 1, 2, 3 limit 10`,
  );
  add(
    'targets of terminal jobs settled',
    badTargets.length === 0,
    badTargets.length
      ? `${badTargets.length}+ jobs with unsettled targets${sample(badTargets)}`
      : 'no pending target in a terminal job, cancelled targets only in cancelled jobs',
  );

  // 4. Counters = rows: succeeded/failed = target rows, results_count = result rows.
  const counters = await rows<{
    id: string;
    succeeded: number;
    t_succeeded: number;
    failed: number;
    t_failed: number;
    results_count: number;
    r_rows: number;
  }>(
    db,
    sql`select j.id, j.succeeded, s.t_succeeded, j.failed, s.t_failed, j.results_count, coalesce(r.r_rows, 0)::int as r_rows
        from job j
        cross join lateral (select count(*) filter (where status = 'succeeded')::int as t_succeeded,
                                   count(*) filter (where status = 'failed')::int as t_failed
                            from job_target t where t.job_id = j.id) s
        left join lateral (select count(*)::int as r_rows from result_item r where r.job_id = j.id) r on true
        where j.project_id = any(${projects}::text[])
          and (j.succeeded <> s.t_succeeded or j.failed <> s.t_failed or j.results_count <> coalesce(r.r_rows, 0))`,
  );
  add(
    'job counters = stored rows',
    counters.length === 0,
    counters.length
      ? `${counters.length} jobs differ${sample(counters)}`
      : 'succeeded, failed, results_count match job_target and result_item rows for every job',
  );

  // 5. Exactly one set of result rows per succeeded target, none for other targets.
  const resultSets = await rows<{
    job_id: string;
    idx: number;
    target_status: string | null;
    n: number;
    min_pos: number;
    max_pos: number;
    type: string;
  }>(
    db,
    sql`with per as (
          select r.job_id, r.target_idx as idx, count(*)::int as n, min(r.position) as min_pos, max(r.position) as max_pos
          from result_item r join job j on j.id = r.job_id
          where j.project_id = any(${projects}::text[]) group by 1, 2)
        select coalesce(per.job_id, t.job_id) as job_id, coalesce(per.idx, t.idx) as idx, t.status as target_status,
               coalesce(per.n, 0) as n, per.min_pos, per.max_pos, j.type
        from per
        full join (select t.* from job_target t join job j on j.id = t.job_id
                   where j.project_id = any(${projects}::text[]) and t.status = 'succeeded') t
          on t.job_id = per.job_id and t.idx = per.idx
        left join job j on j.id = coalesce(per.job_id, t.job_id)
        where t.job_id is null                                   -- rows for a target not marked succeeded
           or (per.job_id is null and t.pages_crawled > 0)       -- succeeded without rows (a keyword without results has none)
           or per.min_pos <> 1 or per.max_pos <> per.n           -- holes or a second set
           or (j.type = 'details' and per.n <> 1)                -- details: one product per target
        limit 20`,
  );
  const succeededTargets = (
    await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from job_target t join job j on j.id = t.job_id where j.project_id = any(${projects}::text[]) and t.status = 'succeeded'`,
    )
  )[0]!.n;
  add(
    'one result set per succeeded target',
    resultSets.length === 0,
    resultSets.length
      ? `${resultSets.length}+ targets wrong${sample(resultSets)}`
      : `${succeededTargets} succeeded targets, each with positions 1..n once (details: 1 row), no rows for other targets`,
  );

  // 6. Credits per terminal job, and the ledger rows of each job.
  const jobCredits = await rows<{
    id: string;
    type: 'search' | 'details';
    status: string;
    target_count: number;
    succeeded: number;
    pages: number;
    pages_crawled: number;
    reserved: number;
    consumed: number;
    refunded: number;
    l_reserve: number;
    l_refund: number;
    l_consume: number;
    n_reserve: number;
    n_refund: number;
    n_consume: number;
  }>(
    db,
    sql`select j.id, j.type, j.status, j.target_count, j.succeeded, coalesce(j.pages, 1) as pages,
               (select coalesce(sum(t.pages_crawled), 0)::int from job_target t where t.job_id = j.id) as pages_crawled, j.credits_reserved as reserved, j.credits_consumed as consumed, j.credits_refunded as refunded,
               coalesce(sum(l.amount) filter (where l.kind = 'reserve'), 0)::int as l_reserve,
               coalesce(sum(l.amount) filter (where l.kind = 'refund'), 0)::int as l_refund,
               coalesce(sum(l.amount) filter (where l.kind = 'consume'), 0)::int as l_consume,
               count(*) filter (where l.kind = 'reserve')::int as n_reserve,
               count(*) filter (where l.kind = 'refund')::int as n_refund,
               count(*) filter (where l.kind = 'consume')::int as n_consume
        from job j left join credit_ledger l on l.job_id = j.id
        where j.project_id = any(${projects}::text[]) and j.status in ('completed', 'failed', 'cancelled')
        group by j.id`,
  );
  const creditProblems: string[] = [];
  for (const j of jobCredits) {
    const cost = CREDITS_PER_TARGET[j.type];
    const why: string[] = [];
    // Reserved per page of every target; consumed per page the succeeded targets crawled.
    if (j.reserved !== j.target_count * j.pages * cost)
      why.push(`reserved ${j.reserved} != ${j.target_count} x ${j.pages} pages x ${cost}`);
    if (j.consumed + j.refunded !== j.reserved) why.push(`consumed ${j.consumed} + refunded ${j.refunded} != reserved ${j.reserved}`);
    if (j.consumed !== j.pages_crawled * cost) why.push(`consumed ${j.consumed} != ${j.pages_crawled} pages crawled x ${cost}`);
    if (j.n_reserve !== 1 || j.l_reserve !== j.reserved) why.push(`ledger reserve ${j.n_reserve} rows / ${j.l_reserve}`);
    if (j.n_refund > 1 || j.l_refund !== j.refunded) why.push(`ledger refund ${j.n_refund} rows / ${j.l_refund} vs ${j.refunded}`);
    if (j.n_consume > 1 || j.l_consume !== j.consumed) why.push(`ledger consume ${j.n_consume} rows / ${j.l_consume} vs ${j.consumed}`);
    if (why.length) creditProblems.push(`${j.id} (${j.status}): ${why.join(', ')}`);
  }
  add(
    'credits per job',
    creditProblems.length === 0,
    `${jobCredits.length} terminal jobs; ${creditProblems.length} wrong${sample(creditProblems)}`,
  );

  // 7. Each organization's ledger balances.
  const ledgers = await rows<{ id: string; balance: number; grant: number; reserve: number; refund: number }>(
    db,
    sql`select o.id, o.credit_balance as balance,
               coalesce(sum(l.amount) filter (where l.kind = 'grant'), 0)::bigint as grant,
               coalesce(sum(l.amount) filter (where l.kind = 'reserve'), 0)::bigint as reserve,
               coalesce(sum(l.amount) filter (where l.kind = 'refund'), 0)::bigint as refund
        from organization o left join credit_ledger l on l.organization_id = o.id
        where o.id = any(${orgs}::text[]) group by o.id`,
  );
  const unbalanced = ledgers.filter((l) => l.grant - l.reserve + l.refund !== l.balance);
  add(
    'ledger balances per organization',
    unbalanced.length === 0 && ledgers.length === orgs.length,
    `${ledgers.length} orgs: ${ledgers.map((l) => `${l.grant}-${l.reserve}+${l.refund}${l.grant - l.reserve + l.refund === l.balance ? '=' : '!='}${l.balance}`).join('; ')}`,
  );

  // 8. One job.completed / job.failed event per finished job, matching its status; none otherwise.
  const eventProblems = await rows<{ id: string; status: string; completed: number; failed: number }>(
    db,
    sql`select j.id, j.status,
               count(e.id) filter (where e.type = 'job.completed')::int as completed,
               count(e.id) filter (where e.type = 'job.failed')::int as failed
        from job j left join event e on e.project_id = j.project_id and e.type in ('job.completed', 'job.failed') and e.data->>'id' = j.id
        where j.project_id = any(${projects}::text[])
        group by j.id, j.status
        having (j.status = 'completed' and (count(e.id) filter (where e.type = 'job.completed') <> 1 or count(e.id) filter (where e.type = 'job.failed') <> 0))
            or (j.status = 'failed' and (count(e.id) filter (where e.type = 'job.failed') <> 1 or count(e.id) filter (where e.type = 'job.completed') <> 0))
            or (j.status not in ('completed', 'failed') and count(e.id) <> 0)
        limit 10`,
  );
  const eventCount = (
    await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from event where project_id = any(${projects}::text[]) and type in ('job.completed', 'job.failed')`,
    )
  )[0]!.n;
  add(
    'one job event per finished job',
    eventProblems.length === 0,
    `${eventCount} job.completed/job.failed events; ${eventProblems.length} jobs wrong${sample(eventProblems)}`,
  );

  // 9. Service side: each (event, subscribed webhook) has one delivery, delivered, with exactly one successful attempt.
  const deliveryProblems = await rows<{
    event_id: string;
    webhook_id: string;
    deliveries: number;
    status: string | null;
    successes: number;
    attempts: number;
  }>(
    db,
    sql`select e.id as event_id, c.id as webhook_id, count(distinct d.id)::int as deliveries, min(d.status) as status,
               count(a.id) filter (where a.success)::int as successes, count(a.id)::int as attempts
        from event e
        join webhook_config c on c.project_id = e.project_id and c.trigger_action = e.type and c.enabled
        left join webhook_delivery d on d.event_id = e.id and d.webhook_id = c.id
        left join webhook_attempt a on a.delivery_id = d.id and not a.test
        where e.project_id = any(${projects}::text[]) and e.type in ('job.completed', 'job.failed')
        group by e.id, c.id
        having count(distinct d.id) <> 1 or min(d.status) <> 'delivered' or max(d.status) <> 'delivered' or count(a.id) filter (where a.success) <> 1
        limit 10`,
  );
  const deliveryStats = (
    await rows<{ n: number; attempts: number; failed_attempts: number }>(
      db,
      sql`select count(distinct d.id)::int as n, count(a.id)::int as attempts, count(a.id) filter (where not a.success)::int as failed_attempts
        from webhook_delivery d left join webhook_attempt a on a.delivery_id = d.id
        where d.project_id = any(${projects}::text[]) and d.event_type in ('job.completed', 'job.failed')`,
    )
  )[0]!;
  add(
    'webhooks delivered (service log)',
    deliveryProblems.length === 0,
    `${deliveryStats.n} deliveries, ${deliveryStats.attempts} attempts (${deliveryStats.failed_attempts} failed); ${deliveryProblems.length} (event, webhook) pairs wrong${sample(deliveryProblems)}`,
  );

  // 10. Receiver side: got each delivered delivery, signed, answered 2xx; one delivery id per (event, webhook).
  const delivered = await rows<{ id: string; webhook_id: string; event_type: string; subject: string }>(
    db,
    sql`select d.id, d.webhook_id, d.event_type, coalesce(e.data->>'id', e.data->>'alertId') as subject
        from webhook_delivery d join event e on e.id = d.event_id
        where d.project_id = any(${projects}::text[]) and d.event_type in ('job.completed', 'job.failed', 'product.alert')`,
  );
  const receipts = input.receivers.flatMap((r) => r.receipts.map((x) => ({ ...x, receiver: r.kind })));
  const okReceipt = new Set(
    receipts.filter((x) => x.signature === 'ok' && x.status >= 200 && x.status < 300).map((x) => `${x.webhookId}|${x.deliveryId}`),
  );
  const notReceived = delivered
    .filter((d) => !okReceipt.has(`${d.webhook_id}|${d.id}`))
    .map((d) => `${d.id}->${input.webhookReceiver.get(d.webhook_id)?.kind ?? '?'}`);
  const badSig = receipts.filter((x) => x.signature !== 'ok');
  const badBody = receipts.filter((x) => !x.bodyIdMatchesHeader);
  const idsPerSubject = new Map<string, Set<string>>();
  for (const x of receipts) {
    const key = `${x.webhookId}|${x.event}|${x.subjectId}`;
    if (!idsPerSubject.has(key)) idsPerSubject.set(key, new Set());
    idsPerSubject.get(key)!.add(x.deliveryId);
  }
  const multi = [...idsPerSubject].filter(([, ids]) => ids.size > 1).map(([k, ids]) => `${k}: ${[...ids].join(',')}`);
  const dup2xx = new Map<string, number>();
  for (const x of receipts)
    if (x.status >= 200 && x.status < 300)
      dup2xx.set(`${x.webhookId}|${x.deliveryId}`, (dup2xx.get(`${x.webhookId}|${x.deliveryId}`) ?? 0) + 1);
  const redelivered = [...dup2xx.values()].filter((n) => n > 1).length;
  const perKind = input.receivers
    .map(
      (r) =>
        `${r.kind} ${r.receipts.length} req (${r.receipts.filter((x) => x.status >= 500).length} x 5xx, max ${r.maxInFlight} in flight)`,
    )
    .join(', ');
  add(
    'webhooks received, signed, one id per event',
    notReceived.length === 0 && badSig.length === 0 && badBody.length === 0 && multi.length === 0 && delivered.length > 0,
    `${delivered.length} deliveries; not received with 2xx: ${notReceived.length}${sample(notReceived)}; bad signature: ${badSig.length}${sample(badSig.map((x) => `${x.deliveryId} ${x.signature}`))}; body id != header: ${badBody.length}; >1 delivery id per (webhook, event, job): ${multi.length}${sample(multi)}; 2xx twice (after a timeout): ${redelivered}; ${perKind}`,
  );

  // 10b. Alert rules (docs/alerts.md): every sent alert has exactly one product.alert event, every
  // event one sent alert; a suppressed alert none; no target recorded twice made a second alert.
  const [alertCounts] = await rows<{ sent: number; suppressed: number; events: number }>(
    db,
    sql`select (select count(*)::int from alert where project_id = any(${projects}::text[]) and status = 'sent') as sent,
               (select count(*)::int from alert where project_id = any(${projects}::text[]) and status = 'suppressed') as suppressed,
               (select count(*)::int from event where project_id = any(${projects}::text[]) and type = 'product.alert') as events`,
  );
  const alertMismatch = await rows<{ alert_id: string; status: string | null; events: number }>(
    db,
    sql`select coalesce(a.id, e.data->>'alertId') as alert_id, a.status, count(e.id)::int as events
        from alert a full join (select * from event where type = 'product.alert') e on e.data->>'alertId' = a.id
        where coalesce(a.project_id, e.project_id) = any(${projects}::text[])
        group by 1, 2
        having (a.status = 'sent' and count(e.id) <> 1) or (a.status = 'suppressed' and count(e.id) <> 0) or a.status is null
        limit 10`,
  );
  const alertDuplicates = await rows<{ rule_id: string; asin: string; job_id: string; n: number }>(
    db,
    sql`select rule_id, asin, job_id, count(*)::int as n from alert where project_id = any(${projects}::text[])
        group by rule_id, asin, postal_code, job_id having count(*) > 1 limit 10`,
  );
  add(
    'alerts: one event per sent alert, none twice',
    alertMismatch.length === 0 && alertDuplicates.length === 0 && alertCounts!.sent > 0,
    `${alertCounts!.sent} sent, ${alertCounts!.suppressed} suppressed, ${alertCounts!.events} product.alert events; alert/event mismatches ${alertMismatch.length}${sample(alertMismatch)}; alerts twice for one (rule, product, job) ${alertDuplicates.length}${sample(alertDuplicates)}`,
  );

  // 11. API answers: only 2xx/4xx/503, nothing over 10 s, network errors only to a gateway the run had killed.
  const byCode = new Map<string, number>();
  for (const r of input.records) byCode.set(String(r.status), (byCode.get(String(r.status)) ?? 0) + 1);
  const bad5xx = input.records.filter((r) => r.status >= 500 && r.status !== 503);
  const slow = input.records.filter((r) => r.ms > 10_000);
  const netErrors = input.records.filter((r) => r.status === 0);
  const unexplained = netErrors.filter(
    (r) => !input.gateways[r.gateway]!.wasDownAt(r.at, 1_000) && !input.gateways[r.gateway]!.wasDownAt(r.at + r.ms, 1_000),
  );
  const other = input.records.filter((r) => r.status !== 0 && (r.status < 200 || (r.status >= 300 && r.status < 400) || r.status > 599));
  const p99 = quantile(
    input.records.map((r) => r.ms),
    0.99,
  );
  add(
    'API: only 2xx/4xx/503, none > 10 s',
    bad5xx.length === 0 && slow.length === 0 && unexplained.length === 0 && other.length === 0,
    `${input.records.length} requests by status ${[...byCode]
      .sort()
      .map(([k, v]) => `${k === '0' ? 'neterr' : k}:${v}`)
      .join(
        ' ',
      )}; p99 ${p99} ms, max ${Math.max(0, ...input.records.map((r) => r.ms))} ms; other 5xx ${bad5xx.length}${sample(bad5xx.map((r) => `${r.status} ${r.route} ${r.body.slice(0, 160)}`))}; > 10 s ${slow.length}${sample(slow.map((r) => `${r.route} ${r.ms} ms ${r.error ?? r.status}`))}; network errors ${netErrors.length} (${unexplained.length} while the gateway was up${sample(unexplained.map((r) => `gw${r.gateway + 1} ${r.route} ${r.error}`))})`,
  );

  // 12. Idempotency-Key repeats replayed the first job.
  const replays = input.records.filter((r) => r.route.endsWith('(replay)'));
  add(
    'idempotent repeats replay the first job',
    input.idemProblems.length === 0,
    `${replays.length} repeats (${replays.filter((r) => r.status === 202).length} x 202, ${replays.filter((r) => r.status === 409).length} x 409); ${input.idemProblems.length} answered another job${sample(input.idemProblems)}`,
  );

  // 12b. A keyed creation whose answer was lost, sent again with the same key, gets an answer.
  const rec = input.recoveries;
  const stuck = rec.filter((r) => r.outcome === 'stuck' || r.outcome === 'rejected');
  const stuckEvidence: string[] = [];
  for (const r of stuck) {
    const t = input.tenants[r.tenant]!;
    const key = (
      await rows<{ response_status: number | null; created_at: Date }>(
        db,
        sql`select response_status, created_at from idempotency_key where project_id = ${t.projectId} and key = ${r.key}`,
      )
    )[0];
    const job = (
      await rows<{ id: string; status: string; credits_reserved: number; created_at: Date }>(
        db,
        sql`select id, status, credits_reserved, created_at from job where project_id = ${t.projectId} and targets = ${JSON.stringify(r.targets)}::jsonb and retry_of is null`,
      )
    )[0];
    stuckEvidence.push(
      `key ${r.key} (tenant ${r.tenant + 1}): first ${r.first}, ${r.tries} tries over ${Math.round(r.ms / 1000)} s, last ${r.last}; idempotency_key row ${key ? `response_status ${key.response_status} since ${key.created_at.toISOString()}` : 'absent'}; job with its targets: ${job ? `${job.id} ${job.status}, ${job.credits_reserved} credits reserved, created ${job.created_at.toISOString()}` : 'none'}`,
    );
  }
  add(
    'same Idempotency-Key after a lost answer',
    stuck.length === 0,
    `${rec.length} keyed creations answered by a network error, 503 or 409 in progress and sent again: ${rec.filter((r) => r.outcome === 'replayed').length} replayed, ${rec.filter((r) => r.outcome === 'created').length} created, ${rec.filter((r) => r.outcome === 'stuck').length} still refused after 60 s, ${rec.filter((r) => r.outcome === 'rejected').length} rejected${sample(stuckEvidence)}`,
  );

  // 12c. No request created two jobs: targets are random, so two API-created jobs with the same targets are a duplicate.
  const duplicates = await rows<{ project_id: string; n: number; ids: string[] }>(
    db,
    sql`select project_id, count(*)::int as n, array_agg(id order by created_at) as ids from job
        where project_id = any(${projects}::text[]) and retry_of is null and schedule_id is null
        group by project_id, targets having count(*) > 1 limit 10`,
  );
  const unacknowledged = await rows<{ id: string; retry_of: string | null; created_at: Date }>(
    db,
    sql`select id, retry_of, created_at from job where project_id = any(${projects}::text[]) and schedule_id is null and not (id = any(${acceptedIds}::text[]))`,
  );
  add(
    'no duplicate job per request',
    duplicates.length === 0,
    `${duplicates.length} sets of API-created jobs with identical targets${sample(duplicates.map((d) => d.ids.join('+')))}; ${unacknowledged.length} jobs stored whose 202 the client never saw (answer lost when a gateway died)${sample(unacknowledged.map((u) => u.id))}`,
  );

  // 13. Schedules fired, each fire made a job, no long gaps.
  const runs = await rows<{
    schedule_id: string;
    fire_time: Date;
    status: string;
    job_id: string | null;
    job_exists: boolean;
    sched_job: boolean;
  }>(
    db,
    sql`select r.schedule_id, r.fire_time, r.status, r.job_id, (j.id is not null) as job_exists, (j.schedule_id = r.schedule_id) as sched_job
        from schedule_run r left join job j on j.id = r.job_id where r.schedule_id = any(${input.scheduleIds}::text[]) order by r.schedule_id, r.fire_time`,
  );
  const scheduleProblems: string[] = [];
  for (const id of input.scheduleIds) {
    const mine = runs.filter((r) => r.schedule_id === id);
    if (!mine.length) scheduleProblems.push(`${id} never fired`);
    for (const r of mine)
      if (r.status === 'created' && (!r.job_exists || !r.sched_job))
        scheduleProblems.push(`${id}@${r.fire_time.toISOString()} job ${r.job_id} missing`);
    let maxGap = 0;
    for (let i = 1; i < mine.length; i++) maxGap = Math.max(maxGap, mine[i]!.fire_time.getTime() - mine[i - 1]!.fire_time.getTime());
    if (maxGap > 30_000) scheduleProblems.push(`${id}: ${maxGap / 1000} s without a fire`);
  }
  add(
    'schedules fire exactly once per time',
    scheduleProblems.length === 0,
    `${input.scheduleIds.length} schedules, ${runs.length} fires (${runs.filter((r) => r.status === 'created').length} created jobs)${scheduleProblems.length ? `; ${scheduleProblems.length} problems${sample(scheduleProblems)}` : '; no missing job, no gap > 30 s (unique per fire time by the primary key)'}`,
  );

  // 14. No service died on its own.
  add(
    'no unexpected process exit',
    input.unexpectedExits.length === 0,
    input.unexpectedExits.length
      ? input.unexpectedExits.map((e) => `${e.name} pid ${e.pid} exited code ${e.code} signal ${e.signal} (log ${e.logFile})`).join('; ')
      : 'every exit was one the run caused',
  );

  // 14b. No uncaught exception in any service log, not even one a process survived (a Redis
  // connection dropped mid-pipeline used to throw from inside ioredis).
  const uncaught: string[] = [];
  for (const file of input.logDir ? fs.readdirSync(input.logDir).filter((f) => f.endsWith('.log') && !f.startsWith('postgres')) : []) {
    const text = fs.readFileSync(`${input.logDir}/${file}`, 'utf8');
    for (const m of text.matchAll(/^.*(?:uncaughtException|unhandledRejection|Uncaught|is not iterable|^\s*at .*autoPipelining).*$/gim))
      uncaught.push(`${file}: ${m[0].slice(0, 120)}`);
  }
  add(
    'no uncaught exception in any log',
    uncaught.length === 0,
    uncaught.length
      ? `${uncaught.length} lines${sample(uncaught)}`
      : 'every service survived Redis being dropped without an uncaught exception',
  );

  // 15. Memory: last third's median vs first third's, per process incarnation.
  const grown: string[] = [];
  const summary: string[] = [];
  for (const s of input.rss) {
    // The first 20 s of a process are its start (modules, JIT, pools), not a trend.
    const samples = s.samples.slice(WARMUP_SAMPLES);
    if (samples.length < 30) continue;
    const third = Math.floor(samples.length / 3);
    const first = quantile(samples.slice(0, third), 0.5);
    const last = quantile(samples.slice(-third), 0.5);
    const growth = last - first;
    if (growth > 100 * 1024 * 1024 && growth > first * 0.5) grown.push(`${s.name}#${s.incarnation} ${mb(first)} -> ${mb(last)} MB`);
    summary.push(`${s.name}#${s.incarnation} ${mb(first)}->${mb(last)}`);
  }
  add(
    'no unbounded RSS growth',
    grown.length === 0,
    `${grown.length ? `${grown.join('; ')}; ` : ''}median MB first->last third (after 20 s): ${summary.join(', ')}`,
  );

  // Postgres' own log: deadlocks and errors seen by the server (informational).
  let pgLog = '';
  try {
    pgLog = fs.readFileSync(input.postgresLog, 'utf8');
  } catch {
    // no log
  }
  const errorKinds = new Map<string, number>();
  for (const m of pgLog.matchAll(/^.*?(ERROR|FATAL|PANIC):\s+(.*)$/gm)) {
    if (/deadlock detected/.test(m[2]!)) continue;
    const kind = `${m[1]} ${m[2]!.replace(/\d+/g, 'N').slice(0, 80)}`;
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  }
  // A deadlock is a lock-order bug: Postgres aborts one side (an API call answers 500, or a task retries).
  const deadlocks = [...pgLog.matchAll(/ERROR:\s+deadlock detected\n.*DETAIL:[^\n]*\n((?:\t[^\n]*\n)+)/g)];
  const pairs = new Map<string, number>();
  for (const d of deadlocks) {
    const stmts = [...d[1]!.matchAll(/\tProcess \d+: (.*)/g)].map((x) =>
      x[1]!
        .replace(/\(\$\d+.*$/, '(...)')
        .replace(/ set .*? where /, ' set ... where ')
        .slice(0, 70),
    );
    const key = [...new Set(stmts)].sort().join(' <-> ');
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  const deadlockCount = (pgLog.match(/ERROR:\s+deadlock detected/g) ?? []).length;
  add(
    'no deadlock in Postgres',
    deadlockCount === 0,
    deadlockCount
      ? `${deadlockCount} deadlocks (server log): ${[...pairs].map(([k, n]) => `${n} x ${k}`).join('; ')}`
      : 'none in the server log',
  );
  info(
    'postgres server log',
    errorKinds.size
      ? [...errorKinds]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([k, n]) => `${n} x ${k}`)
          .join('; ')
      : 'no ERROR/FATAL lines',
  );
  return out;
}

const WARMUP_SAMPLES = 20;
const mb = (b: number) => Math.round(b / 1024 / 1024);

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}
