/**
 * The brand line of a search card. Two layouts carry one, both read next to the card's title:
 * - a brand heading right above the title (2019-2022 `h5.s-line-clamp-1`, 2023+ `h2.s-line-clamp-1`
 *   in the `[data-cy="title-recipe"]` block): the heading's text is the brand;
 * - a byline row right below the title ("by X", "von X", "de X", pre-2019 and list layouts):
 *   the names after the "by" word are the brand.
 * A book, music or video card lists its contributors in that byline, which is no brand: such a
 * card is recognised by its structure (an author link, a release date beside the title or after
 * the byline, a format link such as "Paperback", an ISBN as its ASIN) and has no brand (null).
 *
 * The card's elements are walked once in JS (node-walk.ts): a cheerio query per card costs more
 * than the whole extraction.
 */
import { ancestorOf, elementsUnder, hasClass, nodeText } from './node-walk';
import { isSponsoredLabel } from './search-labels';
import type { DomNode, Sel } from '../page';

/** An ISBN-10 is the ASIN of a printed book (product ASINs start with a letter). */
const ISBN10_RE = /^\d{9}[\dX]$/;

/**
 * Links to a contributor rather than to a product: author pages (`/e/<id>`, `/stores/<name>/author/<id>`)
 * and author searches (`field-author=`, the `p_27` author refinement, the byline's `ntt_srch_lnk` ref).
 */
const CONTRIBUTOR_LINK_RE = /\/e\/[A-Z0-9]{10}|\/author\/|field-author=|[?&]rh=p_27|p_27%3A|ntt_srch_lnk/;

/** The word that opens a byline, in the marketplaces' languages ("by", "von", "de", "di", "par", "door", "av"...). */
const BYLINE_RE = /^(?:by|von|de|di|da|par|por|door|van|av|od|przez|от|بواسطة|من)\s+(\S.*)$/i;

/** The separator Amazon puts between a byline and the release date ("by X | Dec 26, 2018"). */
const BYLINE_SEPARATOR = '|';

const MAX_BRAND_LENGTH = 100;
/** How far above the title a brand heading or byline is looked for (the title block's depth). */
const MAX_LEVELS = 4;

export function cardBrand(card: Sel): string | null {
  const root = card[0] as DomNode | undefined;
  if (!root) return null;
  const els = elementsUnder(root);
  const title = titleNode(els);
  if (!title || isContributorCard(root, els)) return null;
  const levels = levelsAround(title, root);
  if (levels.some(hasReleaseDateBeside)) return null;
  const byline = bylineOf(levels);
  if (byline && bylineIsContributors(byline)) return null;
  return brandHeadingAbove(levels) ?? (byline ? bylineNames(byline) : null);
}

/** The card's title: pre-2019 `a.s-access-detail-page`, else the heading inside (or around) the product link. */
function titleNode(els: DomNode[]): DomNode | null {
  const old = els.find((n) => n.name === 'a' && hasClass(n, 's-access-detail-page'));
  if (old) return old;
  let heading: DomNode | null = null;
  for (const n of els) {
    if (n.name !== 'h2') continue;
    const link = ancestorOf(n, (a) => a.name === 'a');
    if (link) heading = link;
    else if (elementsUnder(n).some((d) => d.name === 'a')) heading = n;
  }
  return heading;
}

/**
 * The title and its ancestors up to its block: the title recipe of 2023+ cards, else a few levels
 * (the title row, the row group of the byline) below the card.
 */
function levelsAround(title: DomNode, root: DomNode): DomNode[] {
  const levels: DomNode[] = [];
  for (let cur: DomNode | null = title; cur && cur !== root && levels.length < MAX_LEVELS; cur = cur.parent ?? null) {
    levels.push(cur);
    if (cur.parent?.attribs?.['data-cy'] === 'title-recipe') break;
  }
  return levels;
}

const isElement = (n: DomNode): boolean => n.type === 'tag';

