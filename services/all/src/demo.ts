import { adminDeps, commands } from '@crawl/cli';
import { createDb } from '@crawl/db';

/**
 * On an empty database, `pnpm start` makes a demo project (growth plan, 1,000 credits) so a
 * newcomer can call the API at once. Returns its key, or null when tenants already exist.
 */
export async function createDemoProjectIfEmpty(databaseUrl: string): Promise<{ projectId: string; apiKey: string } | null> {
  const db = createDb({ url: databaseUrl, poolSize: 1 });
  try {
    const deps = adminDeps(db);
    if (await deps.organizations.hasAny()) return null;
    const out = await commands['create-project']!(deps, { name: 'Demo project', plan: 'growth', credits: '1000' });
    return { projectId: String(out.projectId), apiKey: String(out.apiKey) };
  } finally {
    await db.destroy();
  }
}
