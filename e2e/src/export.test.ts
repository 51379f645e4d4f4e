import { parse } from 'csv-parse';
import { llmExportSchema } from '@crawl/core';
import { sql } from '@crawl/db';
import { freePort, ServiceProcess } from '@crawl/testing';
import type { Response } from 'supertest';
import { auth, type Stack, startStack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** The documented contract of the llm export (`LlmExport` in /openapi.json; stack.http also checks every response against the document). */
const validateLlm = (body: unknown) => llmExportSchema.safeParse(body).error?.issues ?? [];

async function csvRecords(text: string): Promise<string[][]> {
  const out: string[][] = [];
  for await (const record of parse(text, { relax_column_count: false })) out.push(record as string[]);
  return out;
}

/** A download's body as text, whatever its content type. */
const text = (res: Response, cb: (err: Error | null, body: string) => void) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (body += c));
  res.on('end', () => cb(null, body));
};

it('exports a completed job as json, jsonl, csv and llm with stable columns and a filename', async () => {
  const tenant = await stack.tenant();
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0EXPORT01', 'B0EXPORT02'] });
  await stack.waitForJob(id);
  const results = (await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant))).body.data;

  const json = await stack.http.get(`/v1/key/jobs/${id}/export?format=json`).set(auth(tenant));
  expect(json.status).toBe(200);
  expect(json.headers['content-disposition']).toBe(`attachment; filename="${id}-details.json"`);
  expect(json.body).toEqual(results);

  const jsonl = await stack.http.get(`/v1/key/jobs/${id}/export?format=jsonl`).set(auth(tenant)).buffer(true).parse(text);
  expect(jsonl.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
  expect(jsonl.headers['content-disposition']).toBe(`attachment; filename="${id}-details.jsonl"`);
  expect(
    (jsonl.body as string)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown),
  ).toEqual(results);

  const csv = await stack.http.get(`/v1/key/jobs/${id}/export?format=csv`).set(auth(tenant)).buffer(true).parse(text);
  expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
  const records = await csvRecords(csv.body as string);
  expect(records[0]!.slice(0, 6)).toEqual(['target', 'asin', 'url', 'title', 'brand', 'price_amount']);
  expect(records).toHaveLength(3);
  const asinColumn = records[0]!.indexOf('asin');
  expect(
    records
      .slice(1)
      .map((r) => r[asinColumn])
      .sort(),
  ).toEqual(['B0EXPORT01', 'B0EXPORT02']);
  const images = records[1]![records[0]!.indexOf('images')]!;
  expect(Array.isArray(JSON.parse(images))).toBe(true);

  const llm = await stack.http.get(`/v1/key/jobs/${id}/export?format=llm`).set(auth(tenant));
  expect(llm.headers['content-disposition']).toBe(`attachment; filename="${id}-details.llm.json"`);
  expect(llm.body).toMatchObject({ schemaVersion: '1.3', job: { id, type: 'details', marketplace: 'US', resultsCount: 2 } });
  expect(llm.body.items).toHaveLength(2);
  expect(validateLlm(llm.body)).toEqual([]);
  const keys = Object.keys(llm.body.items[0]);
  expect(keys).toContain('currency');
  for (const item of llm.body.items) {
    expect(Object.keys(item)).toEqual(keys);
    expect(item.source).toBe('details');
    // where and when: the row's own page, its place and the moment it arrived
    expect(item.sourceUrl).toMatch(new RegExp(`/dp/${item.asin}$`));
    expect(Number.isNaN(Date.parse(item.fetchedAt))).toBe(false);
    expect(item.deliveryLocation).toEqual(expect.any(String));
  }
});

it('search exports share the llm item shape with details exports', async () => {
  const tenant = await stack.tenant();
  const id = await stack.createJob(tenant, { type: 'search', targets: ['usb hub'] });
  await stack.waitForJob(id);
  const llm = await stack.http.get(`/v1/key/jobs/${id}/export?format=llm`).set(auth(tenant));
  const details = await stack.createJob(tenant, { type: 'details', targets: ['B0EXPORT03'] });
  await stack.waitForJob(details);
  const other = await stack.http.get(`/v1/key/jobs/${details}/export?format=llm`).set(auth(tenant));
  expect(Object.keys(llm.body.items[0])).toEqual(Object.keys(other.body.items[0]));
  expect(validateLlm(llm.body)).toEqual([]);
  expect(llm.body.items[0]).toMatchObject({ source: 'search', query: 'usb hub', rank: 1 });
});

it('streams 100,000 rows in every format without holding them: the gateway grows by less than 64 MB', async () => {
  const tenant = await stack.tenant();
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0BIGEXP01'] });
  await stack.waitForJob(id);
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${id}, 1 + g / 10, g % 10 + 1, jsonb_build_object(
      'target', 'B0' || lpad(g::text, 8, '0'), 'asin', 'B0' || lpad(g::text, 8, '0'),
      'title', 'Item ' || g || ', "quoted", with a comma' || chr(10) || 'and a newline – ünïcode',
      'price', jsonb_build_object('amount', g / 100.0, 'currency', 'EUR'),
      'rating', 4.5, 'reviewsCount', g, 'images', jsonb_build_array('https://img.example/' || g || '.jpg'),
      'features', jsonb_build_array('one', 'two'), 'availability', jsonb_build_object('status', 'in_stock', 'text', 'In Stock'),
      'specifications', jsonb_build_object('Weight', '1 kg'), 'missingFields', '[]'::jsonb, 'parserVersion', 'test')
    from generate_series(0, 99999) g`.execute(stack.db);
  await sql`update job set results_count = results_count + 100000 where id = ${id}`.execute(stack.db);

  const port = await freePort();
  const gateway = ServiceProcess.start('gateway', 'services/gateway/dist/main.js', {
    DATABASE_URL: stack.database.url,
    REDIS_URL: stack.workerEnv.REDIS_URL!,
    QUEUE_PREFIX: stack.prefix,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  });
  try {
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const get = (format: string) => fetch(`http://127.0.0.1:${port}/v1/key/jobs/${id}/export?format=${format}`, { headers: auth(tenant) });
    // One small read first, then the peak is measured from the settled process: what is
    // asserted is what the big exports add, not the start-up's module loading.
    const page = await fetch(`http://127.0.0.1:${port}/v1/key/jobs/${id}/results?limit=1`, { headers: auth(tenant) });
    expect(page.status).toBe(200);
    await page.text();
    const settled = gateway.rss();
    gateway.resetPeakRss();

    const json = JSON.parse(await (await get('json')).text());
    expect(json).toHaveLength(100_001);
    const llm = JSON.parse(await (await get('llm')).text());
    expect(llm.items).toHaveLength(100_001);
    const records = await csvRecords(await (await get('csv')).text());
    expect(records).toHaveLength(100_002); // header + rows
    expect(records[2]![records[0]!.indexOf('title')]).toContain('"quoted", with a comma\nand a newline');

    const peak = gateway.peakRss();
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(`gateway RSS ${mb(settled)} MB settled, peak ${mb(peak)} MB while exporting 3 x 100,001 rows`);
    // Each body is 50-60 MB of text (twice that as a string, the titles are not Latin-1): holding
    // one would add well over 100 MB. What streaming adds is garbage awaiting V8's collector:
    // 29-31 MB on a quiet machine, up to 52 MB seen under CI load. The absolute peak is not
    // asserted: it is mostly the process's start-up and varies by machine.
    expect(peak - settled).toBeLessThan(64 * 1024 * 1024);
  } finally {
    await gateway.stop();
  }
}, 120_000);
