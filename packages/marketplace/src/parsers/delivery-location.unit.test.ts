import { REAL_PAGES_DIR } from '@crawl/testing';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PageSource } from '../page';
import { deliveryLocationOf, deliveryLocationOfLines } from './delivery-location';

/** A navigation bar as the marketplaces write it, with the deliver-to block's two lines. */
const nav = (line1: string, line2: string, quote = '"') =>
  `<html><body><div id="navbar"><a class="nav-a"><div id=${quote}glow-ingress-block${quote}>` +
  `<span class="nav-line-1" id="glow-ingress-line1">${line1}</span>` +
  `<span class="nav-line-2" id="glow-ingress-line2">${line2}</span></div></a></div><div id="dp">…</div></body></html>`;

describe('deliveryLocationOfLines', () => {
  it.each([
    ['Deliver to John', 'Milpitas 95035\u200c', 'US', { text: 'Milpitas 95035', postalCode: '95035' }],
    ['Delivering to Chicago 60601', 'Update location', 'US', { text: 'Chicago 60601', postalCode: '60601' }],
    ['Deliver to', 'Spain', 'US', { text: 'Spain', postalCode: null }],
    ['Entrega en Murcia 30001', 'Actualizar ubicación', 'ES', { text: 'Murcia 30001', postalCode: '30001' }],
    ['Liefern nach', 'Berlin 10115', 'DE', { text: 'Berlin 10115', postalCode: '10115' }],
    ['Livraison à Paris 75001', 'Mettre à jour l’emplacement', 'FR', { text: 'Paris 75001', postalCode: '75001' }],
    ['Deliver to Anna', 'Fulham W12', 'UK', { text: 'Fulham W12', postalCode: 'W12' }],
    ['お届け先', '東京都 100-0001', 'JP', { text: '東京都 100-0001', postalCode: '100-0001' }],
    ['Entregar em', 'São Paulo 01310-100', 'BR', { text: 'São Paulo 01310-100', postalCode: '01310-100' }],
    ['Bezorgen in', 'Amsterdam 1012 AB', 'NL', { text: 'Amsterdam 1012 AB', postalCode: '1012 AB' }],
    ['Liefern nach', 'Vereinigte Staate...', 'DE', { text: 'Vereinigte Staate...', postalCode: null }],
  ] as const)('%j / %j (%s)', (line1, line2, marketplace, expected) => {
    expect(deliveryLocationOfLines(line1, line2, marketplace)).toEqual(expected);
  });

  it('is null when no place is chosen', () => {
    expect(deliveryLocationOfLines('Hello', 'Select your address', 'US')).toBeNull();
    expect(deliveryLocationOfLines('Olá', 'Selecione o endereço', 'BR')).toBeNull();
    expect(deliveryLocationOfLines('Hallo', 'Adresse auswählen', 'DE')).toBeNull();
    expect(deliveryLocationOfLines('Deliver to', '', 'US')).toBeNull();
  });
});

describe('deliveryLocationOf a page', () => {
  it('reads the block from the source, entities decoded, either quote style', () => {
    expect(deliveryLocationOf(PageSource.of(nav('Deliver to Jo&amp;Al', 'New York 10001&#x200C;')), 'US')).toEqual({
      text: 'New York 10001',
      postalCode: '10001',
    });
    expect(deliveryLocationOf(PageSource.of(nav('Delivering to Aldie 20105', 'Update location', "'")), 'US')).toEqual({
      text: 'Aldie 20105',
      postalCode: '20105',
    });
  });

  it('reads lines with markup inside them', () => {
    const page = nav('<span class="a">Delivering to</span> <span>Lebanon 66952</span>', '<a href="#">Update location</a>');
    expect(deliveryLocationOf(PageSource.of(page), 'US')).toEqual({ text: 'Lebanon 66952', postalCode: '66952' });
  });

  it('is null for a page without the block', () => {
    expect(deliveryLocationOf(PageSource.of('<html><body><div id="dp">x</div></body></html>'), 'US')).toBeNull();
  });
});

// Accuracy on the real pages saved next to the checkout (skipped without them, docs/testing.md).
const saved = REAL_PAGES_DIR ? readdirSync(REAL_PAGES_DIR).filter((f) => f.endsWith('.html') && !f.startsWith('captcha')) : [];
(saved.length ? describe : describe.skip)('on the saved real pages', () => {
  it('names a place on every page whose block names one, and never keeps the block words', () => {
    let named = 0;
    for (const file of saved) {
      const marketplace = file.split('-')[1] as 'US';
      const location = deliveryLocationOf(PageSource.of(readFileSync(path.join(REAL_PAGES_DIR!, file))), marketplace);
      if (!location) continue;
      named++;
      expect([file, location.text]).not.toEqual([file, expect.stringMatching(/deliver|update location|liefern|entrega|select/i)]);
      expect(location.text.length).toBeGreaterThan(1);
    }
    expect(named).toBeGreaterThan(5);
  });
});
