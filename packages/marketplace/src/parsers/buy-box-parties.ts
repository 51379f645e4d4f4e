/**
 * Who ships and who sells the buy-box offer of a details page. Three generations say it:
 * 2023+ offer-display features (a label element, then its value: #fulfillerInfoFeature /
 * #merchantInfoFeature and their kin), the 2021-2022 tabular buy box (rows named by their label
 * in the page language) and the older #merchant-info sentence ("Ships from and sold by
 * Amazon.com.", "Sold by X and Fulfilled by Amazon.", "Verkauf und Versand durch Amazon.").
 * The rules are in docs/parsing.md ("Who ships and who sells").
 */
import type { Doc, DomNode, Sel } from '../page';
import { hasClass } from './node-walk';
import { clean, textOf } from './text';

/**
 * Pages with several buying options (new, used) repeat the buy-box blocks once per accordion row;
 * only the active row's copy is the buy box. Blocks outside any accordion are the buy box too.
 * (The same rule as the seller's in details-info.ts.)
 */
export function inBuyBox(el: Sel): boolean {
  const row = el.closest('[data-a-accordion-row-name]');
  return row.length === 0 || row.hasClass('a-accordion-active');
}

export function firstInBuyBox(sel: Sel): Sel | null {
  for (let i = 0; i < sel.length; i++) if (inBuyBox(sel.eq(i))) return sel.eq(i);
  return null;
}

// ---------------------------------------------------------------- labels

/**
 * Labels of the shipper row in every marketplace language ("Ships from", "Versand", "Expéditeur",
 * "Enviado desde", "Spedizione", "Verzending", "Skickas från", "Wysyłka", "Gönderici", "出荷元",
 * "الشحن من"). A label naming both parties ("Vendu et expédié par") matches both tests.
 */
const SHIPS_FROM_LABEL_RE =
  /ships? from|\bships\b|shipped|dispatch|shipper|fulfil|versand|versender|verschickt|expédi|expedi|envia|enviado|envío|envio|remitente|entregue|sped|verzend|verzonden|skickas|fraktas|avsändare|wysył|nadawca|gönder|kargo|出荷元|発送元|الشحن|يشحن|يُشحن|الشاحن|شحن/i;
/**
 * Labels of the seller row ("Sold by", "Verkäufer", "Verkauft von", "Vendu par", "Vendeur",
 * "Vendido por", "Venduto da", "Venditore", "Verkocht door", "Verkoper", "Säljs av", "Sprzedawca",
 * "Satıcı", "販売元", "البائع").
 */
const SOLD_BY_LABEL_RE =
  /\bsold\b|\bseller\b|merchant|vendid|vendu|vendeur|venditore|verkäufer|verkauf|verkoper|verkocht|säljs|säljare|sprzeda|satıcı|satan|販売元|البائع|يباع|يُباع|تباع|تُباع/i;

/** The parties a buy-box label names. */
export function labelParties(label: string): { ships: boolean; sold: boolean } {
  return { ships: SHIPS_FROM_LABEL_RE.test(label), sold: SOLD_BY_LABEL_RE.test(label) };
}

// ---------------------------------------------------------------- names

/**
 * The seller's rating after its name: "(4.5 out of 5 stars)", "(4,6 von 5 Sternen | 1.234
 * Bewertungen)", "(4" cut where the page split it across nodes, "4.5 out of 5", "5つ星のうち4.5".
 * A parenthesis whose number is not a rating ("(2 Pack)", "(2019) Ltd") stays.
 */
