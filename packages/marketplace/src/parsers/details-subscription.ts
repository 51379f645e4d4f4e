/**
 * The Subscribe & Save price of a details page's buy box (docs/results.md, "New offers and
 * Subscribe & Save"): the price of the subscription buying option when the buy box offers one,
 * whether or not it is the selected option. Layouts: the 2021+ buy-box accordion's subscription
 * row (`#snsAccordionRowMiddle`, its 2023+ `#sns-base-price` / `#sns-tiered-price` blocks) and the
 * 2016-2020 subscription box (`#snsBuyBox`, `#snsPrice`, `#subscriptionPrice`).
 */
import type { Doc, Sel } from '../page';
import { shownText } from './coupon-text';
import { moneyFromElement } from './details-price';
import { parseMoney } from './numbers';
import type { Money } from './types';

/** The subscription option's blocks, the price block itself first. */
const SUBSCRIPTION_BLOCK_IDS = [
  'sns-base-price',
  'sns-tiered-price',
  'snsPrice',
  'subscriptionPrice',
  'snsAccordionRowMiddle',
  'reinvent_price_desktop_snsAccordionRowMiddle',
  'snsBuyBox',
  'snsBuyBox_feature_div',
];
/** The buy-box accordions whose rows are named (`data-a-accordion-row-name="snsAccordionRowMiddle"`). */
const ACCORDION_ROWS = '#buyBoxAccordion [data-a-accordion-row-name], #buybox [data-a-accordion-row-name]';
const SUBSCRIPTION_ROW_RE = /^sns/i;

/** "Subscribe & Save" as the buy box names the option in the marketplaces' languages: its price follows. */
export const SUBSCRIBE_WORDS_RE =
  /subscribe\s*(?:&|and|\+)\s*save|abonnieren\s*(?:&|und)\s*sparen|spar-abo|prime abonnement|abonnez-vous|abonnement|suscr[ií]bete y ahorra|iscriviti e risparmia|programe e poupe|assine e economize|abonneer en bespaar|prenumerera och spara|subskrybuj i oszczędzaj|abone ol|定期おトク便|اشترك ووفّر|اشترك ووفر/i;

const PERCENT_RE = /\d+(?:[.,]\d+)?\s?%/;
const PERCENTS_RE = new RegExp(PERCENT_RE.source, 'g');

/** A price of the block: its price markup (not a struck basis price, not a per-unit price), else its words' money. */
function priceOf(block: Sel, marketplace: string): Money | null {
  const marked = block.find('.a-price:not(.a-text-price), .a-color-price, .apex-pricetopay-accessibility-label');
  for (let i = 0; i < marked.length; i++) {
    const el = marked.eq(i);
    // a struck basis price, a per-unit price and a discount ("Save 5%") are not the price
    if (el.closest('[data-a-strike="true"], .pricePerUnit').length || PERCENT_RE.test(shownText(el, false))) continue;
    // the screen reader's label says the price in a sentence ("$54.00 with 10 percent savings")
    const m = el.hasClass('apex-pricetopay-accessibility-label')
      ? parseMoney(shownText(el, false), marketplace)
      : moneyFromElement(el, marketplace);
    if (m && m.amount > 0) return m;
  }
  // "Subscribe & Save: $54.00 ($0.54 / Count)": the first money after the option's name
  const text = shownText(block, false);
  const words = SUBSCRIBE_WORDS_RE.exec(text);
  const after = words ? text.slice(words.index + words[0].length).replace(PERCENTS_RE, ' ') : '';
  if (!/\d/.test(after)) return null;
  const m = parseMoney(after.replace(/^[\s:：-]+/, ''), marketplace);
  return m && m.amount > 0 ? m : null;
}

function subscriptionBlocks(doc: Doc): Sel[] {
  const out: Sel[] = [];
  for (const id of SUBSCRIPTION_BLOCK_IDS) {
    const blocks = doc.byId(id);
    for (let i = 0; i < blocks.length; i++) out.push(blocks.eq(i));
  }
  const rows = doc.q(ACCORDION_ROWS);
  for (let i = 0; i < rows.length; i++)
    if (SUBSCRIPTION_ROW_RE.test(rows.eq(i).attr('data-a-accordion-row-name') ?? '')) out.push(rows.eq(i));
  return out;
}

/** The Subscribe & Save price, null when the buy box offers no subscription (or shows no price for it). */
export function extractSubscribeAndSave(doc: Doc, marketplace: string): Money | null {
  for (const block of subscriptionBlocks(doc)) {
    // a subscription option switched off for this product is kept in the page, hidden
    if (block.closest('.aok-hidden').length) continue;
    const m = priceOf(block, marketplace);
    if (m) return m;
  }
  return null;
}
