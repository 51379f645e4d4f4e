/**
 * Best-seller list targets: which list and which of its pages a URL names, and so what is
 * fetched for it (docs/fetch-contract.md). Two URLs that fetch the same page are one target.
 */

/** The paths a best-seller list has on every marketplace (docs/fetch-contract.md). */
export const BESTSELLER_PATH_PREFIXES = ['/gp/bestsellers/', '/zgbs/', '/Best-Sellers-'] as const;

export function isBestsellerPath(path: string): boolean {
  return BESTSELLER_PATH_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * Amazon ranks the top 100 of a list on 2 pages of 50, on every marketplace; a later page
 * number shows nothing more, so it is refused rather than charged.
 */
export const MAX_BESTSELLER_PAGE = 2;

/** One page of a best-seller list: the list's path and the page number (1-based). */
export interface BestsellerListPage {
  path: string;
  page: number;
}

/**
 * The page number of Amazon's own page links: `/ref=zg_bs_pg_2` or a suffixed
 * `/ref=zg_bs_pg_2_electronics` as the path's tracking segment.
 */
const REF_PAGE_RE = /\/ref=zg_bs_pg_(\d+)(?:_[^/]*)?(?:\/|$)/;
/** A tracking segment and whatever follows it (`/ref=zg_bs_nav_0`, `/ref=…/262-2139035-4732402`). */
const REF_TAIL_RE = /\/ref=.*$/;
const PAGE_NUMBER_RE = /^\d{1,6}$/;

const PAGE_RANGE = `a page number from 1 to ${MAX_BESTSELLER_PAGE} (best-seller lists have ${MAX_BESTSELLER_PAGE} pages of 50)`;

/**
 * The list page a best-seller URL (already on the marketplace, with a list path) asks for.
 * Path: without its `/ref=…` tail and trailing slashes (they do not change the list). Page:
 * `?pg=N`, the parameter Amazon reads, else the page of a `/ref=zg_bs_pg_N…` segment, else 1.
 * Every other query parameter is ignored: it is neither sent nor part of what the target is.
 */
export function bestsellerListPage(url: URL): BestsellerListPage | { issue: string } {
  if (!isBestsellerPath(url.pathname)) return { issue: `path must start with ${BESTSELLER_PATH_PREFIXES.join(', ')} (a best-seller list)` };
  const page = pageOf(url);
  if (typeof page !== 'number') return page;
  return { path: listPath(url.pathname), page };
}

function pageOf(url: URL): number | { issue: string } {
  const pg = url.searchParams.getAll('pg');
  if (pg.length > 1) return { issue: 'pg must be given once' };
  const value = pg[0] ?? REF_PAGE_RE.exec(url.pathname)?.[1];
  if (value === undefined) return 1;
  const page = PAGE_NUMBER_RE.test(value) ? Number(value) : NaN;
  if (!(page >= 1 && page <= MAX_BESTSELLER_PAGE)) return { issue: `pg must be ${PAGE_RANGE}, got "${value.slice(0, 20)}"` };
  return page;
}

/** The list's path; a root list keeps its prefix's slash (`/gp/bestsellers/ref=x` -> `/gp/bestsellers/`). */
function listPath(pathname: string): string {
  const path = pathname.replace(REF_TAIL_RE, '').replace(/\/+$/, '');
  return isBestsellerPath(path) ? path : `${path}/`;
}
