import { Link } from '@tanstack/react-router';
import type { Schemas } from '../../api/client';

export type PagedPage = '/console/projects/$projectId/webhooks' | '/console/projects/$projectId/audit-log';

/**
 * Previous / next links over a paginated list, the offset in the URL (`?offset=`) with the other
 * search params kept, and where the reader is ("21–40 of 57").
 */
export function Pager({
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
