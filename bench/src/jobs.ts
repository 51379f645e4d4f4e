import type { Db } from '@crawl/db';
import type { TestTenant } from '@crawl/testing';

/** A details job's `config` (e.g. `{ postalCode }`); none: the API's defaults. */
export type JobConfig = Record<string, unknown>;

/** Creates a details job through the gateway's API; its id. */
export async function postDetailsJob(gateway: string, tenant: TestTenant, targets: string[], config?: JobConfig): Promise<string> {
  const r = await fetch(`${gateway}/v1/key/projects/${tenant.projectId}/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'details', targets, ...(config ? { config } : {}) }),
  });
  const body = (await r.json()) as { data?: { id: string } };
  if (!body.data) throw new Error(`job creation answered ${r.status}: ${JSON.stringify(body)}`);
  return body.data.id;
}

const jobStatus = (db: Db, id: string) =>
  db.selectFrom('job').select(['status', 'succeeded', 'failed']).where('id', '=', id).executeTakeFirstOrThrow();

/** The run's targets as jobs of at most 1,000 (the API's limit per job); their ids. */
export async function postBigRun(gateway: string, tenant: TestTenant, targets: string[], config?: JobConfig): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < targets.length; i += 1000) ids.push(await postDetailsJob(gateway, tenant, targets.slice(i, i + 1000), config));
  return ids;
}

/** Waits until every job finished; a job that did not complete (or, with `noFailures`, lost a target) throws. */
export async function waitForJobs(db: Db, ids: string[], noFailures: boolean): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const s = await jobStatus(db, id);
      if (s.status !== 'queued' && s.status !== 'running') {
        if (s.status !== 'completed' || (noFailures && s.failed > 0))
          throw new Error(`big job ended ${s.status} with ${s.failed} failed targets`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A 1-target job of another tenant created `afterMs` into a run: seconds until it completed
 * (null if not within 2 minutes). What a small customer waits behind a big one.
 */
export async function timeSmallJob(db: Db, gateway: string, tenant: TestTenant, target: string, afterMs: number): Promise<number | null> {
  await new Promise((r) => setTimeout(r, afterMs));
  const t0 = Date.now();
  const id = await postDetailsJob(gateway, tenant, [target]);
  while ((await jobStatus(db, id)).status !== 'completed') {
    if (Date.now() - t0 > 120_000) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (Date.now() - t0) / 1000;
}
