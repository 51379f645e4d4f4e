import { createServer, type Server } from 'node:http';
import { CreditRepository, ProjectRepository } from '@crawl/db';
import { createApp } from '@crawl/gateway';
import { readOutbox } from '@crawl/mail';
import { createMetricsRegistry } from '@crawl/observability';
import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, haveChromium, launchChromium, screenshot, watchedPage } from './browser';
import { Receiver } from './receivers';
import { type Stack, startStack } from './stack';

/**
 * The console in Debian's Chromium, against the whole stack (gateway, a crawl worker, the
 * webhook deliverer, the marketplace simulator), driven by accessible names only, with an axe-core
 * scan of every page the journeys visit. One user's journeys, in order: sign up, verify, sign in,
 * keys, jobs, the new-job form, webhooks.
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
const email = `console.${process.pid}.${Date.now()}@example.com`;
const password = 'console password 1';
let projectId = '';
let firstJobId = '';
let outOfStockJobId = '';

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
  server = createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('console-browser') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // 5 attempts in about 6 s: a dead receiver's delivery fails quickly
      WEBHOOK_BACKOFF_BASE_MS: '5',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RECONCILE_INTERVAL_MS: '300',
    }),
  );
  if (haveChromium) {
    browser = await launchChromium();
    ({ page, problems, expectedStatuses } = await watchedPage(browser, origin));
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await webhooks?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

/**
 * After every step: no console error (a failed request included, but for the statuses the step
 * expects), no CSP violation, no uncaught exception, nothing fetched elsewhere.
 */
afterEach(() => {
  expectedStatuses?.clear();
  if (problems) expect(problems.splice(0)).toEqual([]);
});

/** The text of the first `<time>` under `scope`: every time the console shows ends with its zone. */
const ZONED = /\d{1,2}:\d{2}(:\d{2})?(\s?[AP]M)? (UTC|GMT[+-]\d{1,2}(:\d{2})?|[A-Z]{3,5})$/;

/** A disabled button is drawn unlike an enabled one (its own face and a dashed edge), not just faded. */
async function looksDisabled(button: ReturnType<Page['getByRole']>) {
  return button.evaluate((el) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopStyle: string } }).getComputedStyle(el);
    return style.borderTopStyle === 'dashed';
  });
}

/** An axe scan with no serious or critical violation, and a screenshot when asked for. */
async function check(name: string): Promise<void> {
  expect({ page: name, violations: await axeViolations(page) }).toEqual({ page: name, violations: [] });
  await screenshot(page, name);
}

async function mail(kind: 'verify-email' | 'invitation', to: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [found] = await readOutbox(stack.outboxDir, { to, kind });
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

/** Presses Tab until `target` has the focus (at most 40 times), as a keyboard user would. */
async function tabTo(target: ReturnType<Page['getByRole']>): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (
      await target
        .evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)
        .catch(() => false)
    )
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the control never got the focus by Tab');
}

/**
 * Counts the requests `method` to a path matching `path` the page sends from now on: one per
 * submit, and none when the browser blocks a submit on its own.
 */
function countRequests(method: string, path: RegExp): { readonly count: number } {
  const seen = { count: 0 };
  page.on('request', (req) => {
    if (req.method() === method && path.test(new URL(req.url()).pathname)) seen.count++;
  });
  return seen;
}

/** Whether the textbox is announced as invalid (an error of the API at its field). */
const isInvalid = async (box: ReturnType<Page['getByRole']>) => (await box.getAttribute('aria-invalid')) === 'true';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });

