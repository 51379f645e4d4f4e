/**
 * Customer reviews page (/product-reviews/{ASIN}) parser.
 *
 * Review pages are marked up with data-hook attributes since 2018: each review is a
 * [data-hook="review"] block (its element id is the review id) holding review-star-rating (or
 * cmps-review-star-rating for reviews from other countries), review-title, review-date,
 * format-strip (the variant), avp-badge (verified purchase), review-body and
 * helpful-vote-statement. The product summary (average-star-rating, total-review-count,
 * #histogramTable) is read once per page.
 *
 * Reviews from other countries carry the original text in .cr-original-review-content next to
 * an empty hidden .cr-translated-review-content; the original is returned.
 *
 * A sign-in wall (Amazon's /ap/signin form) is not a reviews page: detectPageKind says 'signin'
 * and this parser returns null, so the crawler can fail the target as BLOCKED.
 */
import type { RatingHistogram } from '@crawl/core';
import { Doc, type DomNode, type PageInput, PageSource } from '../page';
import { ancestorOf, elementsUnder, firstOf, hasClass, hookIndex, nodeText } from './node-walk';
import { parseCount, parseRating } from './numbers';
import { interstitialKind } from './page-kind';
import { hasNextPageLink } from './page-helpers';
import { asciiDigits, parseReviewDate } from './review-date';
import { ASIN_RE, asinFromUrl, clean, linesOf, nullFields, textOf } from './text';
import { PARSER_VERSION, type PageContext, type ReviewItem, type ReviewsPage } from './types';

const REVIEW_ID_RE = /^R[A-Z0-9]{6,20}$/;

/** Not part of a title or body: icons and their alt text, hidden (translated) copies, "Read more" toggles. */
function isNotContent(n: DomNode): boolean {
  return (
    n.name === 'i' ||
    n.name === 'script' ||
    n.name === 'style' ||
    hasClass(n, 'a-icon-alt') ||
    hasClass(n, 'a-letter-space') ||
    hasClass(n, 'aok-hidden') ||
    hasClass(n, 'cr-expand-review') ||
    n.attribs?.['data-hook'] === 'expand-collapse-read-more-less'
  );
}

/** One review block: its elements and the first element of each data-hook inside it. */
interface ReviewBlock {
  node: DomNode;
  els: DomNode[];
  hooks: Map<string, DomNode>;
}

function reviewBlock(node: DomNode): ReviewBlock {
  const els = elementsUnder(node);
  const hooks = new Map<string, DomNode>();
  for (const n of els) {
    const hook = n.attribs?.['data-hook'];
    if (hook && !hooks.has(hook)) hooks.set(hook, n);
  }
  return { node, els, hooks };
}

function hook(block: ReviewBlock, ...names: string[]): DomNode | null {
  for (const name of names) {
    const n = block.hooks.get(name);
    if (n) return n;
  }
  return null;
}

function reviewId(block: ReviewBlock): string | null {
  const link = (part: string) => firstOf(block.els, (n) => n.name === 'a' && (n.attribs?.href ?? '').includes(part))?.attribs?.href ?? '';
  const candidates = [
    block.node.attribs?.id,
    firstOf(block.els, (n) => (n.attribs?.id ?? '').startsWith('customer_review'))?.attribs?.id?.replace(
      /^customer_review(?:_foreign)?-/,
      '',
    ),
    /reviewId=([A-Z0-9]+)/.exec(link('reviewId='))?.[1],
    /\/customer-reviews\/([A-Z0-9]+)/.exec(link('/customer-reviews/'))?.[1],
  ];
  for (const c of candidates) if (c && REVIEW_ID_RE.test(c)) return c;
  return null;
}

/** Visible text of a title/body element, preferring the original-language copy of translated reviews. */
function contentOf(doc: Doc, node: DomNode | null, asLines: boolean): string | null {
  if (!node) return null;
  const original = firstOf(elementsUnder(node), (n) => hasClass(n, 'cr-original-review-content'));
  let source = original && nodeText(original) ? doc.$(original as never) : null;
  if (!source) {
    source = doc.$(node as never).clone();
    doc.$(elementsUnder(source[0] as unknown as DomNode).filter(isNotContent) as never).remove();
  }
  const text = asLines ? linesOf(source).join('\n') : textOf(source);
  return text || null;
}

function reviewRating(block: ReviewBlock): number | null {
  const star =
    hook(block, 'review-star-rating', 'cmps-review-star-rating') ??
    firstOf(block.els, (n) => n.name === 'i' && (hasClass(n, 'review-rating') || hasClass(n, 'a-icon-star')));
  if (!star) return null;
  const alt = firstOf(elementsUnder(star), (n) => hasClass(n, 'a-icon-alt'));
  const fromText = parseRating(asciiDigits(nodeText(alt ?? star)));
  if (fromText !== null) return fromText;
  // "a-star-4" / "a-star-4-5" class when the alt text is missing.
  const m = /\ba-star-(\d)(?:-(\d))?\b/.exec(star.attribs?.class ?? '');
  return m ? Number(m[1]) + (m[2] ? Number(m[2]) / 10 : 0) : null;
}

