/**
 * What a details page says about buying the product: its badges, the buy box's coupon, who ships
 * and sells the buy-box offer, "bought in past month", and the count and lowest price of its new
 * offers (details-new-offers.ts).
 *
 * Every block is looked up by id (the Doc answers ids from an index) and read only where it
 * belongs to this product: carousels lower on the page carry the same badges, deal labels and
 * "bought" lines for other products, so nothing here scans the whole document.
 */
import type { DetailsBadge } from '@crawl/core';
import { extractBuyBoxParties, fulfilledByAmazon, inBuyBox } from './buy-box-parties';
import { COUPON_WORD_RE, hiddenByAncestor, normalizeCoupon, shownText } from './coupon-text';
import type { Doc, DomNode, Sel } from '../page';
import { extractNewOffers } from './details-new-offers';
import { parseBoughtPastMonth } from './sales-counts';
import { textOf } from './text';
import type { DetailsItem } from './types';

/** The buying signals of a details item (their meanings are in the item schema, @crawl/core). */
export type DetailsCommerce = Pick<
  DetailsItem,
  'badges' | 'coupon' | 'boughtPastMonth' | 'shipsFrom' | 'soldBy' | 'fulfilledByAmazon' | 'newOffersCount' | 'lowestNewPrice'
>;

/** The product's own copies of a block: in the active buying option, and not hidden inline. */
function shownBlocks(doc: Doc, id: string): Sel[] {
  const all = doc.byId(id);
  const out: Sel[] = [];
  for (let i = 0; i < all.length; i++) {
    const block = all.eq(i);
    if (inBuyBox(block) && !hiddenByAncestor(all[i] as DomNode)) out.push(block);
  }
  return out;
}

// ---------------------------------------------------------------- badges

const AMAZONS_CHOICE_RE =
  /amazon['’]?s choice|opción amazon|amazons tipp|choix d['’]amazon|scelta amazon|escolha da amazon|amazonのおすすめ|keuze van amazon|amazon['’]?s keuze|amazons val|wybór amazon|amazon['’]?ın seçimi|amazon seçimi|اختيار أمازون/i;
const BEST_SELLER_RE =
  /best ?sellers?|más vendido|mais vendido|meilleures? ventes?|più vendut|ベストセラー|売れ筋|bestsäljare|en çok satan|الأكثر مبيع|most sold/i;
const CLIMATE_RE =
  /climate pledge|sustainability feature|nachhaltigkeit|durabilité|sostenibilit|sustentabilidad|sustentabilidade|duurzaam|hållbarhet|zrównoważon|sürdürülebilir|サステナビリティ|الاستدامة/i;

/**
 * A badge block counts when it holds the badge's markup or, for layouts we have not seen, its
 * wording. Empty feature slots (`<div id="acBadge_feature_div"></div>`, a bare style block or an
 * unopened popover) are the page saying "no badge".
 */
function badgeShown(doc: Doc, id: string, markup: string, words: RegExp): boolean {
  for (const block of shownBlocks(doc, id)) {
    const text = shownText(block, false);
    if (!text) continue;
    if (words.test(text) || block.find(markup).length > 0) return true;
  }
  return false;
}

/** Deal badges of the buy-box price ("Limited time deal", "Lightning Deal", "Prime Day Deal", ...). */
export const PRICE_BLOCK_IDS = ['corePriceDisplay_desktop_feature_div', 'corePrice_feature_div', 'apex_desktop', 'price'];
const DEAL_MARKUP = '.dealBadge, [id^="dealBadge"], .a-badge[data-a-badge-type="deal"], .delightPricingBadge';

function hasDealBadge(doc: Doc): boolean {
  // The deal slot shows only deal labels: any text in it is a deal badge, in whatever language.
  for (const block of shownBlocks(doc, 'dealBadge_feature_div')) if (shownText(block, false)) return true;
  for (const id of PRICE_BLOCK_IDS)
    for (const block of shownBlocks(doc, id)) {
      const deals = block.find(DEAL_MARKUP);
      for (let i = 0; i < deals.length; i++) if (!hiddenByAncestor(deals[i] as DomNode) && shownText(deals.eq(i), false)) return true;
    }
  return false;
}

function extractBadges(doc: Doc): DetailsBadge[] {
  const badges: DetailsBadge[] = [];
  if (badgeShown(doc, 'acBadge_feature_div', '[class*="ac-badge-rectangle"], [class*="ac-badge-wrapper"]', AMAZONS_CHOICE_RE))
    badges.push('amazons_choice');
  // The zeitgeist slot holds the best-seller badge ("#1 Best Seller in X", Amazon Charts "Most Sold").
  if (
    badgeShown(
      doc,
      'zeitgeistBadge_feature_div',
      '.badge-wrapper, [class*="zg-badge"], [class*="zg-bf-badge"], [class*="best-seller-badge"], a.badge-link',
      BEST_SELLER_RE,
    )
  )
    badges.push('best_seller');
  // Only the product's own (above-the-fold) slot: the BTF slot is a carousel of other products.
  if (badgeShown(doc, 'climatePledgeFriendlyATF_feature_div', '[class*="cpf"], [class*="CPF"]', CLIMATE_RE))
    badges.push('climate_pledge_friendly');
  if (hasDealBadge(doc)) badges.push('limited_time_deal');
  return badges;
}

