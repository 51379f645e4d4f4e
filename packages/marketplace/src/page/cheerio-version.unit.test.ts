/**
 * dom.ts patches cheerio's selection prototype (find, is, filter, closest) and builds results with
 * its internal `_make`. A cheerio release may change any of these without notice, so the patch is
 * tied to the release it was written against: pinned in package.json, and checked here.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as cheerio from 'cheerio';
import { CHEERIO_PATCHED_FOR } from './dom';

/** The version of the cheerio this package resolves (its package.json is not in its exports). */
function installedCheerio(): string {
  for (let dir = path.dirname(require.resolve('cheerio')); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'cheerio') return pkg.version!;
  }
  throw new Error('cheerio’s package.json not found above its entry point');
}

const RECHECK =
  'page/dom.ts replaces find, is, filter and closest on cheerio’s selection prototype and makes results with its _make. ' +
  'Before moving to another cheerio: read that release’s traversing code, check the patch still holds, run the page and ' +
  'parser tests, then update CHEERIO_PATCHED_FOR in dom.ts and the exact pin in packages/marketplace/package.json.';

it('is the cheerio the patch was written for', () => {
  const installed = installedCheerio();
  if (installed !== CHEERIO_PATCHED_FOR)
    throw new Error(`cheerio ${installed} is installed, but the page engine was written for cheerio ${CHEERIO_PATCHED_FOR}. ${RECHECK}`);
});

it('is pinned to that exact version, not a range', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const pinned = manifest.dependencies.cheerio;
  if (pinned !== CHEERIO_PATCHED_FOR)
    throw new Error(`packages/marketplace/package.json asks for cheerio "${pinned}", not exactly "${CHEERIO_PATCHED_FOR}". ${RECHECK}`);
});

it('still has the methods the patch wraps and the _make it builds results with', () => {
  const proto = cheerio.load('').prototype as unknown as Record<string, unknown>;
  const missing = ['find', 'is', 'filter', 'closest', '_make', 'end'].filter((name) => typeof proto[name] !== 'function');
  if (missing.length) throw new Error(`cheerio’s selections have no ${missing.join(', ')}. ${RECHECK}`);
});
