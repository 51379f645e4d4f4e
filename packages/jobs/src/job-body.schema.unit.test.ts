/**
 * `config.pages` per job type: which types take it, up to what, and the pages a job gets when it
 * does not say (offers: every page up to the cap, reserved and refunded when not crawled).
 */
import { creditCost, defaultPages, MAX_OFFER_PAGES } from '@crawl/core';
import { crawlConfigOf, jobBodySchema } from './job-body.schema';

const parse = (body: object) => jobBodySchema.safeParse(body);
const issues = (body: object) => {
  const result = parse(body);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('config.pages', () => {
  it('offers: 1 to 10 pages, every page up to the cap when absent; search and reviews default to 1', () => {
    expect(MAX_OFFER_PAGES).toBe(10);
    expect(parse({ type: 'offers', targets: ['B0TEST0001'] })).toMatchObject({ success: true, data: { pages: 10 } });
    expect(parse({ type: 'offers', targets: ['B0TEST0001'], config: { pages: 3 } })).toMatchObject({ data: { pages: 3 } });
    expect(parse({ type: 'offers', targets: ['B0TEST0001'], config: { pages: 1 } })).toMatchObject({ data: { pages: 1 } });
    expect(parse({ type: 'search', targets: ['lamp'] })).toMatchObject({ data: { pages: 1 } });
    expect(parse({ type: 'reviews', targets: ['B0TEST0001'] })).toMatchObject({ data: { pages: 1 } });
    expect([
      defaultPages('offers'),
      defaultPages('search'),
      defaultPages('reviews'),
      defaultPages('details'),
      defaultPages('bestsellers'),
    ]).toEqual([10, 1, 1, 1, 1]);
  });

  it('refused above the type maximum, and on the single-page types, naming the types that take it', () => {
    expect(issues({ type: 'offers', targets: ['B0TEST0001'], config: { pages: 11 } })).toEqual([
      ['config.pages', 'must be at most 10 for offers jobs'],
    ]);
    expect(issues({ type: 'offers', targets: ['B0TEST0001'], config: { pages: 0 } })).toEqual([['config.pages', 'must be at least 1']]);
    expect(issues({ type: 'details', targets: ['B0TEST0001'], config: { pages: 2 } })).toEqual([
      ['config.pages', 'applies to search, offers and reviews jobs only'],
    ]);
    // A single-page type's spec has no page count (the job resource shows `pages: null`).
    expect(parse({ type: 'details', targets: ['B0TEST0001'] })).toMatchObject({ success: true, data: { pages: null, sort: null } });
  });

  it('an offers job reserves 2 credits for every page of every target: 20 per product by default', () => {
    expect(creditCost('offers', 1, defaultPages('offers'))).toBe(20);
    expect(creditCost('offers', 3, 2)).toBe(12);
    expect(creditCost('search', 2, defaultPages('search'))).toBe(10);
  });
});

describe("a spec as the API shows it (a schedule's crawlConfig)", () => {
  it('is the body that makes the same spec again, every option resolved and none that does not apply', () => {
    const spec = jobBodySchema.parse({
      type: 'reviews',
      targets: ['B0TEST0001'],
      config: { marketplace: 'de', lang: 'de_de', sort: 'recent' },
    });
    expect(crawlConfigOf(spec)).toEqual({
      type: 'reviews',
      targets: ['B0TEST0001'],
      config: { marketplace: 'DE', lang: 'de-DE', pages: 1, sort: 'recent' },
    });
    expect(jobBodySchema.parse(crawlConfigOf(spec))).toEqual(spec);
    const single = jobBodySchema.parse({ type: 'details', targets: ['B0TEST0001'] });
    expect(crawlConfigOf(single)).toEqual({ type: 'details', targets: ['B0TEST0001'], config: { marketplace: 'US', lang: null } });
  });
});
