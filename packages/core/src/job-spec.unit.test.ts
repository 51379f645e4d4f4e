import { readJobOptions, readJobSpec, specCost, type JobSpec, toStoredJobSpec } from './job-spec';

const reviews: JobSpec = {
  type: 'reviews',
  targets: ['B0SPEC0001'],
  marketplace: 'DE',
  lang: 'de-DE',
  pages: 3,
  sort: 'recent',
  postalCode: null,
};
const details: JobSpec = {
  type: 'details',
  targets: ['B0SPEC0002'],
  marketplace: 'US',
  lang: null,
  pages: null,
  sort: null,
  postalCode: null,
};

describe('the stored form of a spec', () => {
  it('leaves out what does not apply, as schedules have always stored it, and reads back the same spec', () => {
    expect(toStoredJobSpec(details)).toEqual({ type: 'details', targets: ['B0SPEC0002'], marketplace: 'US', lang: null });
    expect(Object.keys(toStoredJobSpec(details))).not.toContain('pages');
    const { postalCode: _none, ...storedReviews } = reviews;
    expect(toStoredJobSpec(reviews)).toEqual(storedReviews);
    expect(toStoredJobSpec({ ...details, postalCode: '10001' })).toMatchObject({ postalCode: '10001' });
    for (const spec of [details, reviews]) expect(readJobSpec(JSON.parse(JSON.stringify(toStoredJobSpec(spec))))).toEqual(spec);
  });

  it('reads a multi-page spec stored before its type had pages as one page, not the default of a new request', () => {
    expect(readJobSpec({ type: 'offers', targets: ['B0SPEC0003'], marketplace: 'US', lang: null })).toMatchObject({
      pages: 1,
      sort: null,
      postalCode: null,
    });
    // A job row keeps null where the option does not apply, or was not there yet.
    expect(readJobOptions('search', { marketplace: 'US', lang: null, pages: null, sort: null, postalCode: null })).toEqual({
      marketplace: 'US',
      lang: null,
      pages: 1,
      sort: null,
      postalCode: null,
    });
    expect(readJobOptions('details', { marketplace: 'US', lang: null, pages: 4, sort: 'helpful', postalCode: null })).toMatchObject({
      pages: null,
      sort: null,
    });
  });
});

it('a spec reserves every page of every target', () => {
  expect(specCost(reviews)).toBe(2 * 3);
  expect(specCost({ ...details, targets: ['B0SPEC0004', 'B0SPEC0005'] })).toBe(2 * 2 * 1);
});
