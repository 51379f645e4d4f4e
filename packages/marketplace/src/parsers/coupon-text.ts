/**
 * Reading a coupon component the way a shopper sees it. Coupon blocks carry more than the offer:
 * a clip button ("Clip", "Destaque"), a hidden "clipped" twin and error message, and links
 * ("Terms", "Termos", "Details", "Shop items"). The shown text is the offer's own words.
 */
import { attributeOf, classOf, type DomNode, type Sel } from '../page';
import { clean } from './text';

/** "Coupon" in the marketplaces' languages (UK pages say "voucher"). */
export const COUPON_WORD_RE =
  /coupon|cupón|cupon|cupom|gutschein|voucher|buono sconto|kupon|kupong|kortingsbon|bon de réduction|クーポン|كوبون|قسيمة/i;

const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'input', 'select', 'button']);
const SKIP_CLASSES = /(?:^|\s)(?:aok-hidden|a-hidden|a-button|a-popover-preload|a-checkbox-fancy)(?:\s|$)/;
const DISPLAY_NONE_RE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** True when the element is hidden by its own class or inline style (not by a stylesheet rule). */
export function hiddenInline(node: DomNode): boolean {
  return SKIP_CLASSES.test(classOf(node) ?? '') || DISPLAY_NONE_RE.test(attributeOf(node, 'style') ?? '');
}

/** True when the element or one of its ancestors is hidden inline (an inactive buying option's copy). */
export function hiddenByAncestor(node: DomNode): boolean {
  for (let n: DomNode | null | undefined = node; n; n = n.parent) {
    if (/(?:^|\s)aok-hidden(?:\s|$)/.test(classOf(n) ?? '') || DISPLAY_NONE_RE.test(attributeOf(n, 'style') ?? '')) return true;
  }
  return false;
}

function collectShown(node: DomNode, out: string[], skipLinks: boolean): void {
  if (node.type === 'text') {
    out.push(node.data ?? '');
    return;
  }
  if (node.type !== 'tag' && node.type !== 'root') return;
  if (node.name && (SKIP_TAGS.has(node.name) || (skipLinks && node.name === 'a'))) return;
  if (hiddenInline(node)) return;
  const kids = node.children;
  if (kids) for (const k of kids) collectShown(k, out, skipLinks);
}

/**
 * The text a shopper sees in the nodes: without scripts, inputs, buttons, hidden twins and
 * popover bodies; without links when `skipLinks` (details coupons link only to their terms).
 */
export function shownNodeText(nodes: ArrayLike<DomNode>, skipLinks: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < nodes.length; i++) collectShown(nodes[i]!, out, skipLinks);
  return clean(out.join(''));
}

/** shownNodeText of a selection. */
export function shownText(sel: Sel, skipLinks: boolean): string {
  return shownNodeText(sel as unknown as ArrayLike<DomNode>, skipLinks);
}

/** A badge-like "Coupon:" lead-in: the label of the block, not part of the offer. */
const LEAD_LABEL_RE = new RegExp(`^(?:${COUPON_WORD_RE.source})\\s*[:：]\\s*`, 'i');

/**
 * Normalizes a coupon's shown text. Rule: whitespace collapsed; a leading "Coupon:" label
 * dropped; the separators and the full stop that stood before the dropped links ("com o cupom.
 * Termos", "Apply 5% coupon | Terms") dropped too, so the offer reads the same with or without
 * its links. Null when nothing is left.
 */
export function normalizeCoupon(text: string): string | null {
  const t = clean(text)
    .replace(LEAD_LABEL_RE, '')
    .replace(/[\s|·•,;:.。]+$/, '')
    .trim();
  return t || null;
}
