import { MAX_SEARCH_PAGES } from '../domain';
import { searchResultItemSchema } from '../result-items';
import type { JobKind } from './types';

/** A keyword's result pages (up to `config.pages`): one item per result card. */
export const search = {
  itemSchema: searchResultItemSchema,
  creditsPerPage: 5,
  maxPages: MAX_SEARCH_PAGES,
  target: 'keyword',
  sortable: false,
} satisfies JobKind;