/** Whether the element shows any text; stops at the first word (siblings may be large blocks). */
function hasText(n: DomNode): boolean {
  if (n.type === 'text') return /[^\s\u00a0]/.test(n.data ?? '');
  if (n.type !== 'tag') return false;
  return (n.children ?? []).some(hasText);
}

/** The nearest element sibling of `node` that shows text, before or after it. */
function textSibling(node: DomNode, direction: -1 | 1): DomNode | null {
  const siblings = node.parent?.children ?? [];
  const at = siblings.indexOf(node);
  for (let i = at + direction; i >= 0 && i < siblings.length; i += direction) {
    const s = siblings[i]!;
    if (isElement(s) && hasText(s)) return s;
  }
  return null;
}

/** A brand heading: a one-line heading that links nowhere and is not the ad label. */
function isBrandHeading(n: DomNode): boolean {
  if (n.name !== 'h2' && n.name !== 'h5' && !hasClass(n, 's-line-clamp-1')) return false;
  if (elementsUnder(n).some((d) => d.name === 'a')) return false;
  const text = nodeText(n);
  return text.length > 0 && text.length <= MAX_BRAND_LENGTH && !isSponsoredLabel(text);
}

function brandHeadingAbove(levels: DomNode[]): string | null {
  for (const level of levels) {
    const above = textSibling(level, -1);
    if (!above) continue;
    const heading = isBrandHeading(above) ? above : elementsUnder(above).find(isBrandHeading);
    if (heading) return nodeText(heading);
  }
  return null;
}

/** The row right below the title (at any level of its block) that opens with a "by" word. */
function bylineOf(levels: DomNode[]): DomNode | null {
  for (const level of levels) {
    const below = textSibling(level, 1);
    if (below && BYLINE_RE.test(nodeText(below))) return below;
  }
  return null;
}

/** The names of a byline: after the "by" word, before a release date. */
function bylineNames(byline: DomNode): string | null {
  const names = BYLINE_RE.exec(nodeText(byline))?.[1]?.split(BYLINE_SEPARATOR)[0]?.trim();
  return names && names.length <= MAX_BRAND_LENGTH ? names : null;
}

/** A byline naming contributors: it links to an author, or a release date follows the names. */
function bylineIsContributors(byline: DomNode): boolean {
  if (elementsUnder(byline).some(isContributorLink)) return true;
  const after = nodeText(byline).split(BYLINE_SEPARATOR).slice(1).join('').trim();
  return after.length > 0;
}

const isContributorLink = (n: DomNode): boolean => n.name === 'a' && CONTRIBUTOR_LINK_RE.test(n.attribs?.href ?? '');

/**
 * Pre-2019 media cards show the release date in the title row, right after the title link
 * ("Plastikfrei für Einsteiger 20. Februar 2019"); a product's title row holds the title only.
 */
function hasReleaseDateBeside(level: DomNode, index: number): boolean {
  if (index !== 0) return false;
  const next = textSibling(level, 1);
  return next !== null && next.name === 'span';
}

/**
 * Cards of books, music and video: an ISBN as ASIN, a link to an author anywhere in the card, or a
 * format link to the product ("Paperback", "Kindle Edition", "Audio CD": bold 2019+ links, pre-2019
 * `h3` headings inside a link), which product cards do not have.
 */
function isContributorCard(root: DomNode, els: DomNode[]): boolean {
  if (ISBN10_RE.test((root.attribs?.['data-asin'] ?? '').trim())) return true;
  return els.some((n) => isContributorLink(n) || isFormatLink(n));
}

function isFormatLink(n: DomNode): boolean {
  if (n.name === 'h3') return ancestorOf(n, (a) => a.name === 'a') !== null && hasText(n) && !/\d/.test(nodeText(n));
  if (n.name !== 'a' || !hasClass(n, 'a-text-bold') || !/\/dp\//.test(n.attribs?.href ?? '')) return false;
  const text = nodeText(n);
  return text.length > 0 && !/\d/.test(text);
}
