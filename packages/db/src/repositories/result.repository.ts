import { type JobType, readStoredItem, type ResultItem } from '@crawl/core';
import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

export interface ResultRow {
  targetIdx: number;
  position: number;
  data: ResultItem;
}

/** The job whose rows are read: its type says which item schema they are read as. */
export interface ResultJob {
  id: string;
  type: JobType;
}

/**
 * Stored result items of a job, in target then position order. Every row comes out read as an
 * item of the job type's current schema (readStoredItem in @crawl/core): a row stored before a
 * field existed reads it as not observed, so no reader of results meets an older shape.
 */
export class ResultRepository {
  /**
   * `streamDb` serves `stream` only: a download holds its connection for as long as the client
   * reads, so the gateway gives streams a pool of their own that API queries never wait on.
   */
  constructor(
    private readonly db: Db,
    private readonly streamDb: Db = db,
  ) {}

  /** Stores a target's result items; (job, target, position) is unique, so a replay cannot duplicate. */
  async insertMany(trx: Transaction<Database>, jobId: string, targetIdx: number, items: ResultItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += 200) {
      await trx
        .insertInto('result_item')
        .values(
          items
            .slice(i, i + 200)
            .map((data, k) => ({ job_id: jobId, target_idx: targetIdx, position: i + k + 1, data: JSON.stringify(data) })),
        )
        .execute();
    }
  }

  /**
   * Every row of a job through a server-side cursor, `chunkSize` rows per fetch, so that an
   * export's memory stays flat whatever the row count.
   *
   * The cursor and its connection are held until the generator finishes: a consumer that stops
   * early must call `return()` (a `break` or `throw` out of `for await` does), or the
   * connection never goes back to the pool.
   */
  async *stream(job: ResultJob, chunkSize = 500): AsyncGenerator<ResultRow> {
    const rows = this.streamDb
      .selectFrom('result_item')
      .select(['target_idx as targetIdx', 'position', 'data'])
      .where('job_id', '=', job.id)
      .orderBy('target_idx')
      .orderBy('position')
      .stream(chunkSize);
    // Leaving this loop early (a return() from the consumer) returns the cursor's generator too.
    for await (const row of rows) {
      row.data = readStoredItem(job.type, row.data);
      yield row;
    }
  }

  async page(job: ResultJob, limit: number, offset: number): Promise<{ rows: ResultRow[]; total: number }> {
    const jobId = job.id;
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('result_item')
        .select(['target_idx as targetIdx', 'position', 'data'])
        .where('job_id', '=', jobId)
        .orderBy('target_idx')
        .orderBy('position')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('result_item')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow(),
    ]);
    for (const row of rows) row.data = readStoredItem(job.type, row.data);
    return { rows, total: Number(count.total) };
  }
}
