import { BESTSELLER_PATH_PREFIXES, bestsellerListPage } from './bestseller-lists';
import { MAX_TARGETS_PER_JOB, type JobType } from './domain';
import { JOB_KINDS } from './kinds';
import { DEFAULT_MARKETPLACE, type MarketplaceCode, marketplaceOfHost } from './marketplaces';

/** ASINs are 10 upper-case alphanumerics (books use their ISBN-10, which may end in X). */
export const ASIN_PATTERN = /^[A-Z0-9]{10}$/;

/** Checked on the characters as sent: upper-casing first would turn `ßßßßß` into `SSSSSSSSSS`. */
const ASIN_AS_SENT = /^[A-Za-z0-9]{10}$/;

/** An ASIN as a client sent it (surrounding whitespace ignored, either case), upper-cased; null if it is not one. */
export function normalizeAsin(value: string): string | null {
  const trimmed = value.trim();
  return ASIN_AS_SENT.test(trimmed) ? trimmed.toUpperCase() : null;
}

const PRODUCT_PATH = /\/(?:dp|gp\/product|gp\/aw\/d)\/([A-Za-z0-9]{10})(?:[/?#]|$)/;

export interface TargetIssue {
  index: number;
  message: string;
}

export interface NormalizedTargets {
  marketplace: MarketplaceCode;
  targets: string[];
  issues: TargetIssue[];
}

export function asinFromProductUrl(url: URL): string | null {
  const m = PRODUCT_PATH.exec(url.pathname);
  return m ? m[1]!.toUpperCase() : null;
}

/**
 * Validates and de-duplicates targets. Keywords: trimmed, inner whitespace collapsed,
 * de-duplicated case-insensitively (Amazon search ignores case). Details, offers and reviews:
 * an ASIN or an Amazon product URL, de-duplicated by ASIN. Best sellers: a best-seller list URL
 * of the marketplace, stored without credentials or fragment, de-duplicated by the list page it
 * fetches (list path and page number, see bestsellerListPage: `/zgbs/x`, `/zgbs/x?pg=1` and
 * `/zgbs/x/ref=zg_bs_pg_1` are one target, `/zgbs/x?pg=2` another).
 * When `marketplace` is omitted and every URL target is on one marketplace's host, that
 * marketplace is used; a URL on another host than the job's marketplace is an issue.
 */
export function normalizeTargets(type: JobType, raw: string[], marketplace: MarketplaceCode | undefined): NormalizedTargets {
  const issues: TargetIssue[] = [];
  const seen = new Set<string>();
  const targets: string[] = [];
  const form = JOB_KINDS[type].target;
  let resolved = marketplace;
  if (form !== 'keyword' && !resolved) {
    const hosts = new Set(raw.map(urlMarketplace).filter((m): m is MarketplaceCode => !!m));
    if (hosts.size === 1) resolved = [...hosts][0];
  }
  const market = resolved ?? DEFAULT_MARKETPLACE;

  raw.forEach((value, index) => {
    if (form === 'keyword') {
      const keyword = value.trim().replace(/\s+/g, ' ');
      if (!keyword) return issues.push({ index, message: 'keyword must not be empty' });
      if (keyword.length > 200) return issues.push({ index, message: 'keyword must be at most 200 characters' });
      const key = keyword.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        targets.push(keyword);
      }
      return;
    }
    const trimmed = value.trim();
    if (form === 'bestseller-list') {
      const list = bestsellerListUrl(trimmed, market);
      if ('issue' in list) return issues.push({ index, message: list.issue });
      if (!seen.has(list.key)) {
        seen.add(list.key);
        targets.push(list.url);
      }
      return;
    }
    let asin: string | null = null;
    let normalized = trimmed;
    if (/^https?:\/\//i.test(trimmed)) {
      let url: URL;
      try {
        url = new URL(trimmed);
      } catch {
        return issues.push({ index, message: 'not a valid URL' });
      }
      const host = marketplaceOfHost(url.hostname);
      if (!host) return issues.push({ index, message: `host ${url.hostname} is not an Amazon marketplace` });
      if (host !== market) return issues.push({ index, message: `URL is on marketplace ${host}, job marketplace is ${market}` });
      asin = asinFromProductUrl(url);
      if (!asin) return issues.push({ index, message: 'product URL must contain /dp/{ASIN} or /gp/product/{ASIN}' });
      // Credentials in a target URL are never used (only the ASIN is) and must not be stored.
      url.username = '';
      url.password = '';
      normalized = url.toString();
    } else {
      asin = normalizeAsin(trimmed);
      if (!asin) return issues.push({ index, message: 'must be a 10-character ASIN (letters A-Z and digits) or an Amazon product URL' });
      normalized = asin;
    }
    if (!seen.has(asin)) {
      seen.add(asin);
      targets.push(normalized);
    }
  });

  if (!issues.length && targets.length > MAX_TARGETS_PER_JOB) {
    issues.push({ index: -1, message: `at most ${MAX_TARGETS_PER_JOB} targets per job after de-duplication (got ${targets.length})` });
  }
  return { marketplace: market, targets, issues };
}

/** A best-seller list URL as stored (no credentials, no fragment), or what is wrong with it. */
function bestsellerListUrl(value: string, market: MarketplaceCode): { url: string; key: string } | { issue: string } {
  if (!/^https?:\/\//i.test(value))
    return { issue: `must be a best-seller list URL of the marketplace (path starting with ${BESTSELLER_PATH_PREFIXES.join(', ')})` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { issue: 'not a valid URL' };
  }
  const host = marketplaceOfHost(url.hostname);
  if (!host) return { issue: `host ${url.hostname} is not an Amazon marketplace` };
  if (host !== market) return { issue: `URL is on marketplace ${host}, job marketplace is ${market}` };
  const list = bestsellerListPage(url);
  if ('issue' in list) return list;
  url.username = '';
  url.password = '';
  url.hash = '';
  return { url: url.toString(), key: `${list.path}#${list.page}` };
}

function urlMarketplace(value: string): MarketplaceCode | null {
  if (!/^https?:\/\//i.test(value.trim())) return null;
  try {
    return marketplaceOfHost(new URL(value.trim()).hostname);
  } catch {
    return null;
  }
}

/** ASIN of a details, offers or reviews target (an ASIN or a product URL already validated by normalizeTargets). */
export function asinOfTarget(target: string): string | null {
  if (ASIN_PATTERN.test(target)) return target;
  try {
    return asinFromProductUrl(new URL(target));
  } catch {
    return null;
  }
}
