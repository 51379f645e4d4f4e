import * as client from '@crawl/client';
import * as verifier from '@crawl/webhook-signature';

/** The documented package name serves the client's verifier: what one signs, the other verifies. */
it('re-exports the client verifier: a delivery it signs verifies with either name', () => {
  expect(verifier.SIGNATURE_HEADER).toBe('x-service-signature');
  const body = JSON.stringify({ id: 'dlv_1', event: 'job.completed' });
  const header = verifier.sign('whsec_test', body);
  expect(client.verify('whsec_test', body, header)).toMatchObject({ ok: true });
  expect(verifier.verify('another-secret', body, header)).toMatchObject({ ok: false });
});
