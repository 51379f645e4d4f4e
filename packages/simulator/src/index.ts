/**
 * @crawl/simulator: a local fake Amazon for tests, benchmarks and demos. Serves saved real
 * pages (or built-in synthetic ones) for the fetch contract (docs/fetch-contract.md), re-targeted
 * at any ASIN or keyword; injects faults (latency, error statuses, captchas, resets, hangs,
 * empty bodies) on demand; draws per-request latency; and offers forward-proxy exits, each a
 * client identity subject to robot-check rules (docs/tenant-safety.md, "Exits and politeness").
 */
export { startSimulator } from './server';
export type {
  AntiBotConfig,
  ExitId,
  ExitStats,
  Fault,
  FaultKind,
  FaultRule,
  LatencyConfig,
  OffersLayout,
  PostalRefusal,
  RedirectStatus,
  RequestLogEntry,
  Simulator,
  SimulatorOptions,
} from './types';
export { validateRule } from './fault-rules';
export { keywordSlugs } from './keyword-slug';
export {
  searchCardAsin,
  searchCardTitle,
  syntheticAsin,
  syntheticDetailsPage,
  syntheticSearchCards,
  syntheticSearchPage,
} from './synthetic';
export { productPrice, productTitle } from './asin-template';
export { aodOffersAjaxPage, aodOffersPage } from './aod-offers-page';
export { aodListing } from './aod-offer-data';
export { marketPostalCode, placeOf } from './delivery-location';
export { createLatencySampler, lognormalParams, validateLatency } from './latency';
export { DEFAULT_DETAILS_TEMPLATE, DEFAULT_SEARCH_TEMPLATE, defaultFixturesDir } from './page-store';
