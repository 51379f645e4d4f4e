import { ensureTemplate, templateName } from './databases';
import { MIGRATION_FINGERPRINT } from '@crawl/db';

/** Jest globalSetup: builds the migrated template database once per schema version. */
export default async function globalSetup(): Promise<void> {
  const name = templateName(MIGRATION_FINGERPRINT);
  await ensureTemplate(name);
  process.env.CRAWL_TEST_TEMPLATE = name;
}
