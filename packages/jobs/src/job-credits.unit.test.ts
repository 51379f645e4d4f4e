import { jobRow } from '@crawl/testing';
import { consumedCredits } from './job-credits';
import { toJobResource } from './job-resource';

/** A running search job of 2 keywords x 5 pages: one keyword finished after 2 pages. */
const running = jobRow({
  type: 'search',
  status: 'running',
  targets: ['usb c hub', 'desk lamp'],
  target_count: 2,
  finished_at: null,
  succeeded: 1,
  results_count: 44,
  credits_reserved: 50,
  credits_consumed: 0,
  pages: 5,
  pages_crawled: 2,
});

describe('credits charged per page crawled', () => {
  it("a running job's consumed counts the pages its finished targets crawled, not its targets", () => {
    expect(consumedCredits(running)).toBe(10);
    expect(toJobResource(running)).toMatchObject({ pages: 5, credits: { reserved: 50, consumed: 10, refunded: 0 }, notes: [] });
  });

  it('a finished job shows its settled figures; a details job has no pages', () => {
    const done = { ...running, status: 'completed' as const, credits_consumed: 15, credits_refunded: 35 };
    expect(toJobResource(done).credits).toEqual({ reserved: 50, consumed: 15, refunded: 35 });
    const details = { ...running, type: 'details' as const, pages: null, pages_crawled: 3 };
    expect(consumedCredits(details)).toBe(6);
    expect(toJobResource(details).pages).toBeNull();
  });
});

describe('offers: 2 credits per offer-listing page', () => {
  it('a product whose listing had 3 of its 10 reserved pages consumes 6 (the other 14 are refunded when the job ends)', () => {
    const offers = jobRow({
      type: 'offers',
      status: 'running',
      targets: ['B0TEST0001'],
      target_count: 1,
      finished_at: null,
      succeeded: 1,
      credits_reserved: 20,
      credits_consumed: 0,
      pages: 10,
      pages_crawled: 3,
    });
    expect(consumedCredits(offers)).toBe(6);
    expect(toJobResource(offers)).toMatchObject({ pages: 10, credits: { reserved: 20, consumed: 6 } });
  });

  it('an offers job made before offers had pages (pages null) shows the one page it reserved', () => {
    const old = jobRow({ type: 'offers', pages: null, pages_crawled: 1, credits_reserved: 2 });
    expect(toJobResource(old).pages).toBe(1);
    expect(consumedCredits(old)).toBe(2);
  });
});
