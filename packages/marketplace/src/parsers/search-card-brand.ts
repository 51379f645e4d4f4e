/**
 * The brand line of a search card. Two layouts carry one, both read next to the card's title:
 * - a brand line right above the title: 2019-2022 `h5.s-line-clamp-1`, 2023+ `h2.s-line-clamp-1`,
 *   and inside a 2023+ title recipe (`[data-cy="title-recipe"]`) whatever row sits above the
 *   title other than the ad label (some 2024 cards put the brand in a plain row, some link it to
 *   the brand's store): the line's text is the brand;
 * - a byline row right below the title ("by X", "von X", "de X", pre-2019 and list layouts):
 *   the names after the "by" word are the brand.
 * A book, music or video card lists its contributors in those lines, which are no brand: such a
 * card is recognised by its structure and words (an author link, a contributor role such as
 * "(Author)" or "(著)", a release date beside the title or after the byline, a format link such
 * as "Paperback" or "Kindle版", an ISBN as its ASIN) and has no brand (null).
 *
 * The card's elements are walked once in JS (node-walk.ts): a cheerio query per card costs more
 * than the whole extraction.
 */
import { ancestorOf, elementsUnder, hasClass, nodeText } from './node-walk';
import { CONTRIBUTOR_ROLE_RE, isMediaFormat, isSponsoredLabel } from './search-labels';
import type { DomNode, Sel } from '../page';

/** An ISBN-10 is the ASIN of a printed book (product ASINs start with a letter). */
const ISBN10_RE = /^\d{9}[\dX]$/;

/**
 * Links to a contributor rather than to a product: author pages (`/e/<id>`, `/stores/<name>/author/<id>`)
 * and author searches (`field-author=`, the `p_27` and 2023+ `p_lbr_…authors` author refinements,
 * the byline's `ntt_srch_lnk` ref).
 */
const CONTRIBUTOR_LINK_RE = /\/e\/[A-Z0-9]{10}|\/author\/|field-author=|[?&]rh=p_27|p_27%3A|p_lbr_[a-z_]*author|ntt_srch_lnk/;

/** Links of a product card that go to the product or through an ad: a brand line never links there. */
const PRODUCT_LINK_RE = /\/dp\/|\/gp\/product\/|\/gp\/aw\/d\/|\/sspa\/click|\/gp\/slredirect\//;

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
  if (!title || isContributorCard(root, els, title)) return null;
  const levels = levelsAround(title, root);
  if (levels.some(hasReleaseDateBeside)) return null;
  const below = rowBelow(levels);
  if (below && rowIsContributors(below)) return null;
  const byline = below && BYLINE_RE.test(nodeText(below)) ? below : null;
  return brandLineAbove(levels) ?? (byline ? bylineNames(byline) : null);
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

/** A link that a brand line may carry (the brand's store or refinement), not one to a product or an ad. */
const isBrandLink = (n: DomNode): boolean => n.name === 'a' && !PRODUCT_LINK_RE.test(n.attribs?.href ?? '');

/** A short text that is not the ad label: what a brand line holds. */
function brandText(n: DomNode): string | null {
  const text = nodeText(n);
  return text.length > 0 && text.length <= MAX_BRAND_LENGTH && !isSponsoredLabel(text) ? text : null;
}

/** A brand heading: a one-line heading that links nowhere but to the brand, and is not the ad label. */
function isBrandHeading(n: DomNode): boolean {
  if (n.name !== 'h2' && n.name !== 'h5' && !hasClass(n, 's-line-clamp-1')) return false;
  if (elementsUnder(n).some((d) => d.name === 'a' && !isBrandLink(d))) return false;
  return brandText(n) !== null;
}

/**
 * A row right above the title inside a 2023+ title recipe: the recipe holds the ad label, the
 * brand line and the title only, so a short row there without a product link is the brand,
 * whatever element carries it.
 */
function isRecipeBrandRow(n: DomNode): boolean {
  if (n.parent?.attribs?.['data-cy'] !== 'title-recipe') return false;
  const inner = elementsUnder(n);
  if (inner.some((d) => (d.name === 'a' && !isBrandLink(d)) || d.name === 'img' || hasClass(d, 'a-badge'))) return false;
  return brandText(n) !== null;
}

