/**
 * A search card's sales signals: "bought in past month" and its coupon, looked for inside the
 * card only: first where the layouts put them, then, for layouts we have not seen, by their
 * wording in the marketplace languages; and what buying it takes: the card's delivery line and
 * its unit price (docs/results.md, "Search cards: delivery and unit price").
 *
 * One walk over the card's nodes does both: a css-select query per card costs about as much as
 * walking every node of the card 40 times, and a result page has up to 60 cards.
 */
import { COUPON_WORD_RE, hiddenInline, normalizeCoupon, shownNodeText, shownText } from './coupon-text';
import { unitPriceOf } from './landed-cost';
import type { MarketplaceCode } from '@crawl/core';
import { detectCurrency } from './numbers';
import { mentionsPastMonthSales, parseBoughtPastMonth } from './sales-counts';
import { attributeOf, classOf, type DomNode, type Sel } from '../page';
import type { SearchItem } from './types';

export interface CardSalesSignals {
  boughtPastMonth: number | null;
  coupon: string | null;
}

/** Title and image blocks: a product name may contain any word. */
const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'h2', 'img', 'svg']);
const MAX_LINE = 120;

const hasClass = (node: DomNode, name: string): boolean => ` ${classOf(node) ?? ''} `.includes(` ${name} `);

/** The coupon component (its "clipped" twin is hidden), the older unclipped line, the 2025 tile. */
function isCouponComponent(node: DomNode): boolean {
  return (
    attributeOf(node, 'data-component-type') === 's-coupon-component' ||
    attributeOf(node, 'data-cy') === 'coupon-recipe' ||
    hasClass(node, 's-coupon-unclipped') ||
    hasClass(node, 's-coupon-tile')
  );
}

/** 2023+: `<span class="a-size-base a-color-secondary">1K+ bought in past month</span>`. */
const isBoughtLine = (node: DomNode): boolean =>
  node.name === 'span' && hasClass(node, 'a-color-secondary') && hasClass(node, 'a-size-base');

/**
 * Reads the text node's parent, else its grandparent (a line split over spans: "<b>100+
 * comprados</b><span> el mes pasado</span>"), never above the card nor a long block.
 */
function readAround<T>(root: DomNode, textNode: DomNode, read: (text: string) => T | null): T | null {
  let el = textNode.parent;
  for (let up = 0; up < 2 && el; up++, el = el.parent) {
    const text = shownNodeText([el], false);
    if (text.length > MAX_LINE) return null;
    const v = read(text);
    if (v !== null || el === root) return v;
  }
  return null;
}

const couponWithFigure = (text: string): string | null => (/\d/.test(text) ? normalizeCoupon(text) : null);

export function cardSalesSignals(card: Sel): CardSalesSignals {
  const root = card[0] as DomNode | undefined;
  let bought: number | null = null;
  let coupon: string | null = null;
  // Found by wording only, used when the structural places are absent.
  let boughtByWords: number | null = null;
  let couponByWords: string | null = null;
  const stack: DomNode[] = root ? [root] : [];
  while (stack.length && (bought === null || coupon === null)) {
    const node = stack.pop()!;
    if (node.type === 'text') {
      const data = node.data ?? '';
      if (boughtByWords === null && bought === null && mentionsPastMonthSales(data))
        boughtByWords = readAround(root!, node, parseBoughtPastMonth);
      if (couponByWords === null && coupon === null && COUPON_WORD_RE.test(data)) couponByWords = readAround(root!, node, couponWithFigure);
      continue;
    }
    if (node.type !== 'tag' || SKIP_TAGS.has(node.name ?? '') || hiddenInline(node)) continue;
    if (coupon === null && isCouponComponent(node)) {
      coupon = normalizeCoupon(shownNodeText([node], false));
      if (coupon !== null) continue;
    }
    if (bought === null && isBoughtLine(node)) {
      bought = parseBoughtPastMonth(shownNodeText([node], false));
      if (bought !== null) continue;
    }
    const kids = node.children;
    if (kids) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
  }
  return { boughtPastMonth: bought ?? boughtByWords, coupon: coupon ?? couponByWords };
}

// ---------------------------------------------------------------- delivery and unit price

/** Delivery as cards word it in the marketplaces' languages ("FREE delivery", "Lieferung", "お届け"). */
const DELIVERY_WORDS_RE =
  /deliver|shipping|ships to|arrives|get it|lieferung|geliefert|zustellung|versand|expédi|livraison|livré|entrega|envío|envio|recíbelo|consegna|spedizione|bezorg|levering|leverans|levereras|dostaw|dostarcz|teslimat|kargo|お届け|配送|توصيل|التوصيل|شحن/i;
/** A result card inside the card (a carousel, or markup left unclosed): its lines are its own. */
const isResultCard = (node: DomNode): boolean => attributeOf(node, 'data-component-type') === 's-search-result';
const CARD = '[data-component-type="s-search-result"]';

