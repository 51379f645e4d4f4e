import { request, type IncomingMessage } from 'node:http';
import { newId } from '@crawl/core';
import { type Db, sql } from '@crawl/db';
import { detailsItem, type TestTenant } from '@crawl/testing';

/**
 * A completed details job with `rows` result items of about `rowBytes` each, inserted
 * directly: export tests need many rows, not a crawl. Enough bytes fill the kernel's socket
 * buffers, so that a client which stops reading really stalls the server's writes.
 */
export async function seedCompletedJob(db: Db, tenant: TestTenant, rows: number, rowBytes = 2_000): Promise<string> {
  const id = newId('job');
  await db
    .insertInto('job')
    .values({
      id,
      project_id: tenant.projectId,
      organization_id: tenant.organizationId,
      type: 'details',
      status: 'completed',
      marketplace: 'US',
      lang: null,
      targets: JSON.stringify(['B0EXPORT00']),
      target_count: 1,
      succeeded: 1,
      results_count: rows,
      credits_reserved: 2,
      credits_consumed: 2,
      started_at: new Date(),
      finished_at: new Date(),
    })
    .execute();
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${id}, 0, g, ${JSON.stringify(detailsItem('B0EXPORT00'))}::jsonb || jsonb_build_object(
      'asin', 'B0' || lpad(g::text, 8, '0'), 'title', 'Item ' || g,
      'description', repeat('x', ${rowBytes}), 'price', jsonb_build_object('amount', g, 'currency', 'USD'))
    from generate_series(1, ${rows}) g`.execute(db);
  return id;
}

/** How a test client misbehaves once it sent its request. */
export type AbortMode = 'before-response' | 'after-headers' | 'paused' | 'slow';

export interface Download {
  /** The status line, once headers arrived (undefined if the socket died first). */
  response: Promise<IncomingMessage | undefined>;
  /** Resolves when the client's socket closed, for whatever reason. */
  closed: Promise<void>;
  /** Bytes of body the client read. */
  bytes(): number;
  /** Closes the client's socket at once (a Ctrl-C, a crashed client). */
  destroy(): void;
  /**
   * Reads on at full speed. A paused client does not notice that the server hung up (it
   * never reads the FIN) until it reads what the kernel buffered.
   */
  resume(): void;
}

/**
 * An export request over a real socket (not supertest, which reads whole bodies): `paused`
 * reads nothing after the headers, `slow` reads one chunk every 100 ms, `after-headers`
 * destroys the socket as soon as headers arrive, `before-response` right after sending.
 */
export function download(url: string, path: string, headers: Record<string, string>, mode: AbortMode = 'paused'): Download {
  let read = 0;
  let paused = mode === 'paused' || mode === 'slow';
  let body: IncomingMessage | undefined;
  const req = request(`${url}${path}`, { headers, agent: false });
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  req.on('error', () => undefined);
  // A socket that read the server's FIN stays half-open (writable) otherwise, keeping jest alive.
  req.on('socket', (socket) => req.on('close', () => socket.destroy()));
  req.on('close', () => markClosed());
  const response = new Promise<IncomingMessage | undefined>((resolve) => {
    req.on('close', () => resolve(undefined));
    req.on('response', (res) => {
      body = res;
      resolve(res);
      res.on('error', () => undefined);
      if (mode === 'after-headers') return void req.destroy();
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (!paused || mode !== 'slow') return;
        res.pause();
        setTimeout(() => res.resume(), 100).unref();
      });
      if (mode === 'paused') res.pause();
    });
  });
  req.end();
  if (mode === 'before-response') req.on('socket', (socket) => socket.on('connect', () => setImmediate(() => req.destroy())));
  const resume = () => {
    paused = false;
    body?.resume();
  };
  return { response, closed, bytes: () => read, destroy: () => void req.destroy(), resume };
}
