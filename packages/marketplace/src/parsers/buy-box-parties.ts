/**
 * Who ships and who sells the buy-box offer of a details page. Three generations say it:
 * 2023+ offer-display features (#fulfillerInfoFeature / #merchantInfoFeature, label + value),
 * the 2021-2022 tabular buy box (rows named by their label attribute in the page language) and
 * the older #merchant-info sentence ("Ships from and sold by Amazon.com.", "Sold by X and
 * Fulfilled by Amazon.", "Verkauf und Versand durch Amazon.").
 */
import type { Doc, Sel } from '../page';
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

/** Labels of the shipper row ("Ships from", "Versand", "Expédié par", "Enviado por", "出荷元", ...). */
const SHIPS_FROM_LABEL_RE =
  /ships from|dispatched from|dispatches from|shipper|fulfilled by|versand|expédié|expedie|expéditeur|enviado|envío desde|envio desde|spedito|spedizione|verzonden|verzending|skickas|wysyłka|wysyłane|nadawca|gönderici|gönderen|出荷元|発送元|الشحن|يشحن|يُشحن|الشاحن/i;
/** Labels of the seller row ("Sold by", "Verkäufer", "Vendu par", "Vendido por", "販売元", ...). */
const SOLD_BY_LABEL_RE =
  /sold by|\bseller\b|vendido por|vendu par|verkäufer|verkauf|venduto da|verkoper|verkocht door|säljs av|säljare|sprzedawca|sprzedawane|satıcı|販売元|البائع/i;

export interface BuyBoxParties {
  shipsFrom: string | null;
  soldBy: string | null;
}

const none = (): BuyBoxParties => ({ shipsFrom: null, soldBy: null });

function assign(out: BuyBoxParties, label: string, value: string, fallback: keyof BuyBoxParties | null): void {
  if (!value) return;
  const ships = SHIPS_FROM_LABEL_RE.test(label);
  const sold = SOLD_BY_LABEL_RE.test(label);
  if (ships) out.shipsFrom ??= value;
  if (sold) out.soldBy ??= value;
  if (!ships && !sold && fallback) out[fallback] ??= value;
}

/** 2023+: one block per party; the block's id says which party when its label is unknown. */
function fromOfferDisplay(doc: Doc): BuyBoxParties {
  const out = none();
  const blocks: [string, keyof BuyBoxParties][] = [
    ['fulfillerInfoFeature_feature_div', 'shipsFrom'],
    ['merchantInfoFeature_feature_div', 'soldBy'],
  ];
  for (const [id, party] of blocks) {
    const block = firstInBuyBox(doc.byId(id));
    const value = block ? textOf(block.find('.offer-display-feature-text-message').first()) : '';
    if (block && value) assign(out, textOf(block.find('.offer-display-feature-label').first()), value, party);
  }
  return out;
}

function fromTabular(doc: Doc): BuyBoxParties {
  const out = none();
  const rows = doc.q('#tabular-buybox .tabular-buybox-text[tabular-attribute-name]');
  for (let i = 0; i < rows.length; i++) {
    const row = rows.eq(i);
    if (inBuyBox(row)) assign(out, row.attr('tabular-attribute-name') ?? '', textOf(row), null);
  }
  return out;
}

