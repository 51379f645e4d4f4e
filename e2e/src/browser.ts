import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download), with the flags this
 * machine needs: without the background-networking ones Chromium keeps trying to reach Google.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/**
 * A page that remembers what went wrong in it: console errors (CSP violations and failed requests
 * among them), uncaught exceptions, requests elsewhere. Normal use logs nothing: a step that makes
 * the API refuse on purpose (a validation error it shows) names the statuses it expects in
 * `expectedStatuses`, and clears them when it ends.
 */
export interface WatchedPage {
  page: Page;
  problems: string[];
  expectedStatuses: Set<number>;
}

const FAILED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

export async function watchedPage(browser: Browser, origin: string, viewport = { width: 1280, height: 860 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  const expectedStatuses = new Set<number>();
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const status = FAILED_LOAD.exec(m.text())?.[1];
    if (status && expectedStatuses.has(Number(status))) return;
    problems.push(`console: ${m.text()}${status ? ` (${m.location().url})` : ''}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) problems.push(`request elsewhere: ${r.url()}`);
  });
  return { page, problems, expectedStatuses };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The first few offending elements: selector and the start of their HTML. */
  nodes: string[];
}

/**
 * axe-core over the page as it is now (WCAG 2.0-2.2 A and AA rules and best practices):
 * the serious and critical violations. Injected through the DevTools protocol, which the
 * page's CSP does not apply to.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(ctx: object, opts: object): Promise<unknown> } }).axe.run(
      // react-aria's live announcer: transient announcements that name a dialog by id for a few
      // seconds after it closed (a screen reader has read them by then)
      { exclude: [['[data-live-announcer]']] },
      {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        resultTypes: ['violations'],
      },
    ),
  )) as { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[]; html: string }> }> };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 160)}`),
    }));
}

/**
 * With CONSOLE_SCREENSHOTS=<folder> (`pnpm console:screenshots`), saves the page in light and dark,
 * so the pictures in the README come from the same browser and journeys as the tests.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  const folder = path.resolve(dir);
  mkdirSync(folder, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(folder, `${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
