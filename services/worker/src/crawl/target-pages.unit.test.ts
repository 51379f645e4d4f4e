/**
 * The page walk of a multi-page target (crawlTargetPages) with a scripted marketplace: how page
 * n is requested after page n-1's layout, listing-wide offer positions, the duplicate pinned
 * offer, the TRUNCATED note, and a retried task resuming from its checkpoint. What a real page
 * parses to is the parsers' tests' and the e2e tests' (e2e/src/offers-pages.test.ts).
 */
import type { OfferResultItem, PageStyle, ResultItem } from '@crawl/core';
import type { PageCheckpoint } from '@crawl/db';
import { productSnapshots } from '@crawl/jobs';
import { type CrawlInput, type CrawlOutcome, targetUrl } from '@crawl/marketplace';
import { crawlTargetPages, type PagedTarget, type TargetPagesDeps } from './target-pages';

const ASIN = 'B0PAGES001';
const ORIGIN = 'https://www.amazon.com';

const offer = (position: number, price: number, over: Partial<OfferResultItem> = {}): OfferResultItem => ({
  target: ASIN,
  asin: ASIN,
  position,
  price: { amount: price, currency: 'USD' },
  shipping: null,
  condition: 'New',
  seller: { name: `Seller ${price}`, id: null },
  fulfilledByAmazon: null,
  shipsFrom: null,
  isBuyBox: false,
  deliveryText: null,
  missingFields: [],
  parserVersion: 'test',
  deliveryLocation: null,
  fetchedAt: '2026-12-01T12:00:00.000Z',
  sourceUrl: `${ORIGIN}/gp/offer-listing/${ASIN}`,
  ...over,
});

type Page = { items: ResultItem[]; hasNextPage: boolean; pageStyle?: PageStyle } | CrawlOutcome;

/** A marketplace answering page n with `pages[n - 1]`; records the URL each request would go to. */
function marketplace(pages: Page[]) {
  const urls: string[] = [];
  const crawler = {
    async crawl(input: CrawlInput): Promise<CrawlOutcome> {
      urls.push(targetUrl(input.type, input.target, ORIGIN, input.lang, input.page, input.sort ?? null, input.pageStyle ?? null));
      const page = pages[(input.page ?? 1) - 1];
      if (!page) throw new Error(`page ${input.page} was not expected`);
      if ('ok' in page) return page;
      return { ok: true, type: input.type, status: 200, noResults: page.items.length === 0, ...page };
    },
  };
  const checkpoints: PageCheckpoint[] = [];
  const deps: TargetPagesDeps = {
    crawler,
    saveCheckpoint: async (_jobId, _idx, checkpoint) => {
      checkpoints.push(checkpoint);
      return true;
    },
    stillPending: async () => true,
  };
  return { deps, urls, checkpoints };
}

const target = (over: Partial<PagedTarget> = {}, spec: Partial<PagedTarget['spec']> = {}): PagedTarget => ({
  jobId: 'job_1',
  idx: 0,
  projectId: 'prj_1',
  target: ASIN,
  spec: { type: 'offers', marketplace: 'US', lang: null, pages: 10, sort: null, postalCode: null, ...spec },
  pageCheckpoint: null,
  ...over,
});
const firstAttempt = { attempt: 1, maxAttempts: 3 };