/** True when `el` belongs to `card` itself, not to a result card nested in it. */
function ownOf(card: Sel, el: Sel): boolean {
  const holder = el.closest(CARD);
  return holder.length === 0 || holder[0] === card[0];
}

/** Inline elements a delivery line is split over ("<span>FREE delivery </span><span class=a-text-bold>Tue, Dec 9</span>"). */
const INLINE_TAGS = new Set(['span', 'b', 'strong', 'a', 'i', 'em']);

/** The line a text node is part of: its element, widened over the inline elements around it. */
function lineAround(root: DomNode, textNode: DomNode): string | null {
  let el = textNode.parent;
  if (!el) return null;
  while (el !== root && el.parent && el.parent !== root && INLINE_TAGS.has(el.parent.name ?? '')) {
    if (shownNodeText([el.parent], false).length > MAX_LINE) break;
    el = el.parent;
  }
  // the line goes on in the inline elements after it ("<span>Lieferung </span><span>Mittwoch, 10. Dezember</span>")
  const line: DomNode[] = [el];
  const siblings = el === root ? [] : (el.parent?.children ?? []);
  for (let i = siblings.indexOf(el) + 1; i < siblings.length; i++) {
    const next = siblings[i]!;
    if (next.type === 'tag' ? !INLINE_TAGS.has(next.name ?? '') : next.type !== 'text') break;
    line.push(next);
  }
  const text = shownNodeText(line, false);
  return text && text.length <= MAX_LINE ? text : null;
}

/** The first line of the card that speaks of delivery, titles and images left out. */
function deliveryLineByWords(root: DomNode): string | null {
  const stack: DomNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text') {
      if (DELIVERY_WORDS_RE.test(node.data ?? '')) {
        const line = lineAround(root, node);
        if (line) return line;
      }
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'root') continue;
    if (SKIP_TAGS.has(node.name ?? '') || hiddenInline(node) || (node !== root && isResultCard(node))) continue;
    const kids = node.children;
    if (kids) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
  }
  return null;
}

/**
 * The card's delivery line as shown. 2023+ cards have a delivery recipe whose primary message is
 * the line ("FREE delivery Tue, Dec 9"; a secondary message, "Or fastest delivery ...", is not);
 * older cards a line with the words of delivery ("Lieferung bis Fr, 1. Feb", "Kostenlose
 * Lieferung möglich."). Null when the card shows none.
 */
export function cardDeliveryText(card: Sel): string | null {
  const recipes = card.find('[data-cy="delivery-recipe"]');
  let recipe: Sel | null = null;
  for (let i = 0; i < recipes.length && !recipe; i++) if (ownOf(card, recipes.eq(i))) recipe = recipes.eq(i);
  if (recipe) {
    const primary = recipe.find('.udm-primary-delivery-message').first();
    const text = primary.length ? shownText(primary, false) : '';
    if (text) return text;
    const line = deliveryLineByWords(recipe[0] as DomNode);
    if (line) return line;
  }
  const root = card[0] as DomNode | undefined;
  return root ? deliveryLineByWords(root) : null;
}

/** "($0.45/Ounce)", "(EUR 61,20/kg)", "(6,24 €/kg)": a parenthesised price per unit. */
const UNIT_TEXT_RE = /^\(([^()]*\d[^()]*\/[^()]+)\)$/u;

/**
 * The card's unit price: 2023+ cards show it as a small price inside "(…/Ounce)", older ones as
 * plain text "(EUR 61,20/kg)" beside the price. Read by landed-cost.ts's unit-price reader; a
 * parenthesis without a currency ("(2/Pack)" in a size line) is no price.
 */
export function cardUnitPrice(card: Sel, marketplace: MarketplaceCode): SearchItem['unitPrice'] {
  const small = card.find('.a-price.a-text-price');
  for (let i = 0; i < small.length; i++) {
    const price = small.eq(i);
    if (price.attr('data-a-strike') === 'true' || !ownOf(card, price)) continue;
    const around = shownText(price.parent(), false);
    const amount = shownText(price.find('.a-offscreen').first(), false) || shownText(price, false);
    const unit = /\/\s*([^()]+?)\s*\)?$/u.exec(around)?.[1];
    if (!around.startsWith('(') || !unit || !amount) continue;
    const read = unitPriceOf(`(${amount} / ${unit})`, marketplace);
    if (read) return read;
  }
  const lines = card.find('span.a-color-price, span.a-color-secondary, span.a-size-base');
  for (let i = 0; i < lines.length; i++) {
    const text = shownText(lines.eq(i), false);
    if (!ownOf(card, lines.eq(i)) || text.length > 40 || !UNIT_TEXT_RE.test(text) || detectCurrency(text, marketplace) === null) continue;
    const read = unitPriceOf(text, marketplace);
    if (read) return read;
  }
  return null;
}
