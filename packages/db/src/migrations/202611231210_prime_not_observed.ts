import { type Kysely, sql } from 'kysely';

/**
 * Parsers before `amazon-2026.11.2` wrote `isPrime: false` whenever the buy box
 * showed no Prime badge, which says nothing about the product. A tracked product's last known
 * `isPrime` of false was therefore never observed: it becomes null ("not observed"), so the next
 * crawl that does see the page's answer records it as a first observation, not as a change.
 * Stored result items and past snapshots stay as they were crawled (their `parserVersion` tells).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update tracked_target set latest_snapshot = jsonb_set(latest_snapshot, '{isPrime}', 'null'::jsonb)
    where latest_snapshot->'isPrime' = 'false'::jsonb`.execute(db);
}

/** Nothing to undo: the old value was not information. */
export async function down(): Promise<void> {}
