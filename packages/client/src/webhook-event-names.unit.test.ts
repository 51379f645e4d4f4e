import { EVENT_TYPES } from '@crawl/core';
import { WEBHOOK_EVENT_NAMES } from './webhook-signature';

/**
 * @crawl/client has no dependencies (it is packed and installed on its own, and receivers copy
 * src/webhook-signature.ts as it is), so it keeps its own copy of the event names. The source is
 * EVENT_TYPES in @crawl/core (webhook-events.ts): this test fails when the copy drifts from it,
 * in either direction or in order. Only this test imports @crawl/core (jest resolves it from the
 * workspace sources); it is deliberately not in the package's dependencies or tsconfig references.
 */
it('the event names are the ones @crawl/core defines, in the same order', () => {
  expect([...WEBHOOK_EVENT_NAMES]).toEqual([...EVENT_TYPES]);
});