/**
 * Helpful votes from the localized statement: "One person found this helpful", "921 persone
 * l'hanno trovato utile", "1.234 Personen fanden...". Amazon shows the statement only for one
 * or more votes, and spells out the count only for one, so a statement without digits is 1.
 */
export function parseHelpfulVotes(statement: string): number | null {
  const text = clean(statement);
  if (!text) return null;
  const digits = /\d[\d.,\s\u00a0\u202f]*/.exec(asciiDigits(text));
  if (!digits) return 1;
  return parseCount(digits[0].trim().replace(/[\s\u00a0\u202f]/g, ''));
}

function helpfulVotes(block: ReviewBlock): number | null {
  const statement = hook(block, 'helpful-vote-statement');
  if (statement) return parseHelpfulVotes(nodeText(statement));
  // The vote widget without a statement: nobody has voted yet.
  return hook(block, 'review-voting-widget', 'vote-helpful-button') || firstOf(block.els, (n) => hasClass(n, 'cr-vote')) ? 0 : null;
}

/** "Size: 27-Inch | Style: Curved": the format strip's parts are separated by icon elements. */
function variantOf(block: ReviewBlock): string | null {
  const strip = hook(block, 'format-strip', 'format-strip-linkless');
  if (!strip) return null;
  const parts: string[] = [''];
  const walk = (node: DomNode): void => {
    if (node.type === 'text') parts[parts.length - 1] += node.data ?? '';
    else if (node.type === 'tag' && (node.name === 'i' || node.name === 'br')) parts.push('');
    else if (node.type === 'tag') for (const kid of node.children ?? []) walk(kid);
  };
  for (const kid of strip.children ?? []) walk(kid);
  const cleaned = parts.map(clean).filter(Boolean);
  return cleaned.length ? cleaned.join(' | ') : null;
}

function parseReview(doc: Doc, block: ReviewBlock, id: string): ReviewItem {
  const dateNode = hook(block, 'review-date');
  const dateText = dateNode ? nodeText(dateNode) || null : null;
  const { date, country } = parseReviewDate(dateText);
  const genome = hook(block, 'genome-widget');
  const author = firstOf(genome ? elementsUnder(genome) : block.els, (n) => hasClass(n, 'a-profile-name'));
  const item: ReviewItem = {
    id,
    rating: reviewRating(block),
    title: contentOf(doc, hook(block, 'review-title'), false),
    body: contentOf(doc, hook(block, 'review-body'), true),
    author: author ? nodeText(author) || null : null,
    date,
    dateText,
    country,
    verifiedPurchase: hook(block, 'avp-badge', 'avp-badge-linkless') !== null,
    helpfulVotes: helpfulVotes(block),
    variant: variantOf(block),
    missingFields: [],
    parserVersion: PARSER_VERSION,
  };
  item.missingFields = nullFields(item, ['rating', 'title', 'body', 'author', 'date']);
  return item;
}

const HISTOGRAM_KEYS: Record<number, keyof RatingHistogram> = { 5: 'fiveStar', 4: 'fourStar', 3: 'threeStar', 2: 'twoStar', 1: 'oneStar' };
const PERCENT_TEXT_RE = /(\d{1,3})\s*[%٪]|[%٪]\s*(\d{1,3})/;
const PERCENT_LABEL_RE = /(\d{1,3})\s*(?:%|percent|por ciento|pour cent|per cento|prozent|procent)/i;

/** Rows of the first non-empty histogram (some pages carry an empty #histogramTable before the real one). */
function histogramRows(doc: Doc, hooks: Map<string, DomNode[]>): DomNode[] {
  const tables = [...doc.byId('histogramTable').toArray(), ...(hooks.get('cr-histogram') ?? [])] as DomNode[];
  for (const table of tables) {
    const els = elementsUnder(table);
    const rows = els.filter((n) => n.name === 'tr');
    if (rows.length) return rows;
    const items = els.filter((n) => n.name === 'li');
    if (items.length) return items;
  }
  return [];
}

/**
 * Percent per star from #histogramTable: table rows (2018-2024) or list items (2024+), with the
 * percent in the row text ("79%", "%79"), an aria-valuenow meter or an aria-label
 * ("80 percent of reviews have 5 stars"). Rows are labelled "5 star", "5 stelle", "5つ星"...;
 * unlabelled rows are taken in Amazon's fixed order, 5 down to 1.
 */