describe('the console', () => {
  maybe(
    'a new customer signs up, verifies the email from the mail, and signs in',
    async () => {
      await page.goto(`${origin}/console/sign-up`);
      await check('sign-up');
      const signups = countRequests('POST', /^\/v1\/account\/signup$/);
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      // a password the API refuses: its answer at the field, then the corrected form is sent at once
      expectedStatuses.add(400);
      const passwordBox = page.getByRole('textbox', { name: 'Password' });
      await passwordBox.fill('short');
      await page.getByRole('textbox', { name: 'Organization name' }).fill('Console Co');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('must be at least 10 characters', { exact: true }).waitFor();
      await expect(isInvalid(passwordBox)).resolves.toBe(true);
      expect(signups.count).toBe(1);
      await check('sign-up-error');
      await passwordBox.fill(password);
      await expect(isInvalid(passwordBox)).resolves.toBe(false);
      await expect(page.getByText('must be at least 10 characters', { exact: true }).count()).resolves.toBe(0);
      await passwordBox.press('Enter');
      await page.getByText('Check your email').waitFor();
      expect(signups.count).toBe(2);
      await check('sign-up-sent');

      const verification = await mail('verify-email', email);
      await page.goto(`${origin}${new URL(verification.link!).pathname}${new URL(verification.link!).search}`);
      await page
        .getByText('Email verified')
        .waitFor()
        .catch(async (err: Error) => {
          throw new Error(`${err.message}\nthe page says: ${await page.locator('body').innerText()}`);
        });
      await check('verify-email');
      // the same link again (a second click in the mail): it says the address is verified already
      await page.goto(`${origin}${new URL(verification.link!).pathname}${new URL(verification.link!).search}`);
      await page.getByRole('heading', { name: 'Email already verified' }).waitFor();
      await expect(page.getByRole('link', { name: 'Go to the console' }).count()).resolves.toBe(1);
      await check('verify-email-again');
      await page.getByRole('link', { name: 'Sign in' }).click();

      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Password' }).fill(password);
      await check('sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Members' }).waitFor();
      for (const link of [
        'Overview',
        'Jobs',
        'API keys',
        'Usage',
        'Webhooks',
        'Schedules',
        'Tracking',
        'Alerts',
        'Destinations',
        'Members',
        'Projects',
        'Audit log',
      ]) {
        await expect(nav.getByRole('link', { name: link }).count()).resolves.toBe(1);
      }
      // the switcher appears once the list of projects has loaded, which can come after the page's heading
      await page.getByRole('combobox', { name: 'Project' }).waitFor();
      await expect(page.getByRole('combobox', { name: 'Project' }).count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
      projectId = /\/console\/projects\/([^/?#]+)/.exec(page.url())![1]!;
      await nav.getByRole('link', { name: 'Jobs' }).click();
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
      await check('jobs-empty');
    },
    STEP_MS,
  );

  let fullKey = '';
  maybe(
    'creates a key in the console, and a job made with that key appears and completes on its page; its export downloads',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await check('keys-empty');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Label' }).fill('ci pipeline');
      // a react-aria radio is a visually hidden input inside its label: people click the label
      await dialog.getByText('Full access', { exact: true }).click();
      await expect(dialog.getByRole('radio', { name: 'Full access' }).isChecked()).resolves.toBe(true);
      await check('keys-create-dialog');
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const secret = dialog.getByRole('textbox', { name: 'Secret' });
      await secret.waitFor();
      fullKey = await secret.inputValue();
      expect(fullKey).toMatch(/^cds_[0-9a-f]{8}_[\w-]{43}$/);
      // the lines to try it hold the key itself: pasted as they are, they work
      const snippet = (await dialog.getByText(/^export CRAWL_API_KEY=/).textContent())!;
      expect(snippet).toContain(`export CRAWL_API_KEY='${fullKey}'`);
      expect(snippet).not.toContain('…');
      await check('keys-secret');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('cell', { name: 'ci pipeline', exact: true }).waitFor();

      const created = await fetch(`${origin}/v1/key/projects/${projectId}/jobs`, {
        method: 'POST',
        headers: bearer(fullKey),
        body: JSON.stringify({ type: 'details', targets: ['B0CONS0001', 'B0CONS0002'] }),
      });
      expect(created.status).toBe(202);
      const jobId = ((await created.json()) as { data: { id: string } }).data.id;
      firstJobId = jobId;

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
      await page.getByRole('link', { name: jobId }).click();
      await page.getByRole('heading', { name: new RegExp(jobId) }).waitFor();
      await page.getByText('completed', { exact: true }).first().waitFor({ timeout: 30_000 });
      await expect(page.locator('main time').first().textContent()).resolves.toMatch(ZONED);
      await check('job');
      const exportLink = page.getByRole('link', { name: 'Export CSV' });
      const href = await exportLink.getAttribute('href');
      const csv = await page.evaluate(async (url) => {
        const res = await fetch(url!);
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
      }, href);
      expect(csv.status).toBe(200);
      expect(csv.type).toMatch(/text\/csv/);
      expect(csv.text).toContain('B0CONS0001');
      await expect(page.getByRole('link', { name: 'Export JSON' }).count()).resolves.toBe(1);
      await expect(page.getByRole('link', { name: 'Export LLM' }).count()).resolves.toBe(1);
    },
    STEP_MS,
  );

  maybe(
    'a read-only key made in the console cannot create jobs; a revoked key stops working',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Label' }).fill('dashboard reader');
      await dialog.getByText('Read only', { exact: true }).click();
      await expect(dialog.getByRole('radio', { name: 'Read only' }).isChecked()).resolves.toBe(true);
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const readKey = await dialog.getByRole('textbox', { name: 'Secret' }).inputValue();
      await dialog.getByRole('button', { name: 'Done' }).click();
      const read = await fetch(`${origin}/v1/key/projects/${projectId}/jobs`, { headers: bearer(readKey) });
      expect(read.status).toBe(200);
      const write = await fetch(`${origin}/v1/key/projects/${projectId}/jobs`, {
        method: 'POST',
        headers: bearer(readKey),
        body: JSON.stringify({ type: 'details', targets: ['B0CONS0003'] }),
      });
      expect(write.status).toBe(403);

      const row = page.getByRole('row').filter({ hasText: 'dashboard reader' });
      await row.getByRole('button', { name: 'Revoke' }).click();
      await check('keys-revoke-confirm');
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await row.getByText('Revoked').waitFor();
      await check('keys');
      expect((await fetch(`${origin}/v1/key/me`, { headers: bearer(readKey) })).status).toBe(401);
      expect((await fetch(`${origin}/v1/key/me`, { headers: bearer(fullKey) })).status).toBe(200);
    },
    STEP_MS,
  );

  maybe(
    'the new-job form shows the API validation error, then creates a job and opens its page',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
      await page.getByRole('button', { name: 'New job' }).click();
      const dialog = page.getByRole('dialog');
      // 3 keywords x 7 pages x 5 credits = 105, more than the 100 sign-up credits: no Create, and why
      await dialog.getByRole('combobox', { name: 'Type' }).selectOption('search');
      await dialog.getByRole('spinbutton', { name: 'Pages' }).fill('7');
      await dialog.getByRole('textbox', { name: 'Targets' }).fill('usb c cable\nhdmi cable\nphone stand');
      await dialog.getByText('Not enough credits', { exact: true }).waitFor();
      const create = dialog.getByRole('button', { name: 'Create job' });
      await expect(create.isDisabled()).resolves.toBe(true);
      await expect(looksDisabled(create)).resolves.toBe(true);
      await dialog
        .getByText(/This job costs 105 credits; the balance is \d+\./)
        .first()
        .waitFor();
      await dialog
        .getByText(/ask the operators of this service to grant credits to your organization Console Co/)
        .first()
        .waitFor();
      await check('new-job-refused');
      expect(await looksDisabled(dialog.getByRole('button', { name: 'Cancel' }))).toBe(false);
      // the API's own validation answer, shown in the form
      expectedStatuses.add(400);
      await dialog.getByRole('combobox', { name: 'Type' }).selectOption('details');
      await dialog.getByRole('combobox', { name: 'Marketplace' }).selectOption('US');
      await dialog.getByRole('textbox', { name: 'Targets' }).fill('not an asin');
      await dialog.getByRole('button', { name: 'Create job' }).click();
      await dialog.getByRole('alert').first().waitFor();
      await check('new-job-error');
      await dialog.getByRole('textbox', { name: 'Targets' }).fill('B0CONS0004');
      await dialog.getByText('Can run now').waitFor();
      await dialog.getByRole('button', { name: 'Create job' }).click();
      await page.waitForURL(/\/console\/jobs\/job_/);
      const jobId = /\/console\/jobs\/(job_\w+)/.exec(page.url())![1]!;
      await page.getByRole('heading', { name: new RegExp(jobId) }).waitFor();
      await page.getByText('completed', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByText('1 result in all.', { exact: true }).waitFor();
      await page.goto(`${origin}/console/projects/${projectId}/jobs?status=completed`);
      await expect(page.getByRole('combobox', { name: 'Status' }).inputValue()).resolves.toBe('completed');
      await page.getByRole('link', { name: jobId }).waitFor();
      await check('jobs');
    },
    STEP_MS,
  );

  maybe(
    'the jobs pager at an offset past the end says so and offers the last page',
    async () => {
      await page.goto(`${origin}/console/projects/${projectId}/jobs?offset=100000`);
      await page.getByText('No jobs on this page', { exact: true }).waitFor();
      // no "100,001–3 of 3", and no Previous into another page past the end
      await expect(page.getByText(/^[\d,]+–[\d,]+ of/).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Previous' }).count()).resolves.toBe(0);
      await check('jobs-past-end');
      await page.getByRole('button', { name: 'Go to the last page' }).click();
      await page.getByText(/^1–(\d+) of \1 jobs$/).waitFor();
      expect(new URL(page.url()).searchParams.get('offset')).toBeNull();
      await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);
    },
    STEP_MS,
  );

  maybe(
    "a failing webhook endpoint's failed delivery is resent from the console once the receiver recovers",
    async () => {
      let healthy = false;
      const receiver = await Receiver.start(() => (healthy ? 200 : 500));
      try {
        const configured = await sessionApi('PATCH', `/v1/key/projects/${projectId}/webhooks`, {
          configs: [{ url: receiver.url, triggerAction: 'job.completed' }],
        });
        expect(configured.status).toBe(200);
        const created = await fetch(`${origin}/v1/key/projects/${projectId}/jobs`, {
          method: 'POST',
          headers: bearer(fullKey),
          body: JSON.stringify({ type: 'details', targets: ['B0CONS0005'] }),
        });
        const jobId = ((await created.json()) as { data: { id: string } }).data.id;
        await stack.waitForJob(jobId);
        // five attempts, all refused
        await receiver.waitFor(5, 30_000);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
        await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
        const deliveries = page.getByRole('table', { name: 'Deliveries' });
        await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
        await deliveries.getByRole('button', { name: 'Resend' }).first().waitFor({ timeout: 20_000 });
        await check('webhooks');
        healthy = true;
        await deliveries.getByRole('button', { name: 'Resend' }).first().click();
        await receiver.waitFor(6, 20_000);
        expect(receiver.received.at(-1)!.status).toBe(200);
        await page.getByRole('combobox', { name: 'Status' }).selectOption('delivered');
        await deliveries.getByText('delivered').first().waitFor({ timeout: 20_000 });
      } finally {
        await receiver.close();
      }
    },
    STEP_MS,
  );

  maybe(
    'a schedule and a webhook endpoint the API refused are created once corrected, one request per submit',
    async () => {
      expectedStatuses.add(400);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
      await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
      const schedulePosts = countRequests('POST', /\/schedules$/);
      await page.getByRole('button', { name: 'Create schedule' }).click();
      const dialog = page.getByRole('dialog');
      const cron = dialog.getByRole('textbox', { name: 'Cron expression' });
      await cron.fill('0 7 * *');
      await dialog.getByRole('textbox', { name: 'Targets' }).fill('B0CONS0006');
      await dialog.getByRole('button', { name: 'Create schedule' }).click();
      const refused = dialog.getByRole('alert');
      await refused.waitFor();
      // the field's name once: "cron has 4 fields", not "cron cron has 4 fields"
      await expect(refused.textContent()).resolves.toMatch(/\bcron has 4 fields\b/);
      await expect(refused.textContent()).resolves.not.toMatch(/cron cron/);
      await expect(isInvalid(cron)).resolves.toBe(true);
      await check('schedules-create-error');
      await cron.fill('0 7 * * *');
      await expect(isInvalid(cron)).resolves.toBe(false);
      await expect(refused.count()).resolves.toBe(0);
      await dialog.getByRole('button', { name: 'Create schedule' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(schedulePosts.count).toBe(2);

      const receiver = await Receiver.start(() => 200);
      try {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
        await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
        const patches = countRequests('PATCH', /\/webhooks$/);
        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const url = dialog.getByRole('textbox', { name: 'URL' });
        await url.fill('ftp://example.com/hooks');
        await dialog.getByRole('button', { name: 'Add endpoint' }).click();
        await dialog
          .getByText(/must be an http\(s\) URL/)
          .first()
          .waitFor();
        await expect(isInvalid(url)).resolves.toBe(true);
        await check('webhooks-add-error');
        await url.fill(receiver.url);
        await expect(isInvalid(url)).resolves.toBe(false);
        await dialog.getByRole('button', { name: 'Add endpoint' }).click();
        await dialog.getByRole('heading', { name: 'Endpoint added' }).waitFor();
        expect(patches.count).toBe(2);
        await dialog.getByRole('button', { name: 'Done' }).click();
        await dialog.waitFor({ state: 'detached' });
      } finally {
        await receiver.close();
      }
    },
    STEP_MS,
  );

  maybe(
    'alert rules: made in the dialog (a 400, then the corrected form is sent again), a fired alert in Recent alerts links to the timeline; disabled, deleted',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
      await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
      await page.getByText('No alert rules yet').waitFor();
      await check('alerts-empty');

      await page.getByRole('button', { name: 'New alert rule' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Mug under $5');
      // every condition type of the API is offered
      const condition = dialog.getByRole('combobox', { name: 'Condition' });
      await expect(
        condition.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)),
      ).resolves.toEqual([
        'price_below',
        'price_above',
        'price_drop_pct',
        'price_rise_pct',
        'back_in_stock',
        'out_of_stock',
        'seller_changed',
        'rating_below',
        'field_changed',
      ]);
      // a percentage takes a value and a baseline; a stock condition neither
      await condition.selectOption('price_drop_pct');
      await dialog.getByRole('combobox', { name: 'Baseline' }).selectOption('median_7d');
      await condition.selectOption('out_of_stock');
      await expect(dialog.getByRole('textbox', { name: 'Value' }).count()).resolves.toBe(0);
      await expect(dialog.getByRole('combobox', { name: 'Baseline' }).count()).resolves.toBe(0);
      await condition.selectOption('price_below');
      const preview = dialog.getByRole('status').filter({ hasText: /fired|preview|value/ });
      await preview.getByText('Enter a value to see how often this rule would have fired.').waitFor();
      await dialog.getByRole('textbox', { name: 'Value' }).fill('5');
      // the live preview: the rule replayed over the project's snapshots, again as the form changes
      await preview.getByText(/^Would have fired 0 times in the last 30 days \(\d+ products?, \d+ snapshots\)\.$/).waitFor();
      await dialog.getByRole('textbox', { name: 'ASINs' }).fill('B0CONS0001');
      await preview.getByText(/\(1 product, \d+ snapshots?\)/).waitFor();
      await expect(preview.getAttribute('aria-live')).resolves.toBe('polite');
      // a preview the API refuses says so; the rule can still be sent (and gets its own 400 below)
      expectedStatuses.add(400);
      await dialog.getByRole('textbox', { name: 'ASINs' }).fill('B0CONS0001\nnot an asin');
      await preview.getByText(/^No preview: /).waitFor();
      await expect(dialog.getByRole('textbox', { name: /^Cooldown/ }).inputValue()).resolves.toBe('3600');
      await expect(dialog.getByRole('textbox', { name: 'Alerts per day' }).inputValue()).resolves.toBe('20');
      await check('alerts-new-rule');
      // the API's 400, in the dialog's alert and at the line of the textbox it is about
      expectedStatuses.add(400);
      await dialog.getByRole('button', { name: 'Create rule' }).click();
      await dialog.getByRole('alert').waitFor();
      await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/asins/);
      await dialog.getByText(/^Line 2: /).waitFor();
      await check('alerts-new-rule-error');
      // corrected and sent again: the form takes it
      await dialog.getByRole('textbox', { name: 'ASINs' }).fill('B0CONS0001');
      await dialog.getByRole('button', { name: 'Create rule' }).click();
      await dialog.waitFor({ state: 'detached' });
      const rules = page.getByRole('table', { name: 'Alert rules' });
      const priceRule = rules.getByRole('row').filter({ hasText: 'Mug under $5' });
      await priceRule.getByText('Armed').waitFor();

      await page.getByRole('button', { name: 'New alert rule' }).click();
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Mug out of stock');
      await dialog.getByRole('combobox', { name: 'Condition' }).selectOption('out_of_stock');
      await dialog.getByRole('textbox', { name: 'ASINs' }).fill('B0CONS0001');
      await dialog.getByRole('combobox', { name: 'Marketplace' }).selectOption('US');
      await dialog.getByRole('button', { name: 'Create rule' }).click();
      await dialog.waitFor({ state: 'detached' });
      const stockRule = rules.getByRole('row').filter({ hasText: 'Mug out of stock' });
      await stockRule.waitFor();

      // B0CONS0001 was crawled in stock before; a crawl of its page out of stock fires the rule once
      stack.simulator.setFaults([
        { match: 'B0CONS0001', fault: { kind: 'rewrite', replace: [[' In Stock ', ' Currently unavailable. ']] } },
      ]);
      try {
        const created = await fetch(`${origin}/v1/key/projects/${projectId}/jobs`, {
          method: 'POST',
          headers: bearer(fullKey),
          body: JSON.stringify({ type: 'details', targets: ['B0CONS0001'] }),
        });
        expect(created.status).toBe(202);
        outOfStockJobId = ((await created.json()) as { data: { id: string } }).data.id;
        await stack.waitForJob(outOfStockJobId);
      } finally {
        stack.simulator.clearFaults();
      }
      await page.reload();
      const recent = page.getByRole('table', { name: 'Recent alerts' });
      const fired = recent.getByRole('row').filter({ hasText: 'Mug out of stock' });
      await fired.waitFor();
      await expect(recent.getByRole('row').count()).resolves.toBe(2);
      await fired.getByText('out of stock', { exact: true }).waitFor();
      await fired.getByText('sent', { exact: true }).waitFor();
      await expect(fired.locator('time').first().textContent()).resolves.toMatch(ZONED);
      await stockRule.getByText('Firing: 1 product').waitFor();
      await stockRule.getByText('Cooling down: 1').waitFor();
      await expect(priceRule.getByText('Armed').count()).resolves.toBe(1);
      await check('alerts');
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `alerts-${width}`);
        await page.getByRole('button', { name: 'New alert rule' }).click();
        await dialog.getByRole('combobox', { name: 'Condition' }).selectOption('price_drop_pct');
        await screenshot(page, `alerts-new-rule-${width}`);
        // the out-of-stock crawl above, replayed: the preview counts the alert the rule did fire
        await dialog.getByRole('combobox', { name: 'Condition' }).selectOption('out_of_stock');
        await dialog.getByRole('textbox', { name: 'ASINs' }).fill('B0CONS0001');
        await dialog.getByText(/^Would have fired 1 time in the last 30 days/).waitFor();
        await screenshot(page, `alerts-new-rule-preview-${width}`);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
      }
      await page.setViewportSize({ width: 1280, height: 860 });

      // the product's timeline in Tracking, at the alert's marketplace and location
      await fired.getByRole('link', { name: /^B0CONS0001/ }).click();
      await page.getByRole('heading', { name: 'Tracking', level: 1 }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe(`/console/projects/${projectId}/tracking`);
      expect(Object.fromEntries(url.searchParams)).toEqual({ asin: 'B0CONS0001', marketplace: 'US' });
      await page.getByRole('table', { name: 'Snapshots of B0CONS0001' }).waitFor();
      await page.goBack();

      await priceRule.getByRole('button', { name: 'Disable' }).click();
      await priceRule.getByText('Disabled').waitFor();
      await priceRule.getByRole('button', { name: 'Enable' }).waitFor();
      await priceRule.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete rule' }).waitFor();
      await check('alerts-delete-confirm');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete rule' }).click();
      await priceRule.waitFor({ state: 'detached' });
      await expect(rules.getByRole('row').count()).resolves.toBe(2);
      // the rules' writes are in the API as the console made them
      const listed = (await sessionApi('GET', `/v1/key/projects/${projectId}/alert-rules`)) as {
        body: { data: { name: string; asins: string[] }[] };
      };
      expect(listed.body.data.map((r: { name: string; asins: string[] }) => [r.name, r.asins])).toEqual([
        ['Mug out of stock', ['B0CONS0001']],
      ]);

      // the page with its route's chunks stays in the budget (docs/console.md, "Serving")
      const { page: fresh } = await watchedPage(browser, origin);
      await fresh.context().addCookies(await page.context().cookies());
      const scripts: Promise<number>[] = [];
      fresh.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.push(res.body().then(() => Number(res.headers()['content-length'] ?? 0)));
      });
      await fresh.goto(`${origin}/console/projects/${projectId}/alerts`);
      await fresh.getByRole('table', { name: 'Alert rules' }).waitFor();
      const total = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
      console.log(`console: the alerts page loads ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB compressed`);
      expect(total).toBeLessThanOrEqual(250 * 1024);
      await fresh.context().close();
    },
    STEP_MS,
  );

  maybe(
    'usage shows the balance and credits per day as a chart with its table twin; every other page passes axe',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('heading', { name: 'Usage' }).waitFor();
      const balance = page.getByLabel('Credit balance', { exact: true });
      await balance.waitFor();
      // 100 sign-up credits, less 2 per details target crawled by the journeys above
      expect(Number((await balance.textContent())!.replace(/\D/g, ''))).toBeLessThan(100);
      await page.getByRole('table', { name: 'Credits per day' }).waitFor();
      await page.getByRole('img', { name: /^Credits per day/ }).waitFor();
      await check('usage');
      // credits are counted with the locale's grouping, as the new-job dialog counts them
      const { organizationId } = (await new ProjectRepository(stack.gateway.db).find(projectId))!;
      const granted = await new CreditRepository(stack.gateway.db).grant(organizationId, 2000);
      await page.reload();
      const grouped = (n: number) => page.evaluate((v) => v.toLocaleString(), n);
      await expect(balance.textContent()).resolves.toBe(await grouped(granted));
      expect(await grouped(granted)).not.toBe(String(granted));
      const ledger = page.getByRole('table', { name: 'Credit ledger' });
      await ledger
        .getByRole('row')
        .filter({ hasText: 'Grant' })
        .getByRole('cell', { name: await grouped(2000), exact: true })
        .waitFor();
      await ledger
        .getByRole('cell', { name: await grouped(granted), exact: true })
        .first()
        .waitFor();

      // a comparison says what changed in words: the availability as the product page says it
      await page.goto(`${origin}/console/projects/${projectId}/tracking?from=${firstJobId}&to=${outOfStockJobId}`);
      const differences = page.getByRole('table', { name: 'Differences between the two result sets' });
      const changed = differences.getByRole('row').filter({ hasText: 'B0CONS0001' });
      await changed.getByText(/Availability: In stock → Out of stock/).waitFor();
      await expect(changed.textContent()).resolves.not.toMatch(/in_stock|out_of_stock/);
      await check('tracking-compare');
      for (const [link, heading, name] of [
        ['Schedules', 'Schedules', 'schedules'],
        ['Tracking', 'Tracking', 'tracking'],
        ['Members', 'Members', 'members'],
      ] as const) {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await check(name);
      }
      for (const [path, name] of [
        ['projects', 'projects'],
        ['audit-log', 'audit-log'],
      ] as const) {
        await page.goto(`${origin}/console/projects/${projectId}/${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByRole('table').first().waitFor();
        await check(name);
      }
    },
    STEP_MS,
  );

  maybe(
    'works at 360 px wide: no page is wider than the screen',
    async () => {
      const { page: narrow, problems: narrowProblems } = await watchedPage(browser, origin, { width: 360, height: 740 });
      await narrow.context().addCookies(await page.context().cookies());
      try {
        for (const path of ['jobs', 'keys', 'usage', 'webhooks', 'schedules', 'tracking', 'alerts', 'members', 'projects', 'audit-log']) {
          await narrow.goto(`${origin}/console/projects/${projectId}/${path}`);
          await narrow.getByRole('heading', { level: 1 }).waitFor();
          await narrow.waitForLoadState('networkidle');
          const width = await narrow.evaluate(
            () =>
              (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
          );
          expect({ path, width }).toEqual({ path, width: 360 });
          if (path === 'jobs' || path === 'keys') await screenshot(narrow, `${path}-360`);
        }
        expect(narrowProblems).toEqual([]);
      } finally {
        await narrow.context().close();
      }
    },
    STEP_MS,
  );

  maybe(
    'a key is created with the keyboard only',
    async () => {
      await page.goto(`${origin}/console/projects/${projectId}/keys`);
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await tabTo(page.getByRole('button', { name: 'Create API key' }));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Label' }).waitFor();
      // the label field has the focus when the dialog opens
      await page.keyboard.type('keyboard key');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown'); // Full access -> Read only
      await expect(dialog.getByRole('radio', { name: 'Read only' }).isChecked()).resolves.toBe(true);
      await tabTo(dialog.getByRole('button', { name: 'Create key' }));
      await page.keyboard.press('Enter');
      await dialog.getByRole('textbox', { name: 'Secret' }).waitFor();
      await page.keyboard.press('Enter'); // Done has the focus
      await page.getByRole('cell', { name: 'keyboard key', exact: true }).waitFor();
      await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    },
    STEP_MS,
  );

  maybe(
    'signs out',
    async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      // the test's own probe of the ended session (its 401 is logged by the browser)
      expectedStatuses.add(401);
      const me = await page.evaluate(async () => (await fetch('/v1/account/me')).status);
      expect(me).toBe(401);
    },
    STEP_MS,
  );
});

describe('serving', () => {
  maybe('the sign-in page loads at most 200 KB of compressed JavaScript', async () => {
    const { page: fresh } = await watchedPage(browser, origin);
    const scripts: Promise<number>[] = [];
    fresh.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.body().then(() => Number(res.headers()['content-length'] ?? 0)));
    });
    await fresh.goto(`${origin}/console/sign-in`);
    await fresh.getByRole('button', { name: 'Sign in' }).waitFor();
    const sizes = await Promise.all(scripts);
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(`console: the sign-in page loads ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB compressed`);
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThanOrEqual(200 * 1024);
    await fresh.context().close();
  });

  it('serves the app with a strict CSP, immutable hashed assets, precompressed files, and never for /v1', async () => {
    const index = await fetch(`${origin}/console/projects/prj_x/jobs`, { headers: { 'Accept-Encoding': 'br' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(index.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(index.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    const html = await index.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /\/console\/assets\/[\w-]+\.js/.exec(html)![0];
    const js = await fetch(`${origin}${asset}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBe('br');
    const gz = await fetch(`${origin}${asset}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect((await fetch(`${origin}/console/assets/missing-abc.js`)).status).toBe(404);
    const api = await fetch(`${origin}/v1/console`);
    expect(api.headers.get('content-type')).toMatch(/application\/json/);
    const settings = await fetch(`${origin}/console/settings.js`);
    expect(await settings.text()).toContain('"signupMode":"open"');
  });
});
