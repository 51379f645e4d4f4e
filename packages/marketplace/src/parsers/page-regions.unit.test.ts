/**
 * The regions a parser leaves out of its tree hold no field of its item: on our own pages (every
 * clone) and on every saved real page when the folder is there, the item parsed with them left
 * out is the item parsed from the whole page.
 */
import { parseDetailsWithout } from './details';
import { leaveOutOfDetails, leaveOutOfSearch } from './page-regions';
import { parseSearchWithout } from './search';
import { ownPagePath, ownPageFiles } from '../test-support/own-pages';
import { realPageFiles, realPagePath } from '../test-support/real-pages';
import * as fs from 'fs';

/** [name, path] of our pages and the saved ones of a kind. */
const pagesOf = (kind: string): [string, string][] => {
  const ofKind = (f: string) => f.startsWith(`${kind}-`);
  return [
    ...ownPageFiles(ofKind).map((f): [string, string] => [f, ownPagePath(f)]),
    ...realPageFiles(ofKind).map((f): [string, string] => [f, realPagePath(f)]),
  ];
};

/** The page's context: its marketplace is the code in the file name (details-DE-...). */
function contextOf(file: string) {
  const marketplace = /^[a-z]+-([A-Z]{2})-/.exec(file)?.[1] ?? 'US';
  return { marketplace, origin: 'https://www.amazon.com' };
}

describe('regions left out of a product page', () => {
  it.each(pagesOf('details'))('change nothing on %s', (_name, file) => {
    const page = fs.readFileSync(file);
    const whole = parseDetailsWithout(page, contextOf(_name), undefined);
    expect(whole).not.toBeNull();
    expect(parseDetailsWithout(page, contextOf(_name), leaveOutOfDetails)).toEqual(whole);
  });

  it('our pages have regions to leave out, and leaving them out changes the tree', () => {
    for (const [name, file] of pagesOf('details').filter(([name]) => ownPageFiles().includes(name))) {
      const html = fs.readFileSync(file, 'utf8');
      expect([name, /id="(?:navbar|navFooter|sims-[^"]*|selectQuantity|cm-cr-dp-review-list|sp_detail[^"]*)"/.test(html)]).toEqual([
        name,
        true,
      ]);
    }
  });
});

describe('regions left out of a search page', () => {
  it.each(pagesOf('search'))('change nothing on %s', (_name, file) => {
    const page = fs.readFileSync(file);
    const whole = parseSearchWithout(page, contextOf(_name), undefined);
    expect(whole.cards.length).toBeGreaterThan(0);
    expect(parseSearchWithout(page, contextOf(_name), leaveOutOfSearch)).toEqual(whole);
  });
});

it('names regions by their own id only', () => {
  expect(leaveOutOfDetails('div', 'selectQuantity')).toBe(true);
  expect(leaveOutOfDetails('div', 'rh_controls_aspect_3')).toBe(true);
  expect(leaveOutOfDetails('div', undefined)).toBe(false);
  expect(leaveOutOfDetails('div', 'buybox')).toBe(false);
  expect(leaveOutOfSearch('div', 's-refinements')).toBe(true);
  expect(leaveOutOfSearch('div', 'search')).toBe(false);
});