function histogram(doc: Doc, hooks: Map<string, DomNode[]>): RatingHistogram | null {
  const out: RatingHistogram = { fiveStar: null, fourStar: null, threeStar: null, twoStar: null, oneStar: null };
  let found = 0;
  histogramRows(doc, hooks).forEach((row, i) => {
    const text = asciiDigits(nodeText(row));
    const els = elementsUnder(row);
    const label =
      row.attribs?.['aria-label'] ??
      firstOf(els, (n) => !!n.attribs?.['aria-label'] || (n.name === 'a' && !!n.attribs?.title))?.attribs ??
      null;
    const labelText = typeof label === 'string' ? label : (label?.['aria-label'] ?? label?.title ?? '');
    const percentMatch = PERCENT_TEXT_RE.exec(text) ?? PERCENT_LABEL_RE.exec(labelText);
    const meter = firstOf(els, (n) => n.attribs?.['aria-valuenow'] !== undefined)?.attribs?.['aria-valuenow'];
    const percent = percentMatch ? Number(percentMatch[1] ?? percentMatch[2]) : meter !== undefined ? Number(meter) : null;
    if (percent === null || !Number.isFinite(percent)) return;
    const starMatch = /^\D*?([1-5])\s*(?:\p{L}|つ|★)/u.exec(text);
    const key = HISTOGRAM_KEYS[starMatch ? Number(starMatch[1]) : 5 - i];
    if (key && out[key] === null) {
      out[key] = percent;
      found++;
    }
  });
  return found ? out : null;
}

function firstHook(hooks: Map<string, DomNode[]>, ...names: string[]): DomNode | null {
  for (const name of names) {
    const n = hooks.get(name)?.[0];
    if (n) return n;
  }
  return null;
}

function productSummary(doc: Doc, hooks: Map<string, DomNode[]>): ReviewsPage['product'] {
  const link = firstHook(hooks, 'product-link');
  const href = link?.attribs?.href;
  const asinCandidates: (() => string | null | undefined)[] = [
    () => asinFromUrl(href),
    () => /\/product-reviews\/([A-Z0-9]{10})/.exec(href ?? '')?.[1],
    () => /\/product-reviews\/([A-Z0-9]{10})/.exec(doc.$('head link[rel="canonical"]').first().attr('href') ?? '')?.[1],
    () => doc.q('[data-asin]').first().attr('data-asin'),
  ];
  let asin: string | null = null;
  for (const c of asinCandidates) {
    const v = c()?.trim();
    if (v && ASIN_RE.test(v)) {
      asin = v;
      break;
    }
  }
  const average = firstHook(hooks, 'average-star-rating', 'rating-out-of-text');
  const alt = average ? firstOf(elementsUnder(average), (n) => hasClass(n, 'a-icon-alt')) : null;
  const rating = average ? parseRating(asciiDigits(nodeText(alt ?? average))) : null;
  const total = firstHook(hooks, 'total-review-count');
  return {
    asin,
    title: link ? nodeText(link) || null : null,
    rating,
    ratingsCount: total ? parseCount(asciiDigits(nodeText(total))) : null,
    histogram: histogram(doc, hooks),
  };
}

function hasNextPage(doc: Doc, hooks: Map<string, DomNode[]>): boolean {
  // 2024+ pages load more reviews with a "show more" button instead of page links.
  if ((hooks.get('show-more-button') ?? []).some((n) => !hasClass(n, 'aok-hidden') && n.attribs?.disabled === undefined)) return true;
  const bar = firstHook(hooks, 'pagination-bar') ?? (doc.byId('cm_cr-pagination_bar')[0] as DomNode | undefined) ?? null;
  if (bar) {
    const last = elementsUnder(bar).filter((n) => n.name === 'li' && hasClass(n, 'a-last'));
    if (last.length)
      return last.some((li) => !hasClass(li, 'a-disabled') && elementsUnder(li).some((n) => n.name === 'a' && !!n.attribs?.href));
  }
  return hasNextPageLink(doc);
}

/**
 * Parses one reviews page into the product summary and its reviews. Returns null for pages
 * that are not review pages: captcha, sign-in wall (check `detectPageKind(html) === 'signin'`
 * to fail the target as BLOCKED), or an unrelated page. A product without reviews yields
 * `reviews: []` with its summary.
 */
export function parseReviewsPage(page: PageInput, _ctx: PageContext): ReviewsPage | null {
  const source = PageSource.of(page);
  if (!source.length || interstitialKind(source, 'reviews')) return null;
  const doc = new Doc(source);
  const hooks = hookIndex(doc.root()[0] as DomNode);
  const reviewNodes = hooks.get('review') ?? [];
  // No review list and no rating summary: not a reviews page.
  if (
    !reviewNodes.length &&
    !hooks.has('average-star-rating') &&
    !doc.byId('cm_cr-review_list').length &&
    !doc.byId('histogramTable').length
  )
    return null;
  const reviews: ReviewItem[] = [];
  const seen = new Set<string>();
  for (const node of reviewNodes) {
    // Review markup nested in a review (image galleries repeat it) is not another review.
    if (ancestorOf(node, (n) => n.attribs?.['data-hook'] === 'review')) continue;
    const block = reviewBlock(node);
    const id = reviewId(block);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    reviews.push(parseReview(doc, block, id));
  }
  return { product: productSummary(doc, hooks), hasNextPage: hasNextPage(doc, hooks), reviews };
}
