/**
 * A search card's sales signals: "bought in past month" and its coupon, looked for inside the
 * card only: first where the layouts put them, then, for layouts we have not seen, by their
 * wording in the marketplace languages.
 *
 * One walk over the card's nodes does both: a css-select query per card costs about as much as
 * walking every node of the card 40 times, and a result page has up to 60 cards.
 */
import { COUPON_WORD_RE, hiddenInline, normalizeCoupon, shownNodeText } from './coupon-text';
import { mentionsPastMonthSales, parseBoughtPastMonth } from './sales-counts';
import { attributeOf, classOf, type DomNode, type Sel } from '../page';

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
