import { bestsellerListPage, MAX_BESTSELLER_PAGE } from './bestseller-lists';

const listPage = (url: string) => bestsellerListPage(new URL(url));

describe('bestsellerListPage', () => {
  it('a list URL without a page is page 1 of its path; the /ref= tail, trailing slashes and other parameters are not part of it', () => {
    for (const url of [
      'https://www.amazon.com/zgbs/electronics',
      'https://www.amazon.com/zgbs/electronics/',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_nav_electronics_0',
      'https://www.amazon.com/zgbs/electronics/ref=zg_bs_nav_0/262-2139035-4732402?_encoding=UTF8&ref_=nav_cs_bestsellers',
    ]) {
      expect([url, listPage(url)]).toEqual([url, { path: '/zgbs/electronics', page: 1 }]);
    }
  });

  it("?pg=N names the page, as on Amazon's own page links", () => {
    expect(listPage('https://www.amazon.com/zgbs/electronics?pg=2')).toEqual({ path: '/zgbs/electronics', page: 2 });
    expect(listPage('https://www.amazon.com/zgbs/electronics?pg=1')).toEqual({ path: '/zgbs/electronics', page: 1 });
    expect(
      listPage('https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_2_electronics?_encoding=UTF8&pg=2'),
    ).toEqual({
      path: '/Best-Sellers-Electronics/zgbs/electronics',
      page: 2,
    });
    expect(listPage('https://www.amazon.in/gp/bestsellers/books/ref=zg_bs_pg_2_books?ie=UTF8&pg=02')).toEqual({
      path: '/gp/bestsellers/books',
      page: 2,
    });
  });

  it('a /ref=zg_bs_pg_N segment names the page when there is no pg parameter (pg wins when both are given)', () => {
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2')).toEqual({ path: '/zgbs/electronics', page: 2 });
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2_electronics')).toEqual({ path: '/zgbs/electronics', page: 2 });
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_1')).toEqual({ path: '/zgbs/electronics', page: 1 });
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2?pg=1')).toEqual({ path: '/zgbs/electronics', page: 1 });
    // Other ref names carry no page.
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_nav_2')).toEqual({ path: '/zgbs/electronics', page: 1 });
  });

  it('a root list keeps its prefix', () => {
    expect(listPage('https://www.amazon.com/gp/bestsellers/ref=zg_bs_unv_0?pg=2')).toEqual({ path: '/gp/bestsellers/', page: 2 });
    expect(listPage('https://www.amazon.com/zgbs/')).toEqual({ path: '/zgbs/', page: 1 });
  });

  it.each(['0', '-1', 'abc', '2.0', '', ' 2', String(MAX_BESTSELLER_PAGE + 1), '10', '99999999'])(
    'pg=%s is not a page of the list',
    (pg) => {
      expect(listPage(`https://www.amazon.com/zgbs/electronics?pg=${encodeURIComponent(pg)}`)).toEqual({
        issue: expect.stringContaining(`pg must be a page number from 1 to ${MAX_BESTSELLER_PAGE}`),
      });
    },
  );

  it('a page beyond the list in the ref segment, or pg given twice, is refused too', () => {
    expect(listPage('https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_3')).toEqual({
      issue: expect.stringContaining('pg must be a page number'),
    });
    expect(listPage('https://www.amazon.com/zgbs/electronics?pg=1&pg=2')).toEqual({ issue: 'pg must be given once' });
  });

  it('a path that is no list is refused', () => {
    expect(listPage('https://www.amazon.com/dp/B0DR8G428S?pg=2')).toEqual({ issue: expect.stringContaining('path must start with') });
  });
});
