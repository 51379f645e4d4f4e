import { adminDeps, commands } from '@crawl/cli';
import type { Db } from '@crawl/db';

export interface TestTenant {
  organizationId: string;
  userId: string;
  projectId: string;
  apiKey: string;
  keyPrefix: string;
}

/** Lets a tenant's schedules fire as often as every second (tests of the scheduler itself). */
export async function allowFastSchedules(db: Db, organizationId: string): Promise<void> {
  const deps = adminDeps(db);
  await commands['set-schedule-limits']!(deps, { org: organizationId, 'min-interval-seconds': '1' });
}

/** Creates an organization, user, project and key through the admin CLI's own commands. */
export async function createTenant(
  db: Db,
  options: { plan?: 'starter' | 'growth' | 'enterprise'; perMinute?: number; credits?: number; org?: string; name?: string } = {},
): Promise<TestTenant> {
  const deps = adminDeps(db);
  const flags: Record<string, string> = { name: options.name ?? 'test project', credits: String(options.credits ?? 1_000) };
  if (options.org) flags.org = options.org;
  else flags.plan = options.plan ?? 'growth';
  // The CLI requires an enterprise limit; tests and benches that do not care get a roomy one.
  if (flags.plan === 'enterprise') flags['per-minute'] = String(options.perMinute ?? 60_000);
  return (await commands['create-project']!(deps, flags)) as unknown as TestTenant;
}

export async function createKey(db: Db, projectId: string, options: { newUser?: boolean; user?: string } = {}) {
  const deps = adminDeps(db);
  const flags: Record<string, string | boolean> = { project: projectId };
  if (options.newUser) flags['new-user'] = true;
  if (options.user) flags.user = options.user;
  return (await commands['create-key']!(deps, flags)) as unknown as {
    userId: string;
    projectId: string;
    apiKey: string;
    keyPrefix: string;
  };
}
