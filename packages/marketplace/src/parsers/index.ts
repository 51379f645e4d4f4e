/** Amazon HTML parsers: page classification, detail, search, offers, best-seller and review pages. */
export { PARSER_VERSION } from './types';
export type {
  AvailabilityStatus,
  BestsellerItem,
  BestsellersPage,
  DetailsItem,
  Money,
  OfferItem,
  OffersPage,
  PageContext,
  PageKind,
  ReviewItem,
  ReviewsPage,
  SearchItem,
} from './types';
export { detectPageKind, interstitialKind } from './page-kind';
export { type PageBody, type PageInput, PageSource } from '../page';
export type { ContentKind, InterstitialKind } from './page-kind';
export { parseDetailsPage } from './details';
export { parseSearchPage, parseSearchResults, type SearchResultsPage } from './search';
export { parseOffersPage } from './offers';
export { parseBestsellersPage } from './bestsellers';
export { parseReviewsPage, parseHelpfulVotes } from './reviews';
export { parseReviewDate, type ReviewDate } from './review-date';
export { currencyForMarketplace, parseCount, parseLocaleNumber, parseMoney, parseRating } from './numbers';
export { classifyAvailability } from './availability';
export { deliveryLocationOf, deliveryLocationOfLines, type DeliveryLocation } from './delivery-location';
