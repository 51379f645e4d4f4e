/**
 * Localized availability messages -> status. Order matters: negative phrases
 * ("No disponible", "Non disponibile", "nicht verfügbar") contain the positive
 * words, and "Temporarily out of stock" contains "stock".
 */
import type { AvailabilityStatus } from './types';

const PREORDER_RE = new RegExp(
  [
    'pre-?order', 'will be released on', 'this item will be released', 'vorbestell', 'erscheint am',
    'pr[ée]-?commande', 'disponible [àa] partir du', 'pre-?venta', 'reserva ya', 'pr[ée]-?venda', 'pr[ée]-?encomenda',
    'preordina', 'prenota(?:bile)?', 'uscita prevista', 'pre-?bestel', 'förbeställ', 'przedsprzedaż', 'zamówienie przedpremierowe',
    'ön sipariş', '予約', 'الطلب المسبق',
  ].join('|'),
  'i',
);

const OUT_OF_STOCK_RE = new RegExp(
  [
    'currently unavailable', 'temporarily unavailable', 'out of stock', 'unavailable', 'not available', 'no longer available',
    'nicht verfügbar', 'nicht auf lager', 'nicht vorrätig', 'nicht lieferbar', 'derzeit nicht',
    'actuellement indisponible', 'indisponible', 'rupture de stock', 'non disponible',
    'no disponible', 'sin stock', 'agotado', 'temporalmente sin',
    'não disponível', 'indisponível', 'fora de estoque', 'esgotado', 'sem estoque',
    'non disponibile', 'esaurito', 'non è disponibile',
    'niet beschikbaar', 'uitverkocht', 'niet op voorraad',
    'ej tillgänglig', 'tillfälligt slut', 'slut i lager', 'inte i lager',
    'niedostępn', 'brak w magazynie', 'wyprzedan',
    'stokta yok', 'mevcut değil', 'tükendi',
    '在庫切れ', '現在お取り扱いできません', '一時的に在庫切れ', '取り扱いできません',
    'غير متوفر', 'غير متاح', 'نفذت الكمية',
  ].join('|'),
  'i',
);

const IN_STOCK_RE = new RegExp(
  [
    'in stock', 'left in stock', 'usually ships', 'usually dispatched', 'ships within', 'dispatched within', 'available to ship',
    'available from these sellers', 'available', 'auf lager', 'vorrätig', 'versandfertig', 'lieferbar', 'verfügbar',
    'en stock', 'expédié sous', 'habituellement expédié', 'disponible', 'en existencia', 'se envía en', 'normalmente se envía',
    'em estoque', 'disponível', 'estimativa de envio', 'enviado em', 'em stock', 'disponibile', 'disponibilità immediata', 'generalmente spedito',
    'op voorraad', 'leverbaar', 'beschikbaar', 'i lager', 'finns i lager', 'w magazynie', 'dostępn', 'stokta',
    '在庫あり', '残り', '通常', '発送', 'متوفر', 'متاح',
  ].join('|'),
  'i',
);

export function classifyAvailability(text: string | null | undefined): AvailabilityStatus {
  if (!text) return 'unknown';
  const t = text.toLowerCase();
  if (PREORDER_RE.test(t)) return 'preorder';
  if (OUT_OF_STOCK_RE.test(t)) return 'out_of_stock';
  if (IN_STOCK_RE.test(t)) return 'in_stock';
  return 'unknown';
}
