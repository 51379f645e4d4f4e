/**
 * Helpers shared by the offers, best-seller and review parsers: prices in currencies the
 * generic money parser has no symbol for, and "is there a next page" probes.
 */
import type { Doc, Sel } from '../page';
import { moneyFromElement } from './details-price';
import { detectCurrency } from './numbers';
import { textOf } from './text';
import type { Money } from './types';

let isoCodes: Set<string> | null = null;

function isIsoCurrency(code: string): boolean {
  isoCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return isoCodes.has(code);
}

/**
 * Money of a price element. Amazon localizes prices for visitors from abroad ("XOF 6,765",
 * "NGN 12,500"); when the text names an ISO 4217 code that has no symbol in numbers.ts, that
 * code is the currency rather than the marketplace's default.
 */
export function priceFrom(el: Sel, marketplace: string): Money | null {
  const money = moneyFromElement(el, marketplace);
  if (!money) return null;
  const text = textOf(el);
  if (detectCurrency(text, marketplace) !== null) return money;
  const code = /(?:^|[^A-Za-z])([A-Z]{3})(?![A-Za-z])/.exec(text)?.[1];
  return code && isIsoCurrency(code) ? { amount: money.amount, currency: code } : money;
}

/**
 * True when the page links a next page: the a-pagination "Next" item (offer listings, review
 * pages, best-seller lists) is enabled and holds a link.
 */
export function hasNextPageLink(doc: Doc): boolean {
  const last = doc.$('.a-pagination li.a-last');
  for (let i = 0; i < last.length; i++) {
    const item = last.eq(i);
    if (!item.hasClass('a-disabled') && item.find('a[href]').length > 0) return true;
  }
  return false;
}