// A name runs to a full stop that ends the sentence (not the dots of "Amazon.com"), or a comma.
const NAME = '(.+?)(?=\\s*[.。](?:\\s|$)|\\s*[,;、]|$)';
/** One party ships and sells: "Ships from and sold by X.", "Expédié et vendu par X.", ... */
const JOINT_RE = new RegExp(
  `(?:ships from and sold by|dispatched from and sold by|sold and shipped by|sold and dispatched by|sold and fulfilled by|expédié et vendu par|vendu et expédié par|verkauf und versand durch|vendido y enviado por|enviado y vendido por|venduto e spedito da|spedito e venduto da|enviado de e vendido por|vendido e enviado por|enviado e vendido por|verkocht en verzonden door|verzonden en verkocht door|säljs och skickas av|skickas och säljs av|sprzedawane i wysyłane przez|wysyłane i sprzedawane przez)\\s+${NAME}`,
  'i',
);
/** The seller named first, the shipper second: "Sold by X and Fulfilled by Amazon.". */
const SPLIT_RE = new RegExp(
  `(?:sold by|vendu par|verkauf durch|vendido por|venduto da|verkocht door|säljs av|sprzedawane przez)\\s+(.+?)\\s+(?:and|et|und|y|e|en|och|i)\\s+(?:fulfilled|shipped|dispatched|expédié|versand|gestionado|enviado|spedito|gestito|verzonden|skickas|wysyłane)\\s+(?:by|par|durch|por|pela|pelo|da|door|av|przez)\\s+${NAME}`,
  'i',
);
/** The shipper named first: "Ships from X and sold by Y.". */
const SHIPS_THEN_SOLD_RE = new RegExp(`(?:ships from|dispatched from)\\s+(.+?)\\s+and sold by\\s+${NAME}`, 'i');
const SOLD_ONLY_RE = new RegExp(
  `(?:sold by|vendu par|verkauf durch|vendido por|venduto da|verkocht door|säljs av|sprzedawane przez)\\s*[:：]?\\s+${NAME}`,
  'i',
);
const JA_JOINT_RE = /この商品は、?\s*(.+?)\s*が販売、発送します/;
const JA_SPLIT_RE = /この商品は、?\s*(.+?)\s*が販売し、\s*(.+?)\s*が発送します/;
const TR_JOINT_RE = /^(.+?)\s+tarafından satılır ve gönderilir/i;

/** "Amazon.com in easy-to-open packaging" (Frustration-Free Packaging): the name is "Amazon.com". */
const AMAZON_PACKAGING_RE = /^(amazon\.[a-z.]*[a-z])\s+(?:in|en|em|dans|nella|in der|i|w)\s/i;

function partyName(raw: string | undefined): string | null {
  const name = clean(raw);
  return AMAZON_PACKAGING_RE.exec(name)?.[1] ?? (name || null);
}

/** Parties named by a #merchant-info sentence in any of the marketplaces' languages. */
export function partiesFromSentence(text: string): BuyBoxParties {
  const t = clean(text);
  const joint = JOINT_RE.exec(t) ?? JA_JOINT_RE.exec(t) ?? TR_JOINT_RE.exec(t);
  if (joint) return { shipsFrom: partyName(joint[1]), soldBy: partyName(joint[1]) };
  const split = SPLIT_RE.exec(t) ?? JA_SPLIT_RE.exec(t);
  if (split) return { shipsFrom: partyName(split[2]), soldBy: partyName(split[1]) };
  const shipsFirst = SHIPS_THEN_SOLD_RE.exec(t);
  if (shipsFirst) return { shipsFrom: partyName(shipsFirst[1]), soldBy: partyName(shipsFirst[2]) };
  const sold = SOLD_ONLY_RE.exec(t);
  return { shipsFrom: null, soldBy: partyName(sold?.[1]) };
}

function fromSentence(doc: Doc): BuyBoxParties {
  for (const id of [
    'merchant-info',
    'merchantInfoFeature_feature_div',
    'shipsFromSoldByInsideBuyBox_feature_div',
    'shipsFromSoldBy_feature_div',
  ]) {
    const block = firstInBuyBox(doc.byId(id));
    const text = block ? textOf(block) : '';
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
  return textOf(cell.find('.a-color-base').first()) || null;
}

/** The buy box's shipper and seller as the page shows them; null for a party it does not name. */
export function extractBuyBoxParties(doc: Doc): BuyBoxParties {
  const out = fromOfferDisplay(doc);
  if (!out.shipsFrom || !out.soldBy) {
    const tabular = fromTabular(doc);
    out.shipsFrom ??= tabular.shipsFrom;
    out.soldBy ??= tabular.soldBy;
  }
  if (!out.shipsFrom || !out.soldBy) {
    const sentence = fromSentence(doc);
    out.shipsFrom ??= sentence.shipsFrom;
    out.soldBy ??= sentence.soldBy;
  }
  out.soldBy ??= ebookSeller(doc);
  return out;
}

/** Amazon's own names as shippers: "Amazon", "Amazon.com", "Amazon.co.jp", "Amazon EU S.à r.l.", "أمازون". */
const AMAZON_RE = /^(?:amazon\b|أمازون)/i;

/**
 * `fulfilledByAmazon`: true when the named shipper is Amazon, false when the page names another
 * shipper, null when it names none (like `isPrime`, no information is not a no).
 */
export function fulfilledByAmazon(shipsFrom: string | null): boolean | null {
  return shipsFrom === null ? null : AMAZON_RE.test(shipsFrom);
}
