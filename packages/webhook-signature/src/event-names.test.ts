import { EVENT_TYPES } from '@crawl/core';
import { WEBHOOK_EVENT_NAMES } from './index';

/**
 * This package has no dependencies (receivers copy src/index.ts as it is), so it keeps its own
 * copy of the event names. The source is EVENT_TYPES in @crawl/core (webhook-events.ts): this
 * test fails when the copy drifts from it, in either direction or in order.
 */
it('the event names are the ones @crawl/core defines, in the same order', () => {
  expect([...WEBHOOK_EVENT_NAMES]).toEqual([...EVENT_TYPES]);
});
