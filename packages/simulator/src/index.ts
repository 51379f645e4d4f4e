/**
 * @crawl/simulator: a local fake Amazon for tests, benchmarks and demos. Serves saved real
 * pages (or built-in synthetic ones) for the fetch contract of DESIGN section 3 and injects
 * faults (latency, error statuses, captchas, resets, hangs, empty bodies) on demand.
 */
export { startSimulator } from './server';
export type { Fault, FaultKind, FaultRule, RedirectStatus, RequestLogEntry, Simulator, SimulatorOptions } from './types';
export { validateRule } from './fault-rules';
export { keywordSlugs } from './keyword-slug';
export { syntheticAsin, syntheticDetailsPage, syntheticSearchCards, syntheticSearchPage } from './synthetic';
export { DEFAULT_DETAILS_TEMPLATE, DEFAULT_SEARCH_TEMPLATE, defaultFixturesDir } from './page-store';
