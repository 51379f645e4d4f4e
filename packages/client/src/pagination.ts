import type { Page } from './types';

/**
 * Walks a limit/offset list until `hasMore` is false. The offset advances by the items actually
 * received, and an empty page ends the walk even if `hasMore` says otherwise (rows deleted
 * meanwhile), so the loop always terminates. Lists are live: rows created while iterating a
 * newest-first list shift later pages, so an item can be seen twice; callers that care
 * deduplicate by id.
 */
export async function* paginate<T>(
  fetchPage: (limit: number, offset: number) => Promise<Page<T>>,
  pageSize: number,
  startOffset = 0,
): AsyncGenerator<T, void, undefined> {
  let offset = startOffset;
  for (;;) {
    const page = await fetchPage(pageSize, offset);
    for (const item of page.data) yield item;
    if (!page.pagination.hasMore || page.data.length === 0) return;
    offset += page.data.length;
  }
}

/** `encodeURIComponent` for ids in paths: an id can never escape its path segment. */
export const seg = (value: string): string => encodeURIComponent(value);
