/**
 * Best-seller list (zgbs) parser.
 *
 * Layouts: the 2021+ grid (#gridItemRoot cards, repeated id, each holding a .zg-bdg-text rank
 * badge and a faceout whose element id or data-asin is the ASIN), the 2019-2021 list
 * (li.zg-item-immersion with .zg-badge-text) and the pre-2019 list (.zg_itemImmersion with
 * .zg_rankNumber and data-p13n-asin-metadata JSON). Class names with hashed suffixes
 * (_cDEzb_p13n-sc-price_3mJ9Z) are matched by their stable part only.
 *
 * The grid renders the first 30 of 50 items server-side and lists all 50 (ASIN and rank) in the
 * data-client-recs-list attribute; items without a card are returned as `lazyItems`.
 */
import { Doc, type DomNode, type PageInput, PageSource, type Sel } from '../page';
import { parseCount, parseRating } from './numbers';
import { interstitialKind } from './page-kind';
import { hasNextPageLink, priceFrom } from './page-helpers';
import { ancestorOf, classContains, elementsUnder, firstOf, hasClass, nodeText } from './node-walk';
import { absUrl, ASIN_RE, asinFromUrl, clean, isRecord, normalizeOrigin, nullFields, textOf } from './text';
import { PARSER_VERSION, type BestsellerItem, type BestsellersPage, type Money, type PageContext } from './types';

const CARD_SELECTORS = ['#gridItemRoot', '.zg-item-immersion', '.zg_itemImmersion'];

function selectCards(doc: Doc): Sel {
  for (const s of CARD_SELECTORS) {
    const cards = doc.q(s);
    if (cards.length) return cards;
  }
  // Unknown wrapper: the product faceouts themselves (ASIN metadata, or a data-asin in a p13n grid row).
  return doc.$('[data-p13n-asin-metadata], .p13n-gridRow [data-asin]');
}

/** A card's elements, walked once (see node-walk.ts for why not .find()). */
interface Card {
  node: DomNode;
  els: DomNode[];
}

const attr = (n: DomNode | null | undefined, name: string): string | undefined => n?.attribs?.[name];
const isProductLink = (n: DomNode): boolean => n.name === 'a' && /\/(?:dp|gp\/product)\//.test(attr(n, 'href') ?? '');

function cardAsin(card: Card): string | null {
  const candidates: (() => string | null | undefined)[] = [
    () =>
      attr(card.node, 'data-asin') ??
      attr(
        firstOf(card.els, (n) => attr(n, 'data-asin') !== undefined),
        'data-asin',
      ),
    // 2023 grid: the faceout's element id is the ASIN (no data-asin anywhere on the card).
    () =>
      attr(
        firstOf(card.els, (n) => ASIN_RE.test(attr(n, 'id') ?? '')),
        'id',
      ),
    () => {
      const meta = attr(
        firstOf(card.els, (n) => attr(n, 'data-p13n-asin-metadata') !== undefined),
        'data-p13n-asin-metadata',
      );
      if (!meta) return null;
      try {
        const parsed: unknown = JSON.parse(meta);
        return isRecord(parsed) && typeof parsed.asin === 'string' ? parsed.asin : null;
      } catch {
        return null;
      }
    },
    () => {
      for (const n of card.els) {
        const a = isProductLink(n) ? asinFromUrl(attr(n, 'href')) : null;
        if (a) return a;
      }
      return null;
    },
  ];
  for (const c of candidates) {
    const v = c()?.trim();
    if (v && ASIN_RE.test(v)) return v;
  }
  return null;
}

function cardRank(card: Card): number | null {
  // "#1", "Nr. 1", "n°1", "1." — the first number of the badge.
  const badge = firstOf(card.els, (n) => classContains(n, 'zg-bdg-text') || hasClass(n, 'zg-badge-text') || hasClass(n, 'zg_rankNumber'));
  const n = parseCount(nodeText(badge));
  return n !== null && n > 0 ? n : null;
}

const TRUNCATED_CLASSES = ['p13n-sc-truncated', 'p13n-sc-truncate', 'p13n-sc-truncate-desktop-type2'];

function cardTitle(card: Card): string | null {
  // 2019-2021: .p13n-sc-truncate, with the full text in its title attribute when cut.
  const truncated = firstOf(card.els, (n) => TRUNCATED_CLASSES.some((c) => hasClass(n, c)));
  if (truncated) {
    const t = clean(attr(truncated, 'title')) || nodeText(truncated);
    if (t) return t;
  }
  // 2021+: a line-clamp div inside the product link that holds no image, stars or price.
  for (const link of card.els) {
    if (!isProductLink(link)) continue;
    const inner = elementsUnder(link);
    if (inner.some((n) => n.name === 'img' || hasClass(n, 'a-icon-alt') || classContains(n, 'price'))) continue;
    const t = nodeText(firstOf(inner, (n) => classContains(n, 'line-clamp')) ?? link);
    if (t) return t;
  }
  return (
    clean(
      attr(
        firstOf(card.els, (n) => n.name === 'img' && !!attr(n, 'alt')),
        'alt',
      ),
    ) || null
  );
}

function cardImage(card: Card, origin: string): string | null {
  for (const img of card.els) {
    if (img.name !== 'img') continue;
    const src = attr(img, 'src') ?? attr(img, 'data-src');
    if (src && !src.startsWith('data:') && !/grey-pixel|transparent-pixel/.test(src)) return absUrl(src, origin);
  }
  return null;
}