/** "by Anker" in a brand line: the names after the "by" word. */
const withoutByWord = (text: string): string => BYLINE_RE.exec(text)?.[1]?.trim() ?? text;

function brandLineAbove(levels: DomNode[]): string | null {
  for (const level of levels) {
    const above = textSibling(level, -1);
    if (!above) continue;
    const heading = isBrandHeading(above) ? above : elementsUnder(above).find(isBrandHeading);
    if (heading) return withoutByWord(nodeText(heading));
    if (isRecipeBrandRow(above)) return withoutByWord(nodeText(above));
  }
  return null;
}

/** The row right below the title (at any level of its block). */
function rowBelow(levels: DomNode[]): DomNode | null {
  for (const level of levels) {
    const below = textSibling(level, 1);
    if (below) return below;
  }
  return null;
}

/** The names of a byline: after the "by" word, before a release date. */
function bylineNames(byline: DomNode): string | null {
  const names = BYLINE_RE.exec(nodeText(byline))?.[1]?.split(BYLINE_SEPARATOR)[0]?.trim();
  return names && names.length <= MAX_BRAND_LENGTH ? names : null;
}

/**
 * A row below the title naming contributors: it links to an author, names a role ("(Author)",
 * "(著)"), or a release date follows the names ("by X | Dec 26, 2018", "村上 春樹 | 2023/4/13").
 */
function rowIsContributors(row: DomNode): boolean {
  if (elementsUnder(row).some(isContributorLink)) return true;
  const text = nodeText(row);
  if (CONTRIBUTOR_ROLE_RE.test(text)) return true;
  const parts = text.split(BYLINE_SEPARATOR);
  const after = parts.slice(1).join('').trim();
  return parts.length > 1 && (BYLINE_RE.test(parts[0]!.trim()) ? after.length > 0 : RELEASE_DATE_RE.test(after));
}

/** A year, a numeric date or a Japanese date: what follows the names of a byline without a "by" word. */
const RELEASE_DATE_RE = /\b(?:1[89]|20)\d{2}\b|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d+年/u;

const isContributorLink = (n: DomNode): boolean => n.name === 'a' && CONTRIBUTOR_LINK_RE.test(n.attribs?.href ?? '');

/**
 * Pre-2019 media cards show the release date in the title row, right after the title link
 * ("Plastikfrei für Einsteiger 20. Februar 2019"); a product's title row holds the title only.
 */
function hasReleaseDateBeside(level: DomNode, index: number): boolean {
  if (index !== 0) return false;
  const next = textSibling(level, 1);
  return next !== null && next.name === 'span' && /\d/.test(nodeText(next));
}

/**
 * Cards of books, music and video: an ISBN as ASIN, a link to an author or a contributor's role
 * anywhere in the card, or a format link to the product ("Paperback", "Kindle Edition", "単行本":
 * by its words, or as 2019+ cards draw it, a bold link without digits; pre-2019 `h3` headings inside
 * a link), which product cards do not have. The title itself is left out: a product may be named
 * "Kindle Case (Author Edition)".
 */
function isContributorCard(root: DomNode, els: DomNode[], title: DomNode): boolean {
  if (ISBN10_RE.test((root.attribs?.['data-asin'] ?? '').trim())) return true;
  const inTitle = new Set([title, ...elementsUnder(title)]);
  return els.some((n) => !inTitle.has(n) && (isContributorLink(n) || isFormatLink(n) || namesRole(n)));
}

/** An element whose own text is a contributor's role ("<span>(Author)</span>"). */
function namesRole(n: DomNode): boolean {
  if (n.name !== 'span') return false;
  const own = (n.children ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.data ?? '')
    .join('');
  return own.length <= 60 && CONTRIBUTOR_ROLE_RE.test(own);
}

function isFormatLink(n: DomNode): boolean {
  if (n.name === 'h3') return ancestorOf(n, (a) => a.name === 'a') !== null && hasText(n) && !/\d/.test(nodeText(n));
  if (n.name !== 'a' || !PRODUCT_LINK_RE.test(n.attribs?.href ?? '')) return false;
  const text = nodeText(n);
  if (!text || text.length > 40) return false;
  return isMediaFormat(text) || (hasClass(n, 'a-text-bold') && /\/dp\//.test(n.attribs?.href ?? '') && !/\d/.test(text));
}
