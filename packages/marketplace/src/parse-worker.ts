/**
 * The code that runs inside a parse-pool thread (and, with `threads: 0`, on the caller's thread).
 * Kept free of pool concerns so both modes run the exact same function: a pooled result can
 * only differ from an inline one if dist is older than src (run `pnpm build`).
 */
import type { JobType } from '@crawl/core';
import { type ContentPage, MARKETPLACE_KINDS } from './kinds';
import { detectPageKind, interstitialKind, type PageBody, PageSource } from './parsers';
import type { PageKind } from './parsers';

/**
 * A page reaches the thread as the crawler got it, bytes (or text), and the parsers read its
 * bytes (page/page-source.ts): the crawl worker's event loop never builds the page's string.
 */
export type { PageBody };

export interface ParseRequest {
  /** The job type: whose parser runs when the page is not a robot check (MARKETPLACE_KINDS). */
  type: JobType;
  html: PageBody;
  /** 'US', 'DE', ...: picks the currency of prices. */
  marketplace: string;
  /** 'https://www.amazon.de': base of relative URLs. */
  origin: string;
  /** When the page arrived: relative dates on it ("Tomorrow", "Dec 9 - 12") are resolved against it. */
  fetchedAt?: Date;
}

/**
 * What the crawler needs from a 2xx body: a robot check or a sign-in wall is reported before any
 * parser runs (the crawler burns the session), otherwise the parser of the job type decides, and
 * the page carries that type as its `kind` to the item mapping. An empty card list or a null
 * item or page is a page without the requested data (PARSE_ERROR), not a failure here.
 */
export type ParsedPage =
  | { kind: 'captcha' }
  /** Amazon's sign-in form instead of the page (review pages of some marketplaces, some sessions). */
  | { kind: 'signin' }
  | ContentPage;

/** One message to a pool thread. `pageKind` is for bodies that are not parsed (5xx answers). */
export type ParseTask = { op: 'parse'; req: ParseRequest } | { op: 'pageKind'; html: PageBody };

export function parsePage(req: ParseRequest): ParsedPage {
  const source = PageSource.of(req.html);
  const interstitial = interstitialKind(source, req.type);
  if (interstitial) return { kind: interstitial };
  const ctx = { marketplace: req.marketplace, origin: req.origin, ...(req.fetchedAt ? { fetchedAt: req.fetchedAt } : {}) };
  return { kind: req.type, ...MARKETPLACE_KINDS[req.type].parse(source, ctx) } as ContentPage;
}

/** The pool's handler (piscina calls the default export with each task). */
export default function runParseTask(task: ParseTask): ParsedPage | PageKind {
  if (task.op === 'pageKind') return detectPageKind(task.html);
  if (task.op === 'parse') return parsePage(task.req);
  throw new TypeError(`unknown parse task ${JSON.stringify((task as { op?: unknown }).op)}`);
}
