/**
 * Where a page says it delivers to: the place the navigation's deliver-to block names
 * (docs/crawling.md, "Delivery location"), so that every item says where its price was seen.
 *
 * The block has two lines. Older layouts greet or name the shopper in line 1 ("Deliver to John",
 * "Hello") and name the place in line 2 ("Milpitas 95035", "Spain"); 2025 layouts name it in
 * line 1 ("Delivering to Chicago 60601") above a link ("Update location"). The place is what is
 * left of line 2 without its words, or else of line 1; none when neither names one ("Select your
 * address"). The navigation is a region the product and search trees leave out, so the block is
 * read from its own slice of the source.
 */
import { type MarketplaceCode, postalCodeIn } from '@crawl/core';
import { Doc, PageSource } from '../page';
import { clean, textOf } from './text';

export interface DeliveryLocation {
  /** The place as the page names it, without the block's words. */
  text: string;
  /** The postal code in it, whole or as much as the page shows; null when it names none. */
  postalCode: string | null;
}

/** The block's own words in the marketplaces' languages: labels, greetings and the update link. */
const BLOCK_WORDS = [
  // English
  'delivering to',
  'deliver to',
  'update location',
  'hello',
  // German, Dutch, Swedish, Polish, Turkish
  'liefern nach',
  'liefern an',
  'lieferung an',
  'lieferung nach',
  'standort aktualisieren',
  'hallo',
  'bezorgen in',
  'bezorgen naar',
  'bezorgen aan',
  'locatie bijwerken',
  'leverera till',
  'leverans till',
  'uppdatera plats',
  'hej',
  'dostawa do',
  'dostarczanie do',
  'zaktualizuj lokalizację',
  'witaj',
  'teslimat adresi',
  'şuraya teslim et',
  'konumu güncelle',
  'merhaba',
  // French, Italian, Spanish, Portuguese
  'livraison à',
  'livrer à',
  'mettre à jour l’emplacement',
  "mettre à jour l'emplacement",
  'bonjour',
  'consegna a',
  'consegna in',
  'aggiorna posizione',
  'ciao',
  'entrega en',
  'entregar en',
  'enviar a',
  'actualizar ubicación',
  'hola',
  'entregar em',
  'entrega em',
  'enviar para',
  'atualizar local',
  'atualizar localização',
  'olá',
  // Japanese, Arabic
  'お届け先',
  '配送先',
  '住所を更新',
  'こんにちは',
  'التوصيل إلى',
  'توصيل إلى',
  'تحديث الموقع',
  'مرحبًا',
  'مرحبا',
];

/** Lines that say no place is chosen yet. */
const NO_PLACE = new RegExp(
  [
    'select your address',
    'choose your address',
    'adresse auswählen',
    'wähle deine adresse',
    'wählen sie ihre adresse',
    'sélectionnez votre adresse',
    'choisissez votre adresse',
    'seleziona il tuo indirizzo',
    'scegli il tuo indirizzo',
    'selecciona tu dirección',
    'elige tu dirección',
    'selecione o endereço',
    'selecione seu endereço',
    'informe seu cep',
    'selecteer je adres',
    'välj din adress',
    'wybierz adres',
    'adresinizi seçin',
    '住所を選択',
    'حدد عنوانك',
    'اختر عنوانك',
  ].join('|'),
  'i',
);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORDS_RE = new RegExp(
  `(?:${[...BLOCK_WORDS]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})[,:]?`,
  'giu',
);

/** A line without the block's words and punctuation around them. */
function placeIn(line: string): string {
  return clean(line)
    .replace(WORDS_RE, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,:\-–]+|[\s,:\-–]+$/g, '');
}

/** The place two deliver-to lines name, or null ("Hello" / "Select your address"). */
export function deliveryLocationOfLines(line1: string, line2: string, marketplace: MarketplaceCode): DeliveryLocation | null {
  if (NO_PLACE.test(line1) || NO_PLACE.test(line2)) return null;
  const text = placeIn(line2) || placeIn(line1);
  if (!text) return null;
  return { text, postalCode: postalCodeIn(marketplace, text) };
}

/** How far past the block's start its two lines end, in every layout seen (generous). */
const BLOCK_WINDOW = 3_000;

/** The deliver-to place of a page, read from the slice of its source that holds the block. */
export function deliveryLocationOf(page: PageSource, marketplace: MarketplaceCode): DeliveryLocation | null {
  const at = page.raw.search(/id\s*=\s*["']glow-ingress-block["']/);
  if (at < 0) return null;
  const start = page.raw.lastIndexOf('<', at);
  const block = new Doc(PageSource.of(page.text(start, Math.min(page.length, at + BLOCK_WINDOW))));
  const line1 = textOf(block.$('#glow-ingress-line1'));
  const line2 = textOf(block.$('#glow-ingress-line2'));
  if (!line1 && !line2) return null;
  return deliveryLocationOfLines(line1, line2, marketplace);
}
