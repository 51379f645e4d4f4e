import { type ExportFormat, newId, type SecretBox } from '@crawl/core';
import { type Db, DestinationRepository, type DestinationRow, type JobRow } from '@crawl/db';
import { detailsItem, type Owner } from './factories';

/** The ASIN of row `n` of a `buildCompletedJob` job: rows are numbered in export order. */
export const rowAsin = (n: number) => `B${String(n).padStart(9, '0')}`;

/**
 * A completed details job with `rows` results (one per target, in order), inserted directly:
 * the export and delivery tests need tens of thousands of rows that crawling would take minutes
 * to make. `padding` characters of description per row set the export's size.
 */
export async function buildCompletedJob(
  db: Db,
  owner: Owner,
  rows: number,
  options: { padding?: number; finishedAt?: Date } = {},
): Promise<JobRow> {
  const id = newId('job');
  const finishedAt = options.finishedAt ?? new Date('2026-12-03T10:05:00Z');
  await db
    .insertInto('job')
    .values({
      id,
      project_id: owner.projectId,
      organization_id: owner.organizationId,
      type: 'details',
      status: 'completed',
      marketplace: 'US',
      lang: null,
      targets: JSON.stringify(['t']),
      target_count: rows,
      succeeded: rows,
      results_count: rows,
      credits_reserved: rows,
      credits_consumed: rows,
      started_at: new Date(finishedAt.getTime() - 300_000),
      finished_at: finishedAt,
    })
    .execute();
  const description = 'x'.repeat(options.padding ?? 1500);
  for (let start = 0; start < rows; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - start) }, (_, i) => ({
      job_id: id,
      target_idx: start + i,
      position: 1,
      data: JSON.stringify(detailsItem(rowAsin(start + i), { description })),
    }));
    await db.insertInto('result_item').values(batch).execute();
  }
  return db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow() as Promise<JobRow>;
}

export interface DestinationOverrides {
  bucket: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  prefix?: string;
  format?: ExportFormat;
  gzip?: boolean;
  scheduleIds?: string[] | null;
}

/** A destination (DestinationRepository.create, no test write), its secret sealed with `secrets`. */
export async function buildDestination(db: Db, owner: Owner, secrets: SecretBox, values: DestinationOverrides): Promise<DestinationRow> {
  const row = await new DestinationRepository(db).create(
    owner,
    {
      name: 'warehouse',
      bucket: values.bucket,
      region: values.region ?? 'us-east-1',
      endpoint: values.endpoint,
      prefix: values.prefix ?? '',
      accessKeyId: values.accessKeyId,
      secretAccessKeyEncrypted: secrets.encrypt(values.secretAccessKey),
      format: values.format ?? 'jsonl',
      gzip: values.gzip ?? false,
      scheduleIds: values.scheduleIds ?? null,
    },
    Number.MAX_SAFE_INTEGER,
  );
  return row!;
}
