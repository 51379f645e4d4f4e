/**
 * The regions a parser leaves out of its tree hold no field of its item: on every fixture page,
 * the item parsed with them left out is the item parsed from the whole page.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseDetailsWithout } from './details';
import { leaveOutOfDetails, leaveOutOfSearch } from './page-regions';
import { parseSearchWithout } from './search';

const dir = path.resolve(__dirname, '../../../../../shared/fixtures/amazon');
const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
const pagesOf = (kind: string) => files.filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.html'));

/** The page's context: its marketplace is the code in the file name (details-DE-...). */
function contextOf(file: string) {
  const marketplace = /^[a-z]+-([A-Z]{2})-/.exec(file)?.[1] ?? 'US';
  return { marketplace, origin: 'https://www.amazon.com' };
}

const eachPage = (kind: string) => {
  const pages = pagesOf(kind);
  return pages.length ? it.each(pages) : it.skip.each(['no fixtures']);
};

describe('regions left out of a product page', () => {
  eachPage('details')('change nothing on %s', (file) => {
    const page = fs.readFileSync(path.join(dir, file));
    const whole = parseDetailsWithout(page, contextOf(file), undefined);
    expect(whole).not.toBeNull();
    expect(parseDetailsWithout(page, contextOf(file), leaveOutOfDetails)).toEqual(whole);
  });
});

describe('regions left out of a search page', () => {
  eachPage('search')('change nothing on %s', (file) => {
    const page = fs.readFileSync(path.join(dir, file));
    const whole = parseSearchWithout(page, contextOf(file), undefined);
    expect(parseSearchWithout(page, contextOf(file), leaveOutOfSearch)).toEqual(whole);
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
