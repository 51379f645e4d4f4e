import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createApp } from '@crawl/gateway';
import { chromium } from 'playwright-core';
import { type Stack, startStack } from './stack';

/** Headless Chromium (Debian's package) loads /docs and finds the API's endpoints on the page. */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`${CHROMIUM} not found (apt-get install chromium): the /docs browser test is skipped`);
const maybe = haveChromium ? it : it.skip;

let stack: Stack;
let server: Server;
let url: string;
beforeAll(async () => {
  stack = await startStack({ workers: 0 });
  server = createServer(createApp({ ...stack.gateway, metrics: (await import('@crawl/observability')).createMetricsRegistry('docs') }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await stack.close();
});

maybe(
  'renders the interactive docs offline with every endpoint',
  async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      const external: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(url)) external.push(req.url());
      });
      await page.goto(`${url}/docs`);
      await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
      const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path') ?? e.textContent ?? ''));
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      for (const path of Object.keys(doc.paths)) expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain(path);
      expect(await page.textContent('body')).toContain('Crawl Data Service API');
      expect(external).toEqual([]); // works offline: nothing fetched from elsewhere
    } finally {
      await browser.close();
    }
  },
  60_000,
);
