import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Schemas } from '../api/client';
import { Button } from './forms';

export type PagedPage = '/console/projects/$projectId/webhooks' | '/console/projects/$projectId/audit-log';

/**
 * Previous / next links over a paginated list, the offset in the URL (`?offset=`) with the other
 * search params kept, and where the reader is ("21–40 of 57").
 */
export function LinkPager({
  pagination,
  label,
  page,
  projectId,
}: {
  pagination: Schemas['Pagination'];
  label: string;
  page: PagedPage;
  projectId: string;
}) {
  const { total, limit, offset, hasMore } = pagination;
  if (total === 0) return null;
  const first = offset + 1;
  const last = Math.min(offset + limit, total);
  const to = (next: number) => ({
    to: page,
    params: { projectId },
    search: (prev: Record<string, unknown>) => ({ ...prev, offset: next > 0 ? next : undefined }),
  });
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      {offset > 0 ? <Link {...to(Math.max(0, offset - limit))}>Previous</Link> : <span className="muted">Previous</span>}
      <span>{first <= last ? `${first}–${last} of ${total}` : `past the last of ${total}`}</span>
      {hasMore ? <Link {...to(offset + limit)}>Next</Link> : <span className="muted">Next</span>}
    </nav>
  );
}

/** Previous / next buttons over a list whose offset the caller keeps, with where the reader is in the middle (`children`). */
export function ButtonPager(props: {
  label: string;
  offset: number;
  pageSize: number;
  total: number;
  onOffset: (offset: number) => void;
  children: ReactNode;
}) {
  const { offset, pageSize, total, onOffset } = props;
  // from an offset past the end, Previous is the last page, not a page as far past it
  const lastPage = Math.max(0, Math.floor((total - 1) / pageSize) * pageSize);
  return (
    <nav className="pager" aria-label={props.label}>
      <Button variant="secondary" isDisabled={offset === 0} onPress={() => onOffset(Math.min(lastPage, Math.max(0, offset - pageSize)))}>
        Previous
      </Button>
      <span>{props.children}</span>
      <Button variant="secondary" isDisabled={offset + pageSize >= total} onPress={() => onOffset(offset + pageSize)}>
        Next
      </Button>
    </nav>
  );
}
