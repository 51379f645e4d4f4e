import { type Harness, startHarness } from '../../test-support/harness';

/** The gateway's root leads a person to the console; the API's own paths stay JSON. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

it('GET / redirects to /console', async () => {
  const res = await h.http.get('/');
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/console');
});

it('an unknown path outside the console is still the JSON 404', async () => {
  const res = await h.http.get('/nothing-here');
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('NOT_FOUND');
});
