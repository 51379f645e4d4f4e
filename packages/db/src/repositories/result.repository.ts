import type { Db } from '../connection';

export interface ResultRow {
  targetIdx: number;
  position: number;
  data: Record<string, unknown>;
}

/** Stored result items of a job, in target then position order. */
export class ResultRepository {
  constructor(private readonly db: Db) {}

  /**
   * Every row of a job through a server-side cursor, `chunkSize` rows per fetch, so that an
   * export's memory stays flat whatever the row count.
   */
  async *stream(jobId: string, chunkSize = 500): AsyncGenerator<ResultRow> {
    yield* this.db
      .selectFrom('result_item')
      .select(['target_idx as targetIdx', 'position', 'data'])
      .where('job_id', '=', jobId)
      .orderBy('target_idx')
      .orderBy('position')
      .stream(chunkSize);
  }

  async page(jobId: string, limit: number, offset: number): Promise<{ rows: ResultRow[]; total: number }> {
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
    return { rows, total: Number(count.total) };
  }
}
