/**
 * Descriptive parts of a detail page: brand, seller, breadcrumbs, best-sellers
 * rank, specification tables, feature bullets and description.
 */
import type { Doc, Sel } from '../page';
import { buyBoxSeller, firstInBuyBox, partyName, tabularSeller } from './buy-box-parties';
import { parseLocaleNumber } from './numbers';
import { clean, linesOf, textOf } from './text';

// ---------------------------------------------------------------- brand

/** "Visit the X Store" in the marketplaces' languages -> X. */
const STORE_PATTERNS: RegExp[] = [
  /^visit the (.+?) store$/i,
  /^visita la tienda de (.+)$/i,
  /^visite[rz]? la boutique (?:de |d['’])?(.+)$/i,
  /^besuchen sie den (.+?)[- ]store$/i,
  /^besuche den (.+?)[- ]store$/i,
  /^visita lo store di (.+)$/i,
  /^visite a loja (?:da |de |do )?(.+)$/i,
  /^conheça a loja (?:da |de |do )?(.+)$/i,
  /^(?:bezoek|ga naar) de (.+?)[- ]?(?:store|winkel)$/i,
  /^besök (.+?)[- ]?butiken$/i,
  /^odwiedź sklep (?:marki )?(.+)$/i,
  /^(.+?) mağazasını ziyaret edin$/i,
  /^(.+?)\s*(?:の)?ストアを表示$/,
  /^(.+?) store を表示$/i,
  /^تفضل بزيارة متجر (.+)$/,
  /^قم بزيارة متجر (.+)$/,
];

/** "Brand: X" bylines (2021+ apparel, BR "Marca: X"). */
const BRAND_LABEL_RE = /^(?:brand|marke|marca|marque|marchio|merk|marka|varumärke|ブランド|العلامة التجارية)\s*[:：]\s*(.+)$/i;

/** Specification keys that name the brand. */
const BRAND_KEY_RE =
  /^(?:brand|brand name|marke|markenname|marca|marque|marchio|merk|marka|varumärke|ブランド|ブランド名|العلامة التجارية)$/i;

function brandFromByline(doc: Doc): string | null {
  const byline = doc.q('#bylineInfo').first();
  if (byline.length === 0) return null;
  // Books, music and video: the byline lists contributors (author, artist), not a brand.
  if (byline.find('.author, .contribution').length > 0) return null;
  const text = textOf(byline);
  if (!text) return null;
  for (const re of STORE_PATTERNS) {
    const m = re.exec(text);
    if (m) return clean(m[1]);
  }
  const lab = BRAND_LABEL_RE.exec(text);
  if (lab) return clean(lab[1]);
  // Pre-2020 layouts: the byline is just the brand name linking to the brand page.
  return text.length <= 80 ? text : null;
}

export function extractBrand(doc: Doc, specs: Record<string, string>): string | null {
  const fromByline = brandFromByline(doc);
  if (fromByline) return fromByline;
  for (const [k, v] of Object.entries(specs)) if (BRAND_KEY_RE.test(k) && v) return v;
  const brandLink = clean(doc.q('#brand').first().text());
  return brandLink || null;
}

// ---------------------------------------------------------------- seller

function sellerIdFromHref(href: string | undefined): string | null {
  if (!href) return null;
  const m = /[?&](?:seller|merchantId|me)=([A-Z0-9]{8,20})/.exec(href);
  return m ? m[1]! : null;
}

/**
 * The buy box's seller: the seller link's text, else the tabular seller row (with the id its link
 * carries), else the seller the merchant-info sentence names (buy-box-parties.ts). Names are
 * read whole and stop before the seller's rating (docs/parsing.md).
 */
export function extractSeller(doc: Doc): { name: string; id: string | null } | null {
  const trigger = firstInBuyBox(doc.byId('sellerProfileTriggerId'));
  const name = trigger ? partyName(textOf(trigger)) : null;
  if (trigger && name) return { name, id: sellerIdFromHref(trigger.attr('href')) };
  const tabular = tabularSeller(doc);
  if (tabular) return { name: tabular.name, id: sellerIdFromHref(tabular.row.find('a').attr('href')) };
  const named = buyBoxSeller(doc);
  return named ? { name: named, id: null } : null;
}

// ---------------------------------------------------------------- categories

export function extractCategories(doc: Doc): string[] {
  const out: string[] = [];
  doc
    .q('#wayfinding-breadcrumbs_feature_div li:not(.a-breadcrumb-divider), #wayfinding-breadcrumbs_container li:not(.a-breadcrumb-divider)')
    .each((_, li) => {
      const a = doc.$(li).find('a').first();
      // "‹ Back to results" is a link back to the search, not a category.
      if (a.attr('id') === 'breadcrumb-back-link') return;
      const t = textOf(a.length ? a : doc.$(li));
      if (t && t !== '›' && t !== '‹') out.push(t);
    });
  return out;
}

// ---------------------------------------------------------------- best sellers rank

const RANK_LABEL_RE =
  /best ?sellers? rank|bestseller-rang|amazon bestseller|classement des meilleures ventes|clasificación en los más vendidos|ranking dos mais vendidos|classificação dos produtos mais vendidos|classificação nos mais vendidos|posizione nella classifica|bestsellerrang|bästsäljarrang|ranking bestsellerów|en çok satanlar sıralaması|売れ筋ランキング|تصنيف الأفضل مبيعاً|تصنيف الأكثر مبيع/i;

/** "#1,448 in Books", "Nº 10 em X", "nº2,417 en X", "n°9 dans X", "Nr. 12.345 in X", "98 em X". */
const RANK_LINE_RE = /^(?:#|n[º°o]\.?|nr\.?|no\.?|núm\.?|n\.)?\s*(\d[\d.,\s\u00a0]*)\s+(?:in|en|em|dans|in der|nel|su|w|i|op)\s+(.+)$/i;
/** Japanese: "- 1,234位家電＆カメラ" (2019+) or "本 - 12,345位" (older). */
const RANK_LINE_JA_RE = /^[-‐–]?\s*(\d[\d,]*)\s*位\s*(.+)$/;
const RANK_LINE_JA_OLD_RE = /^(.+?)\s*[-‐–]\s*(\d[\d,]*)\s*位/;

function parseRankLines(lines: string[]): { category: string; rank: number }[] {
  const out: { category: string; rank: number }[] = [];
  for (let line of lines) {
    // Drop the label ("Amazon Best Sellers Rank:", "Classement des meilleures ventes d'Amazon :").
    const label = RANK_LABEL_RE.exec(line);
    if (label) {
      const after = line.slice(label.index + label[0].length);
      const colon = after.search(/[:：]/);
      line = colon >= 0 && colon < 40 ? after.slice(colon + 1) : after;
    }
    // Drop "(See Top 100 in Books)" links but keep qualifiers such as "Political Fiction (Kindle Store)".
    line = line.replace(/\([^)]*(?:100|売れ筋)[^)]*\)/g, '').trim();
    if (!line) continue;
    let rank: number | null = null;
    let category = '';
    const m = RANK_LINE_RE.exec(line);
    if (m) {
      rank = parseLocaleNumber(m[1]!);
      category = m[2]!;
    } else {
      const j = RANK_LINE_JA_RE.exec(line);
      const k = j ? null : RANK_LINE_JA_OLD_RE.exec(line);
      if (j) {
        rank = parseLocaleNumber(j[1]!);
        category = j[2]!;
      } else if (k) {
        rank = parseLocaleNumber(k[2]!);
        category = k[1]!;
      }
    }
    category = clean(category.replace(/\s*>\s*/g, ' > '));
    if (rank !== null && category) out.push({ category, rank: Math.round(rank) });
  }
  return out;
}

function rankContainer(doc: Doc): Sel | null {
  const sales = doc.q('#SalesRank').first();
  if (sales.length) return sales;
  // 2020+ tables: the row whose header is the rank label.
  const ths = doc.q('#prodDetails th, [id^="productDetails"] th');
  for (let i = 0; i < ths.length; i++) {
    if (RANK_LABEL_RE.test(textOf(ths.eq(i)))) return ths.eq(i).next('td');
  }
  // Detail bullets: the bold label followed by the ranks and a nested list.
  const bolds = doc.q('#detailBulletsWrapper_feature_div .a-text-bold, #detailBullets_feature_div .a-text-bold, #detail-bullets b');
  for (let i = 0; i < bolds.length; i++) {
    if (RANK_LABEL_RE.test(textOf(bolds.eq(i)))) return bolds.eq(i).parent();
  }
  return null;
}

export function extractBestSellersRank(doc: Doc): { category: string; rank: number }[] {
  const el = rankContainer(doc);
  if (!el || el.length === 0) return [];
  // Ranks are separated by <li>/<br>/<span> blocks in every layout; split on block
  // boundaries and also on inline "#N in" restarts for layouts that use plain spans.
  const lines = linesOf(el).flatMap((l) => l.split(/(?=\s(?:#|n[º°]\s?)\d)/i));
  return parseRankLines(lines);
}

// ---------------------------------------------------------------- specifications

const SKIP_SPEC_KEY_RE =
  /customer reviews|average customer review|kundenrezensionen|kundenbewertung|valutazione media|gemiddelde beoordeling|avaliações|valoración media|commentaires client|recensioni|opiniones|カスタマーレビュー|feedback/i;

function addSpec(specs: Record<string, string>, key: string, value: string): void {
  const k = clean(key).replace(/\s*[:：]\s*$/, '');
  const v = clean(value);
  if (!k || !v || k.length > 80 || RANK_LABEL_RE.test(k) || SKIP_SPEC_KEY_RE.test(k)) return;
  if (!(k in specs)) specs[k] = v;
}

export function extractSpecifications(doc: Doc): Record<string, string> {
  const specs: Record<string, string> = {};
  // Tables: technical details, additional information, product overview (2019-2026).
  doc
    .q(
      '#productOverview_feature_div tr, #poExpander tr, #prodDetails tr, [id^="productDetails_"] tr, #technicalSpecifications_section_1 tr, #tech tr',
    )
    .each((_, tr) => {
      const row = doc.$(tr);
      const cells = row.children('th, td');
      // Rows wrapping nested tables are layout ("glance icons"), not key/value pairs.
      if (cells.length < 2 || row.find('table, .a-icon-star, #acrPopover, .zg_hrsr').length) return;
      // Truncated overview values keep the full text in .a-truncate-full (the cut copy repeats it).
      const full = cells.eq(1).find('.a-truncate-full').first();
      addSpec(specs, textOf(cells.eq(0)), textOf(full.length ? full : cells.eq(1)));
    });
  // Detail bullets: "Key ‏ : ‎ Value" (2020+) and "<b>Key:</b> Value" (2015-2019).
  doc
    .q('#detailBullets_feature_div li, #detailBulletsWrapper_feature_div > ul li, #detail-bullets .content li, #detail_bullets_id li')
    .each((_, li) => {
      const item = doc.$(li);
      // Rank and review bullets are parsed elsewhere; their nested lists hold more bold labels.
      if (item.find('.a-icon-star, #acrPopover, .zg_hrsr, ul').length || item.closest('#SalesRank, .zg_hrsr').length) return;
      const label = item.find('.a-text-bold, b').first();
      if (label.length === 0) return;
      const key = textOf(label);
      const full = textOf(item);
      const value = full.startsWith(key) ? full.slice(key.length) : full.replace(key, '');
      addSpec(specs, key.replace(/\s*[:：]\s*$/, ''), value.replace(/^\s*[:：]\s*/, ''));
    });
  return specs;
}

// ---------------------------------------------------------------- features & description

export function extractFeatures(doc: Doc): string[] {
  const out: string[] = [];
  doc.q('#feature-bullets li, #featurebullets_feature_div li').each((_, li) => {
    const item = doc.$(li);
    if (item.attr('id') === 'replacementPartsFitmentBullet' || item.hasClass('aok-hidden')) return;
    const t = textOf(item);
    if (t && !out.includes(t)) out.push(t);
  });
  return out;
}

export function extractDescription(doc: Doc): string | null {
  // Books: #bookDescription is the blurb, while #productDescription holds editorial
  // reviews ("Review ... About the Author"), so the book block goes first.
  const candidates = [
    '#bookDescription_feature_div .a-expander-content',
    '#bookDescription_feature_div noscript',
    '#bookDescription_feature_div',
    '#productDescription',
  ];
  for (const s of candidates) {
    const el = doc.q(s).first();
    if (el.length === 0) continue;
    const t = linesOf(el)
      .join('\n')
      // Some sellers' descriptions contain escaped markup that renders as literal "<br/>".
      .replace(/\s*<br\s*\/?>\s*/gi, '\n')
      .trim();
    if (t) return t;
  }
  return null;
}
