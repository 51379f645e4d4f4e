import { normalizeAsin, normalizeTargets } from './targets';

/** The characters are checked as sent, then upper-cased (`ßßßßß` once became `SSSSSSSSSS`). */
it('accepts 10 ASCII letters or digits as sent, trimmed, and upper-cases them', () => {
  expect(normalizeAsin(' b0dr8g428s\t')).toBe('B0DR8G428S');
  for (const bad of ['ßßßßß', 'ﬀﬀﬀﬀﬀ', 'B0DR8G428ı', 'B0DR8G428', 'B0DR8G428SS', 'B0DR 8G428']) expect(normalizeAsin(bad)).toBeNull();
  const { targets, issues } = normalizeTargets('details', ['ßßßßß', 'b0dr8g428s'], 'US');
  expect(targets).toEqual(['B0DR8G428S']);
  expect(issues).toEqual([{ index: 0, message: expect.stringContaining('ASIN') }]);
});

it('best-seller targets: list URLs of the marketplace only, stored without credentials or fragment, de-duplicated by path and query', () => {
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

it('offers and reviews targets are ASINs or product URLs, like details', () => {
  for (const type of ['offers', 'reviews'] as const) {
    const { targets, issues } = normalizeTargets(type, ['b0dr8g428s', 'https://www.amazon.com/dp/B0DR8G428S', 'lamp'], 'US');
    expect(targets).toEqual(['B0DR8G428S']);
    expect(issues).toEqual([{ index: 2, message: expect.stringContaining('ASIN') }]);
  }
});