function cardPrice(doc: Doc, card: Card, marketplace: string): Money | null {
  // The price span only: its container may read "13 offers from XOF 9,107".
  const isPriceSpan = (n: DomNode) => classContains(n, 'p13n-sc-price');
  const candidates = [
    ...card.els.filter((n) => isPriceSpan(n) && !elementsUnder(n).some(isPriceSpan)),
    ...card.els.filter((n) => hasClass(n, 'a-price') && !hasClass(n, 'a-text-price')),
    ...card.els.filter((n) => hasClass(n, 'a-color-price') && !elementsUnder(n).some(isPriceSpan)),
  ];
  for (const n of candidates) {
    const m = priceFrom(doc.$(n as never), marketplace);
    if (m) return m;
  }
  return null;
}

const COUNT_RE = /^[\d.,\s\u00a0]+$/;

function cardRating(card: Card): { rating: number | null; reviewsCount: number | null } {
  const star = firstOf(
    card.els,
    (n) => hasClass(n, 'a-icon-star') || hasClass(n, 'a-icon-star-small') || (n.name === 'i' && classContains(n, 'a-star')),
  );
  if (!star) return { rating: null, reviewsCount: null };
  const link = ancestorOf(star, (n) => n.name === 'a', card.node);
  // 2024+: "4.4 out of 5 stars, 272,461 ratings" on the link; older: title="4.7 out of 5 stars".
  // Parts are separated by ", " (a comma without a space is a number's own: "272,461", "4,5 von 5").
  const parts = (attr(link, 'aria-label') ?? '').split(/,\s+/);
  const alt = firstOf(elementsUnder(star), (n) => hasClass(n, 'a-icon-alt'));
  const rating = parseRating(nodeText(alt) || attr(link, 'title') || parts[0]);
  if (parts.length > 1 && /\d/.test(parts.at(-1)!)) return { rating, reviewsCount: parseCount(parts.at(-1)) };
  // The count sits next to the stars: a span in the same link, or the following link to the reviews.
  const row = ancestorOf(star, (n) => hasClass(n, 'a-icon-row') || hasClass(n, 'a-row'), card.node);
  for (const n of row ? elementsUnder(row) : []) {
    const candidate =
      (n.name === 'a' && /product-reviews|customerReviews/.test(attr(n, 'href') ?? '')) ||
      (n.name === 'span' && hasClass(n, 'a-size-small'));
    if (!candidate) continue;
    const t = clean(elementsUnder(n).some((e) => e === star) ? nodeText(n).replace(nodeText(alt), '') : nodeText(n));
    if (COUNT_RE.test(t)) return { rating, reviewsCount: parseCount(t) };
  }
  return { rating, reviewsCount: null };
}

function recsRanks(doc: Doc): { asin: string; rank: number }[] {
  const out: { asin: string; rank: number }[] = [];
  const lists = doc.$('[data-client-recs-list]');
  lists.each((_, el) => {
    try {
      const parsed: unknown = JSON.parse(el.attribs['data-client-recs-list'] ?? '');
      if (!Array.isArray(parsed)) return;
      for (const rec of parsed) {
        if (!isRecord(rec) || typeof rec.id !== 'string' || !ASIN_RE.test(rec.id)) continue;
        const meta = isRecord(rec.metadataMap) ? rec.metadataMap : {};
        const rank = Number(meta['render.zg.rank']);
        if (Number.isInteger(rank) && rank > 0) out.push({ asin: rec.id, rank });
      }
    } catch {
      // A malformed attribute only loses the lazy items.
    }
  });
  return out;
}

function pageCategory(doc: Doc): string | null {
  // "Best Sellers in Electronics"; #zg_banner_text is the generic "Amazon Best Sellers" banner.
  const heading = doc.q('h1.a-size-large, #zg_listTitle, #zg-right-col h1, #zg_banner_text_wrapper, #zg_banner_text, h1').first();
  const t = textOf(heading);
  return t || null;
}

/**
 * Parses one best-seller list page. Returns null for pages that are not a best-seller list
 * (captcha, sign-in wall, an unrelated page).
 */
export function parseBestsellersPage(page: PageInput, ctx: PageContext): BestsellersPage | null {
  const source = PageSource.of(page);
  if (!source.length || interstitialKind(source, 'bestsellers')) return null;
  const doc = new Doc(source);
  const marketplace = (ctx.marketplace || '').toUpperCase();
  const cards = selectCards(doc);
  const ranks = recsRanks(doc);
  if (cards.length === 0 && ranks.length === 0) return null;
  const rankByAsin = new Map(ranks.map((r) => [r.asin, r.rank]));
  const items: BestsellerItem[] = [];
  const seen = new Set<string>();
  cards.each((_, el) => {
    const node = el as unknown as DomNode;
    const card: Card = { node, els: elementsUnder(node) };
    const asin = cardAsin(card);
    if (!asin || seen.has(asin)) return;
    seen.add(asin);
    const previous = items.at(-1)?.rank ?? 0;
    const rank = cardRank(card) ?? rankByAsin.get(asin) ?? previous + 1;
    const { rating, reviewsCount } = cardRating(card);
    const item: BestsellerItem = {
      rank,
      asin,
      title: cardTitle(card),
      url: `${normalizeOrigin(ctx.origin)}/dp/${asin}`,
      image: cardImage(card, ctx.origin),
      price: cardPrice(doc, card, marketplace),
      rating,
      reviewsCount,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    };
    item.missingFields = nullFields(item, ['title', 'image', 'price', 'rating', 'reviewsCount']);
    items.push(item);
  });
  const lazyItems = ranks.filter((r) => !seen.has(r.asin)).map((r) => ({ rank: r.rank, asin: r.asin }));
  return { category: pageCategory(doc), hasNextPage: hasNextPageLink(doc), items, lazyItems };
}