// ---------------------------------------------------------------- coupon

/**
 * Coupon components of the price / buy box, newest first: the promotion block (2021+), the
 * 2018-2021 #unclippedCoupon / #vpcButton lines, then their #couponFeature wrapper (which also
 * holds the "clipped" twin, hidden by a stylesheet rule we cannot see).
 */
const COUPON_BLOCK_IDS = [
  'promoPriceBlockMessage_feature_div',
  'promoPriceBlockMessageInBuyBox_feature_div',
  'unclippedCoupon',
  'vpcButton',
  'vpcButtonSns',
  'couponFeature',
];
/** Markup that only coupons use (a clippable coupon's label, or the widget flagged as a coupon). */
const COUPON_MARKUP = '[data-csa-c-coupon="true"], .couponLabelText, [id^="couponText"], [id^="couponLabel"]';
/** One promotion of a block ("Buy 2, save 10%" and a coupon can sit side by side). */
const PROMO_ITEM = '[data-csa-c-coupon], [data-csa-c-item-id]';

function within(node: DomNode | undefined, root: DomNode): boolean {
  for (let n: DomNode | null | undefined = node; n; n = n.parent) if (n === root) return true;
  return false;
}

function couponIn(block: Sel): string | null {
  const marked = block.find(COUPON_MARKUP);
  for (let i = 0; i < marked.length; i++) {
    if (hiddenByAncestor(marked[i] as DomNode)) continue;
    // The coupon's promotion item; without item markup, the element around the coupon's label
    // (label, message and links), so that a promotion elsewhere in the block stays out.
    const item = marked.eq(i).closest(PROMO_ITEM);
    const parent = marked.eq(i).parent();
    const root = block[0] as DomNode;
    const scope = within(item[0] as DomNode | undefined, root) ? item : within(parent[0] as DomNode | undefined, root) ? parent : block;
    const text = normalizeCoupon(shownText(scope, true));
    if (text) return text;
  }
  // Layouts without coupon markup: the promotion that names a coupon is one.
  const items = block.find(PROMO_ITEM);
  const candidates = items.length ? items : block;
  for (let i = 0; i < candidates.length; i++) {
    const item = candidates.eq(i);
    if (item.attr('data-csa-c-coupon') === 'false' || hiddenByAncestor(candidates[i] as DomNode)) continue;
    const text = shownText(item, true);
    if (COUPON_WORD_RE.test(text)) return normalizeCoupon(text);
  }
  return null;
}

function extractCoupon(doc: Doc): string | null {
  for (const id of COUPON_BLOCK_IDS)
    for (const block of shownBlocks(doc, id)) {
      const coupon = couponIn(block);
      if (coupon) return coupon;
    }
  return null;
}

// ---------------------------------------------------------------- counts

function extractBoughtPastMonth(doc: Doc): number | null {
  const sources = [
    doc.byId('social-proofing-faceout-title-tk_bought'),
    doc.q('#socialProofingAsinFaceout_feature_div .social-proofing-faceout-title-text'),
  ];
  for (const sel of sources)
    for (let i = 0; i < sel.length; i++) {
      const n = parseBoughtPastMonth(textOf(sel.eq(i)));
      if (n !== null) return n;
    }
  return null;
}

// ---------------------------------------------------------------- all

/**
 * `seller` is the buy-box seller that details-info.ts read; `soldBy` repeats its name, and only
 * where that found none does the page's own wording (tabular row, e-book "Sold by:") fill it.
 * `asin` is the page's own ASIN (its format swatch's offer links count), `marketplace` its code.
 */
export function extractCommerce(
  doc: Doc,
  seller: { name: string } | null,
  page: { asin: string | null; marketplace: string } = { asin: null, marketplace: '' },
): DetailsCommerce {
  const parties = extractBuyBoxParties(doc);
  return {
    badges: extractBadges(doc),
    coupon: extractCoupon(doc),
    boughtPastMonth: extractBoughtPastMonth(doc),
    shipsFrom: parties.shipsFrom,
    soldBy: seller?.name ?? parties.soldBy,
    fulfilledByAmazon: fulfilledByAmazon(parties.shipsFrom),
    ...extractNewOffers(doc, page.asin, page.marketplace),
  };
}
