import { rateLimitPolicy } from './domain';

/** An enterprise row without a configured limit once got 60,000 requests a minute. */
it('an enterprise organization without a configured limit gets the growth rate, per minute', () => {
  expect(rateLimitPolicy('enterprise', null)).toEqual({ limit: 6_000, windowSeconds: 60 });
  expect(rateLimitPolicy('enterprise', 600)).toEqual({ limit: 600, windowSeconds: 60 });
  expect(rateLimitPolicy('growth', null)).toEqual({ limit: 100, windowSeconds: 1 });
});
