import { type ConcurrencyBounds, nextConcurrency } from './adaptive-concurrency';

const bounds: ConcurrencyBounds = { min: 16, max: 256, memoryBudgetMb: 400, maxLagMs: 50, parseSlack: 8 };
const calm = { lagP99Ms: 5, rssMb: 150, parseWaiting: 0 };

it('grows by a quarter while saturated with a backlog, up to the maximum', () => {
  expect(nextConcurrency({ concurrency: 16, active: 16, backlog: 500, ...calm }, bounds)).toBe(20);
  expect(nextConcurrency({ concurrency: 100, active: 95, backlog: 1, ...calm }, bounds)).toBe(125);
  expect(nextConcurrency({ concurrency: 250, active: 250, backlog: 9, ...calm }, bounds)).toBe(256);
});

it('holds when there is no backlog or free slots remain', () => {
  expect(nextConcurrency({ concurrency: 64, active: 64, backlog: 0, ...calm }, bounds)).toBe(64);
  expect(nextConcurrency({ concurrency: 64, active: 20, backlog: 900, ...calm }, bounds)).toBe(64);
});

it('shrinks by a quarter on event-loop lag or memory over budget, down to the minimum', () => {
  expect(nextConcurrency({ concurrency: 200, active: 200, backlog: 900, lagP99Ms: 80, rssMb: 150, parseWaiting: 0 }, bounds)).toBe(150);
  expect(nextConcurrency({ concurrency: 200, active: 200, backlog: 900, lagP99Ms: 5, rssMb: 450, parseWaiting: 0 }, bounds)).toBe(150);
  expect(nextConcurrency({ concurrency: 18, active: 18, backlog: 900, lagP99Ms: 500, rssMb: 150, parseWaiting: 0 }, bounds)).toBe(16);
});

it('holds while pages wait for the parsers, and eases off by a tenth when more wait than the slack', () => {
  // saturated with a backlog, which alone would grow the limit
  expect(nextConcurrency({ concurrency: 100, active: 100, backlog: 900, ...calm, parseWaiting: 3 }, bounds)).toBe(100);
  expect(nextConcurrency({ concurrency: 100, active: 100, backlog: 900, ...calm, parseWaiting: 8 }, bounds)).toBe(100);
  expect(nextConcurrency({ concurrency: 100, active: 100, backlog: 900, ...calm, parseWaiting: 9 }, bounds)).toBe(90);
  expect(nextConcurrency({ concurrency: 17, active: 17, backlog: 900, ...calm, parseWaiting: 60 }, bounds)).toBe(16);
});
