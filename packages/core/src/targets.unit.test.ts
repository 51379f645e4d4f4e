import { normalizeAsin, normalizeTargets } from './targets';

/** The characters are checked as sent, then upper-cased (`ßßßßß` once became `SSSSSSSSSS`). */
it('accepts 10 ASCII letters or digits as sent, trimmed, and upper-cases them', () => {
  expect(normalizeAsin(' b0dr8g428s\t')).toBe('B0DR8G428S');
  for (const bad of ['ßßßßß', 'ﬀﬀﬀﬀﬀ', 'B0DR8G428ı', 'B0DR8G428', 'B0DR8G428SS', 'B0DR 8G428']) expect(normalizeAsin(bad)).toBeNull();
  const { targets, issues } = normalizeTargets('details', ['ßßßßß', 'b0dr8g428s'], 'US');
  expect(targets).toEqual(['B0DR8G428S']);
  expect(issues).toEqual([{ index: 0, message: expect.stringContaining('ASIN') }]);
});

it('best-seller targets: list URLs of the marketplace only, stored without credentials or fragment', () => {
  const { marketplace, targets, issues } = normalizeTargets(
    'bestsellers',
    [
      'https://www.amazon.de/gp/bestsellers/books#top',
      'https://u:p@www.amazon.de/gp/bestsellers/books',
      'https://www.amazon.de/Best-Sellers-Elektronik/zgbs/ce-de',
      'https://www.amazon.de/dp/B0DR8G428S',
      'https://www.amazon.com/zgbs/electronics',
      'https://example.com/zgbs/electronics',
      'books',
    ],
    'DE',
  );
  expect(marketplace).toBe('DE');
  expect(targets).toEqual(['https://www.amazon.de/gp/bestsellers/books', 'https://www.amazon.de/Best-Sellers-Elektronik/zgbs/ce-de']);
  expect(issues).toEqual([
    { index: 3, message: expect.stringContaining('path must start with') },
    { index: 4, message: 'URL is on marketplace US, job marketplace is DE' },
    { index: 5, message: 'host example.com is not an Amazon marketplace' },
    { index: 6, message: expect.stringContaining('best-seller list URL') },
  ]);
});

it('best-seller targets are de-duplicated by the list page fetched: the same page in any spelling is one target, page 2 another', () => {
  const { targets, issues } = normalizeTargets(
    'bestsellers',
    [
      'https://www.amazon.com/zgbs/electronics',
      'https://www.amazon.com/zgbs/electronics?pg=1',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_1',
      'https://www.amazon.com/zgbs/electronics/?ref_=nav_cs_bestsellers',
      'https://www.amazon.com/zgbs/electronics?pg=2',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2_electronics?_encoding=UTF8&pg=2',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2',
      'https://www.amazon.com/zgbs/pc?pg=2',
    ],
    'US',
  );
  expect(issues).toEqual([]);
  // The first spelling of each page is kept, as submitted.
  expect(targets).toEqual([
    'https://www.amazon.com/zgbs/electronics',
    'https://www.amazon.com/zgbs/electronics?pg=2',
    'https://www.amazon.com/zgbs/pc?pg=2',
  ]);
});

it('best-seller targets with a page the list does not have are issues (a 400), like other invalid targets', () => {
  const { targets, issues } = normalizeTargets(
    'bestsellers',
    [
      'https://www.amazon.com/zgbs/electronics?pg=0',
      'https://www.amazon.com/zgbs/electronics?pg=-1',
      'https://www.amazon.com/zgbs/electronics?pg=abc',
      'https://www.amazon.com/zgbs/electronics?pg=3',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_11',
      'https://www.amazon.com/zgbs/electronics?pg=2',
    ],
    'US',
  );
  expect(targets).toEqual(['https://www.amazon.com/zgbs/electronics?pg=2']);
  expect(issues).toEqual(
    [0, 1, 2, 3, 4].map((index) => ({
      index,
      message: expect.stringMatching(/^pg must be a page number from 1 to 2 \(best-seller lists have 2 pages of 50\), got "/),
    })),
  );
});

it('offers and reviews targets are ASINs or product URLs, like details', () => {
  for (const type of ['offers', 'reviews'] as const) {
    const { targets, issues } = normalizeTargets(type, ['b0dr8g428s', 'https://www.amazon.com/dp/B0DR8G428S', 'lamp'], 'US');
    expect(targets).toEqual(['B0DR8G428S']);
    expect(issues).toEqual([{ index: 2, message: expect.stringContaining('ASIN') }]);
  }
});