describe('offers: pages of a listing', () => {
  const aodPage1 = { items: [offer(1, 20, { isBuyBox: true }), offer(2, 21), offer(3, 22)], hasNextPage: true, pageStyle: 'aod' as const };
  // The panel pins the buy box above its later pages too; page 2 also has the cheapest new offer.
  const aodPage2 = {
    items: [offer(1, 20, { isBuyBox: true }), offer(2, 18.5), offer(3, 23)],
    hasNextPage: false,
    pageStyle: 'aod' as const,
  };

  it("an AOD listing: page 2 from the panel's own pages, positions continuing, the pinned offer once, the lowest new price over both", async () => {
    const { deps, urls } = marketplace([aodPage1, aodPage2]);
    const result = await crawlTargetPages(deps, target(), firstAttempt);
    expect(urls).toEqual([
      `${ORIGIN}/gp/offer-listing/${ASIN}`,
      `${ORIGIN}/gp/product/ajax/aodAjaxMain/?asin=${ASIN}&pc=dp&isonlyrenderofferlist=true&pageno=2`,
    ]);
    expect(result).toMatchObject({ kind: 'succeeded', pagesCrawled: 2 });
    if (result.kind !== 'succeeded') return;
    expect(result.note).toBeUndefined();
    const offers = result.items as OfferResultItem[];
    expect(offers.map((o) => [o.position, o.isBuyBox, o.price!.amount])).toEqual([
      [1, true, 20],
      [2, false, 21],
      [3, false, 22],
      [4, false, 18.5],
      [5, false, 23],
    ]);
    expect(productSnapshots('offers', result.items).get(ASIN)).toMatchObject({ price: 20, lowestNewPrice: 18.5 });
  });

  it("the panel's later pages, which name no place, carry the place the listing's first page named", async () => {
    const chicago = { text: 'Chicago 60601', postalCode: '60601' };
    const page1 = { ...aodPage1, items: aodPage1.items.map((o) => ({ ...o, deliveryLocation: chicago })) };
    const { deps } = marketplace([page1, aodPage2]);
    const result = await crawlTargetPages(deps, target(), firstAttempt);
    if (result.kind !== 'succeeded') throw new Error(`the listing was not crawled: ${result.kind}`);
    const offers = result.items as OfferResultItem[];
    expect(offers).toHaveLength(5);
    expect(offers.map((o) => o.deliveryLocation)).toEqual(offers.map(() => chicago));
  });

  it('a legacy listing: page n by startIndex, 10 offers a page', async () => {
    const legacy = (from: number, hasNextPage: boolean) => ({
      items: [offer(1, from), offer(2, from + 1)].map((o) => ({ ...o, isBuyBox: null })),
      hasNextPage,
      pageStyle: 'offer-listing' as const,
    });
    const { deps, urls } = marketplace([legacy(30, true), legacy(40, true), legacy(50, false)]);
    const result = await crawlTargetPages(deps, target(), firstAttempt);
    expect(urls).toEqual([
      `${ORIGIN}/gp/offer-listing/${ASIN}`,
      `${ORIGIN}/gp/offer-listing/${ASIN}?startIndex=10`,
      `${ORIGIN}/gp/offer-listing/${ASIN}?startIndex=20`,
    ]);
    expect(result).toMatchObject({ kind: 'succeeded', pagesCrawled: 3 });
    if (result.kind === 'succeeded') expect((result.items as OfferResultItem[]).map((o) => o.position)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a listing longer than config.pages: the pages asked for, and a TRUNCATED note', async () => {
    const { deps, urls } = marketplace([aodPage1, { ...aodPage2, hasNextPage: true }]);
    const result = await crawlTargetPages(deps, target({}, { pages: 2 }), firstAttempt);
    expect(urls).toHaveLength(2);
    expect(result).toMatchObject({
      kind: 'succeeded',
      pagesCrawled: 2,
      note: { code: 'TRUNCATED', message: 'the listing has more offers than the 2 pages crawled (config.pages, at most 10)' },
    });
  });

  it('a later page answered 404 or empty ends the listing without a note', async () => {
    const notFound: CrawlOutcome = { ok: false, code: 'NOT_FOUND', message: 'gone', detail: 'gone', retryable: false };
    for (const page2 of [notFound, { items: [], hasNextPage: false, pageStyle: 'aod' as const }]) {
      const { deps } = marketplace([aodPage1, page2]);
      const result = await crawlTargetPages(deps, target({}, { pages: 2 }), firstAttempt);
      expect(result).toMatchObject({ kind: 'succeeded', pagesCrawled: 1 });
      if (result.kind === 'succeeded') expect(result.note).toBeUndefined();
    }
  });

  it('a retried task resumes from its checkpoint and asks for page 2 the way page 1 said', async () => {
    const blocked: CrawlOutcome = { ok: false, code: 'BLOCKED', message: 'blocked', detail: 'robot check', retryable: true };
    const first = marketplace([aodPage1, blocked]);
    expect(await crawlTargetPages(first.deps, target(), firstAttempt)).toMatchObject({ kind: 'retry', code: 'BLOCKED' });
    expect(first.checkpoints).toEqual([{ pages: 1, items: aodPage1.items, pageStyle: 'aod' }]);

    const retry = marketplace([aodPage1, aodPage2]);
    const result = await crawlTargetPages(retry.deps, target({ pageCheckpoint: first.checkpoints[0]! }), { attempt: 2, maxAttempts: 3 });
    expect(retry.urls).toEqual([`${ORIGIN}/gp/product/ajax/aodAjaxMain/?asin=${ASIN}&pc=dp&isonlyrenderofferlist=true&pageno=2`]);
    expect(result).toMatchObject({ kind: 'succeeded', pagesCrawled: 2 });
    if (result.kind === 'succeeded') expect((result.items as OfferResultItem[]).map((o) => o.position)).toEqual([1, 2, 3, 4, 5]);
  });
});

it('search: a ranking cut at config.pages is no TRUNCATED listing (search pages always go on)', async () => {
  const card = { keyword: 'lamp', position: 1, organicPosition: 1 } as unknown as ResultItem;
  const { deps } = marketplace([
    { items: [card], hasNextPage: true },
    { items: [card], hasNextPage: true },
  ]);
  const result = await crawlTargetPages(deps, target({ target: 'lamp' }, { type: 'search', pages: 2 }), firstAttempt);
  expect(result).toMatchObject({ kind: 'succeeded', pagesCrawled: 2 });
  if (result.kind === 'succeeded') expect(result.note).toBeUndefined();
});
