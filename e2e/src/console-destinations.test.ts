import { createServer, type Server } from 'node:http';
import { createApp } from '@crawl/gateway';
import { readOutbox } from '@crawl/mail';
import { createMetricsRegistry } from '@crawl/observability';
import { startS3Simulator, type S3Simulator } from '@crawl/s3-simulator';
import type { TestTenant } from '@crawl/testing';
import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, haveChromium, launchChromium, screenshot, watchedPage } from './browser';
import { type Stack, startStack } from './stack';

/**
 * The console's Destinations page in Debian's Chromium, against the stack and a local S3 server:
 * a destination refused by the storage (a wrong secret), corrected and saved; a job's export in
 * the Delivery log and on the job page; Retry; a confirmed Delete. By accessible names only.
 */
if (!haveChromium) console.warn('/usr/bin/chromium not found (apt-get install chromium): the console browser tests are skipped');
const maybe = haveChromium ? it : it.skip;
const STEP_MS = 90_000;

let stack: Stack;
let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
let problems: string[];
let expectedStatuses: Set<number>;
let webhooks: WebhooksHandle;
let s3: S3Simulator;
const email = `destinations.${process.pid}.${Date.now()}@example.com`;
const password = 'console password 1';
const credential = { accessKeyId: 'AKIACONSOLE', secretAccessKey: 'console-secret' };
let projectId = '';
let jobId = '';

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
  s3 = await startS3Simulator({ credentials: [credential], buckets: ['crawl-results'] });
  server = createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('console-destinations') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RECONCILE_INTERVAL_MS: '300',
    }),
  );
  if (haveChromium) {
    browser = await launchChromium();
    ({ page, problems, expectedStatuses } = await watchedPage(browser, origin, { width: 1440, height: 900 }));
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await s3?.close();
  await stack?.close();
});

afterEach(() => {
  expectedStatuses?.clear();
  if (problems) expect(problems.splice(0)).toEqual([]);
});

/** An axe scan with no serious or critical violation at desktop and phone width, light and dark screenshots of each when asked for. */
async function check(name: string): Promise<void> {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    expect({ page: name, width: viewport.width, violations: await axeViolations(page) }).toEqual({
      page: name,
      width: viewport.width,
      violations: [],
    });
    await screenshot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The API with the browser's own session (cookie and CSRF token), as the console uses it. */
async function sessionApi(method: string, path: string, body?: object) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const me = (await (await fetch('/v1/account/me')).json()) as { data: { csrfToken: string } };
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.data.csrfToken },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, path, body },
  );
}

describe('the console: destinations', () => {
  maybe(
    'a new customer signs up and opens Destinations from the navigation',
    async () => {
      const signup = await stack.http.post('/v1/account/signup').send({ email, password, organizationName: 'Buckets Co' });
      expect(signup.status).toBe(202);
      const deadline = Date.now() + 10_000;
      let link: string | undefined;
      while (!link && Date.now() < deadline) {
        link = (await readOutbox(stack.outboxDir, { to: email, kind: 'verify-email' }))[0]?.link ?? undefined;
        if (!link) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await page.goto(`${origin}${new URL(link!).pathname}${new URL(link!).search}`);
      await page.getByText('Email verified').waitFor();
      await page.goto(`${origin}/console/sign-in`);
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Password' }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      projectId = /\/console\/projects\/([^/?#]+)/.exec(page.url())![1]!;
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Destinations' }).click();
      await page.getByRole('heading', { name: 'Destinations', level: 1 }).waitFor();
      await page.getByText('No destinations yet').waitFor();
      await check('destinations-empty');
    },
    STEP_MS,
  );

  maybe(
    'a wrong secret is refused with the storage code; the corrected form is saved and listed',
    async () => {
      await page.getByRole('button', { name: 'Add destination' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Warehouse bucket');
      await dialog.getByRole('textbox', { name: 'Bucket' }).fill('crawl-results');
      await dialog.getByRole('textbox', { name: 'Region' }).fill('us-east-1');
      await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(s3.url);
      await dialog.getByRole('textbox', { name: 'Prefix' }).fill('crawl/');
      await dialog.getByRole('textbox', { name: 'Access key ID' }).fill(credential.accessKeyId);
      const secret = dialog.getByRole('textbox', { name: 'Secret access key' });
      await expect(secret.getAttribute('type')).resolves.toBe('password');
      await secret.fill('not-the-secret');
      await dialog.getByRole('combobox', { name: 'Format' }).selectOption('jsonl');
      await dialog.getByRole('checkbox', { name: 'Gzip' }).check();
      expectedStatuses.add(400);
      await dialog.getByRole('button', { name: 'Test and save' }).click();
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toContain('SignatureDoesNotMatch');
      await check('destinations-refused');
      // the form kept its input; an edit drops the answer and the form is sent again
      await expect(dialog.getByRole('textbox', { name: 'Bucket' }).inputValue()).resolves.toBe('crawl-results');
      await secret.fill(credential.secretAccessKey);
      await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
      await dialog.getByRole('button', { name: 'Test and save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page
        .getByRole('table', { name: 'Destinations' })
        .getByRole('cell', { name: /Warehouse bucket/ })
        .waitFor();
    },
    STEP_MS,
  );

  maybe(
    "a completed job's export is in the Delivery log and on the job page; Retry answers 202; Delete removes the destination",
    async () => {
      const key = await sessionApi('POST', `/v1/account/projects/${projectId}/keys`, { label: 'e2e', scope: 'full' });
      expect(key.status).toBe(201);
      const tenant = { projectId, apiKey: (key.body as { data: { secret: string } }).data.secret } as TestTenant;
      jobId = await stack.createJob(tenant, { type: 'details', targets: ['B0DEST0001'] });
      await expect(stack.waitForJob(jobId, 60_000)).resolves.toMatchObject({ status: 'completed' });
      const log = page.getByRole('table', { name: 'Delivery log' });
      const row = log.getByRole('row').filter({ has: page.getByRole('link', { name: jobId }) });
      await row.waitFor({ timeout: 15_000 });
      // the webhooks service's export deliverer sends it; the log follows until it is delivered
      await row.getByText('delivered', { exact: true }).waitFor({ timeout: 15_000 });
      await check('destinations');

      const retried = page.waitForResponse((r) => r.url().endsWith(`/deliveries/${jobId}/retry`) && r.request().method() === 'POST');
      await row.getByRole('button', { name: 'Retry' }).click();
      expect((await retried).status()).toBe(202);
      await page.getByText('is being sent to Warehouse bucket again').waitFor();
      await row.waitFor();

      await row.getByRole('link', { name: jobId }).click();
      const section = page.getByRole('region', { name: 'Destinations' });
      await section.getByRole('cell', { name: 'Warehouse bucket' }).waitFor();
      await section.getByText(new RegExp(`${jobId}\\.jsonl\\.gz$`)).waitFor();
      await page.goBack();

      await page.getByRole('table', { name: 'Destinations' }).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Delete destination' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText('No destinations yet').waitFor();
    },
    STEP_MS,
  );
});
