/** Amazon HTML parsers: page classification, detail pages, search result pages. */
export { PARSER_VERSION } from './types';
export type { AvailabilityStatus, DetailsItem, Money, PageContext, PageKind, SearchItem } from './types';
export { detectPageKind } from './page-kind';
export { parseDetailsPage } from './details';
export { parseSearchPage } from './search';
export { currencyForMarketplace, parseCount, parseLocaleNumber, parseMoney, parseRating } from './numbers';
export { classifyAvailability } from './availability';