const RATING_TAILS: RegExp[] = [
  /\s*[(（[]\s*[0-5](?:[.,]\d+)?(?=\s*(?:$|[)）\]|/%★☆.,]|out\b|von\b|de\b|sur\b|su\b|van\b|av\b|z\b|na\b|stars?\b|étoiles?|stern|estrel|stell|ster|stjärn|gwiazd|yıldız|نجوم|つ星)).*$/iu,
  /\s+[0-5](?:[.,]\d+)?\s+(?:out of|von|de|sur|su|van|av|z|na)\s+5\b.*$/i,
  /\s*[(（]?\s*5\s*つ星のうち.*$/,
  /\s*[(（[|]\s*$/,
];

/** "Amazon.com in easy-to-open packaging" (Frustration-Free Packaging): the name is "Amazon.com". */
const AMAZON_PACKAGING_RE = /^(amazon\.[a-z.]*[a-z])\s+(?:in|en|em|dans|nella|in der|i|w)\s/i;

/**
 * A party's name as the page shows it, whole ("Amazon.com.br" stays so): invisible marks and a
 * trailing rating or separator cut, nothing normalised.
 */
export function partyName(raw: string | null | undefined): string | null {
  let name = clean(raw);
  for (const re of RATING_TAILS) name = name.replace(re, '');
  name = name
    .replace(/\s+[.,;:]$/, '')
    .replace(/,$/, '')
    .trim();
  return AMAZON_PACKAGING_RE.exec(name)?.[1] ?? (name || null);
}

/** Ratings, stars and popovers inside a party's value are not its name. */
function skippedInValue(node: DomNode): boolean {
  if (node.name === 'script' || node.name === 'style' || node.name === 'template') return true;
  const cls = node.attribs?.class ?? '';
  return /rating|a-icon-star|a-popover-preload|aok-hidden|a-icon-popover/.test(cls);
}

/** A value element's text: text nodes joined by a space (a name split across nodes stays apart from its neighbours). */
function valueText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode): void => {
    if (node.type === 'text') out.push(node.data ?? '');
    else if (node.type === 'tag' && !skippedInValue(node)) for (const child of node.children ?? []) walk(child);
  };
  walk(root);
  return clean(out.join(' '));
}

export interface BuyBoxParties {
  shipsFrom: string | null;
  soldBy: string | null;
}

const none = (): BuyBoxParties => ({ shipsFrom: null, soldBy: null });

function assign(out: BuyBoxParties, label: string, rawValue: string, fallback: keyof BuyBoxParties | null): void {
  const value = partyName(rawValue);
  if (!value) return;
  const { ships, sold } = labelParties(label);
  if (ships) out.shipsFrom ??= value;
  if (sold) out.soldBy ??= value;
  if (!ships && !sold && fallback) out[fallback] ??= value;
}

function merge(out: BuyBoxParties, more: BuyBoxParties): void {
  out.shipsFrom ??= more.shipsFrom;
  out.soldBy ??= more.soldBy;
}

const complete = (p: BuyBoxParties): boolean => p.shipsFrom !== null && p.soldBy !== null;

// ---------------------------------------------------------------- 2023+ offer display

/** The party a feature is about by its name ("desktop-fulfiller-info", "desktop-merchant-info-collapsed"). */
function featureParty(name: string): keyof BuyBoxParties | null {
  if (/fulfiller|shipper|ships/i.test(name)) return 'shipsFrom';
  if (/merchant|seller/i.test(name)) return 'soldBy';
  return null;
}

/** The text element that follows a label element: its next sibling with the text class. */
function textAfter(label: DomNode): DomNode | null {
  const siblings = label.parent?.children ?? [];
  for (let i = siblings.indexOf(label) + 1; i < siblings.length; i++) {
    const node = siblings[i]!;
    if (node.type !== 'tag') continue;
    if (hasClass(node, 'offer-display-feature-label')) return null;
    if (hasClass(node, 'offer-display-feature-text')) return node;
  }
  return null;
}

/**
 * Every offer-display label of the buy box with the value after it. The label's words say which
 * party; a label in words we do not know falls back on its feature's name, then on its block's id
 * (the import offers' features keep the same names under other blocks).
 */
function fromOfferDisplay(doc: Doc): BuyBoxParties {
  const out = none();
  const labels = doc.q('.offer-display-feature-label');
  for (let i = 0; i < labels.length && !complete(out); i++) {
    const label = labels.eq(i);
    if (!inBuyBox(label)) continue;
    const node = label[0] as DomNode;
    const text = textAfter(node);
    if (!text) continue;
    const block = label.closest('[id$="InfoFeature_feature_div"]').attr('id') ?? '';
    const fallback = featureParty(node.attribs?.['offer-display-feature-name'] ?? '') ?? featureParty(block);
    assign(out, textOf(label), valueText(text), fallback);
  }
  // A block shown without its label ("Sold by" left out of the markup): the block's id names the party.
  for (const [id, party] of FEATURE_BLOCKS) {
    const block = out[party] === null ? firstInBuyBox(doc.byId(id)) : null;
    const value = block?.find('.offer-display-feature-text').last();
    if (value?.length) assign(out, '', valueText(value[0] as DomNode), party);
  }
  return out;
}

const FEATURE_BLOCKS: [string, keyof BuyBoxParties][] = [
  ['fulfillerInfoFeature_feature_div', 'shipsFrom'],
  ['merchantInfoFeature_feature_div', 'soldBy'],
];

// ---------------------------------------------------------------- 2021-2022 tabular buy box

/** A tabular row's label: its attribute, else the label element before it (or in its table row). */
function tabularLabel(row: Sel): string {
  const named = row.attr('tabular-attribute-name');
  if (named) return named;
  const before = row.prev('.tabular-buybox-label');
  if (before.length) return textOf(before);
  return textOf(row.closest('tr').find('.tabular-buybox-label').first());
}

/** The tabular buy box's rows of the buy box (the value's inner element repeats the class; the outer one is the row). */
function tabularRows(doc: Doc): Sel[] {
  const rows = doc.q('.tabular-buybox-text');
  const out: Sel[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows.eq(i);
    if (row.parent().closest('.tabular-buybox-text').length === 0 && inBuyBox(row)) out.push(row);
  }
  return out;
}

function fromTabular(doc: Doc): BuyBoxParties {
  const out = none();
  for (const row of tabularRows(doc)) assign(out, tabularLabel(row), valueText(row[0] as DomNode), null);
  return out;
}

/** The tabular buy box's seller row with its name (its link carries the seller's id). */
export function tabularSeller(doc: Doc): { name: string; row: Sel } | null {
  for (const row of tabularRows(doc)) {
    const name = labelParties(tabularLabel(row)).sold ? partyName(valueText(row[0] as DomNode)) : null;
    if (name) return { name, row };
  }
  return null;
}

// ---------------------------------------------------------------- sentences

// A name runs to a full stop that ends the sentence (not the dots of "Amazon.com.br"), or a comma.
const NAME = '(.+?)(?=\\s*[.。](?:\\s|$)|\\s*[,;、]|$)';
const SEP = '\\s*[:：]?\\s*';
/** One party ships and sells: "Ships from and sold by X.", "Expédié et vendu par X.", ... */
const JOINT = [
  'ships from and sold by',
  'dispatched from and sold by',
  'sold and shipped by',
  'sold and dispatched by',
  'sold and fulfilled by',
  'shipped and sold by',
  'expédié et vendu par',
  'expédiés et vendus par',
  'vendu et expédié par',
  'vendus et expédiés par',
  'verkauf und versand durch',
  'versand und verkauf durch',
  'verkauft und versendet von',
  'verkauft und versandt von',
  'vendido y enviado por',
  'vendido y enviado desde',
  'enviado y vendido por',
  'enviado desde y vendido por',
  'enviado de e vendido por',
  'enviado e vendido por',
  'vendido e enviado por',
  'vendido e entregue por',
  'venduto e spedito da',
  'spedito e venduto da',
  'verkocht en verzonden door',
  'verzonden en verkocht door',
  'säljs och skickas av',
  'skickas och säljs av',
  'sprzedawane i wysyłane przez',
  'wysyłane i sprzedawane przez',
  'sprzedaż i wysyłka przez',
];
const SOLD = [
  'sold by',
  'vendu par',
  'verkauf durch',
  'verkauft von',
  'verkauft durch',
  'vendido por',
  'venduto da',
  'verkocht door',
  'säljs av',
  'sprzedawane przez',
  'sprzedawany przez',
  'sprzedaż przez',
  'sprzedawca',
  'satıcı',
  'البائع',
  'يباع من قبل',
  'يُباع من قبل',
];
const SHIPPED = [
  'ships from',
  'dispatched from',
  'fulfilled by',
  'shipped by',
  'dispatched by',
  'expédié par',
  'expédié depuis',
  'expédié à partir de',
  'versand durch',
  'versandt von',
  'versendet von',
  'versand von',
  'enviado desde',
  'enviado por',
  'enviado pela',
  'enviado pelo',
  'enviado de',
  'entregue por',
  'entregue pela',
  'gestionado por',
  'spedito da',
  'gestito da',
  'verzonden door',
  'verzonden vanuit',
  'skickas från',
  'skickas av',
  'wysyłane przez',
  'wysyłka z',
  'gönderici',
];
const alt = (phrases: readonly string[]) => `(?:${[...phrases].sort((a, b) => b.length - a.length).join('|')})`;
/** What joins the two parties: a comma or a space, then maybe "and" in the page's language. */
const AND = '(?:\\s*,\\s*|\\s+)(?:(?:and|et|und|y|e|en|och|i|ve)\\s+)?';

const JOINT_RE = new RegExp(`${alt(JOINT)}${SEP}${NAME}`, 'i');
/** The seller named first, the shipper second: "Sold by X and Fulfilled by Amazon.". */
const SOLD_THEN_SHIPPED_RE = new RegExp(`${alt(SOLD)}${SEP}(.+?)${AND}${alt(SHIPPED)}${SEP}${NAME}`, 'i');
/** The shipper named first: "Ships from X and sold by Y.", "Versand durch Amazon, Verkauf durch X.". */
const SHIPPED_THEN_SOLD_RE = new RegExp(`${alt(SHIPPED)}${SEP}(.+?)${AND}${alt(SOLD)}${SEP}${NAME}`, 'i');
const SOLD_ONLY_RE = new RegExp(`${alt(SOLD)}${SEP}${NAME}`, 'i');
const SHIPPED_ONLY_RE = new RegExp(`${alt(SHIPPED)}${SEP}${NAME}`, 'i');
const JA_JOINT_RE = /この商品は、?\s*(.+?)\s*が販売、発送します/;
const JA_SPLIT_RE = /この商品は、?\s*(.+?)\s*が販売し、\s*(.+?)\s*が発送します/;
const TR_JOINT_RE = /^(.+?)\s+tarafından satılır ve gönderilir/i;
const AR_JOINT_RE =
  /(?:يتم الشحن والبيع|يُشحن ويُباع|يشحن ويباع|تُشحن وتُباع|تشحن وتباع)\s+(?:من قبل|من|بواسطة)\s+(.+?)(?=\s*[.。](?:\s|$)|\s*[,،]|$)/;

/** Parties named by a #merchant-info sentence in any of the marketplaces' languages. */
export function partiesFromSentence(text: string): BuyBoxParties {
  const t = clean(text);
  const joint = JOINT_RE.exec(t) ?? JA_JOINT_RE.exec(t) ?? TR_JOINT_RE.exec(t) ?? AR_JOINT_RE.exec(t);
  if (joint) return { shipsFrom: partyName(joint[1]), soldBy: partyName(joint[1]) };
  const sold = SOLD_THEN_SHIPPED_RE.exec(t);
  const shipped = SHIPPED_THEN_SOLD_RE.exec(t);
  // Whichever party the sentence names first decides the reading.
  if (sold && (!shipped || sold.index <= shipped.index)) return { shipsFrom: partyName(sold[2]), soldBy: partyName(sold[1]) };
  if (shipped) return { shipsFrom: partyName(shipped[1]), soldBy: partyName(shipped[2]) };
  const ja = JA_SPLIT_RE.exec(t);
  if (ja) return { shipsFrom: partyName(ja[2]), soldBy: partyName(ja[1]) };
  return { shipsFrom: partyName(SHIPPED_ONLY_RE.exec(t)?.[1]), soldBy: partyName(SOLD_ONLY_RE.exec(t)?.[1]) };
}

const SENTENCE_BLOCKS = [
  'merchant-info',
  'merchantInfoFeature_feature_div',
  'shipsFromSoldByInsideBuyBox_feature_div',
  'shipsFromSoldBy_feature_div',
];

function fromSentence(doc: Doc): BuyBoxParties {
  for (const id of SENTENCE_BLOCKS) {
    const block = firstInBuyBox(doc.byId(id));
    const text = block ? valueText(block[0] as DomNode) : '';
    if (text) {
      const parties = partiesFromSentence(text);
      if (parties.shipsFrom || parties.soldBy) return parties;
    }
  }
  return none();
}

/** E-books: the publisher that sells the Kindle edition ("Sold by: Hachette Book Group"). */
function ebookSeller(doc: Doc): string | null {
  const row = doc.byId('Ebooks-desktop-printSoldBy').first();
  if (row.length === 0) return null;
  const cell = row.children('td').eq(1);
  return partyName(textOf(cell.find('.a-color-base').first()));
}

/**
 * The buy box's seller as the sentence names it: the seller's fallback after its link and its
 * tabular row (details-info.ts). An offer-display name without a link names no seller, only
 * `soldBy` (nor does the e-book publisher).
 */
export function buyBoxSeller(doc: Doc): string | null {
  return fromSentence(doc).soldBy;
}

/** The buy box's shipper and seller as the page shows them; null for a party it does not name. */
export function extractBuyBoxParties(doc: Doc): BuyBoxParties {
  const out = fromOfferDisplay(doc);
  if (!complete(out)) merge(out, fromTabular(doc));
  if (!complete(out)) merge(out, fromSentence(doc));
  out.soldBy ??= ebookSeller(doc);
  return out;
}

/**
 * Amazon's own names as shippers: "Amazon", "Amazon.com", "Amazon.co.jp", "Amazon EU S.à r.l.",
 * "Amazon Estados Unidos" (import offers), "AmazonGlobal", "أمازون".
 */
const AMAZON_RE = /^(?:amazon(?:\b|global)|أمازون)/i;

/**
 * `fulfilledByAmazon`: true when the named shipper is Amazon, false when the page names another
 * shipper, null when it names none (like `isPrime`, no information is not a no).
 */
export function fulfilledByAmazon(shipsFrom: string | null): boolean | null {
  return shipsFrom === null ? null : AMAZON_RE.test(shipsFrom);
}
