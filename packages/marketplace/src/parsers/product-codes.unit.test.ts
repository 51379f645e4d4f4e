/**
 * `gtin` of details pages: the GTIN / EAN / UPC rows of the product tables, in every marketplace
 * language of the label list, on markup in Amazon's layouts of the tables; and on the saved pages,
 * none of which has such a row (their tables were read by hand: ISBN rows only, on the books).
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseDetailsPage } from './details';
import { extractGtin, gtinOf } from './product-codes';
import { readProductRows } from './product-tables';
import { Doc } from '../page';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

/** The gtin of a page holding `body`. */
const gtinIn = (body: string): string | null => extractGtin(readProductRows(new Doc(`<html><body>${body}</body></html>`)));

/** One row of each layout of the product tables (product-tables.ts). */
const techSpecRow = (label: string, value: string) =>
  `<table id="productDetails_techSpec_section_1"><tr><th class="a-color-secondary a-size-base prodDetSectionEntry">${label}</th><td class="a-size-base prodDetAttrValue">${value}</td></tr></table>`;
const bulletRow = (label: string, value: string) =>
  `<div id="detailBullets_feature_div"><ul><li><span class="a-list-item"><span class="a-text-bold">${label} &rlm; : &lrm;</span> <span>${value}</span></span></li></ul></div>`;
const oldBulletRow = (label: string, value: string) => `<div id="detail_bullets_id"><ul><li><b>${label}:</b> ${value}</li></ul></div>`;

describe('gtin: the label in every marketplace language', () => {
  it.each([
    ['UPC', '012345678905', '012345678905'],
    ['EAN', '4006381333931', '4006381333931'],
    ['GTIN', '00012345678905', '00012345678905'],
    ['EAN-Code', '4006381333931', '4006381333931'],
    ['Code EAN', '3760123456789', '3760123456789'],
    ['Código de barras', '8435484012345', '8435484012345'],
    ['Código EAN', '5601234567890', '5601234567890'],
    ['Codice EAN', '8001234567890', '8001234567890'],
    ['EAN-code', '8712345678906', '8712345678906'],
    ['EAN-kod', '7312345678903', '7312345678903'],
    ['Kod EAN', '5901234123457', '5901234123457'],
    ['Barkod', '8690123456789', '8690123456789'],
    ['JANコード', '4901234567894', '4901234567894'],
    ['الرمز الشريطي', '6281234567890', '6281234567890'],
  ])('%s row: digits only', (label, value, expected) => {
    expect(gtinIn(techSpecRow(label, value))).toBe(expected);
  });

  it('in the 2020+ detail bullets (bidi marks around the colon) and the pre-2020 <b> bullets', () => {
    expect(gtinIn(bulletRow('EAN', '4006381333931'))).toBe('4006381333931');
    expect(gtinIn(oldBulletRow('UPC', '012345678905'))).toBe('012345678905');
  });

  it('rows of other codes are no GTIN: model, part number, ASIN, ISBN', () => {
    const body =
      techSpecRow('Item model number', '4006381333931') +
      techSpecRow('Codice produttore', '012345678905') +
      techSpecRow('ASIN', 'B0TEST1234') +
      techSpecRow('ISBN-13', '978-8408123456');
    expect(gtinIn(body)).toBeNull();
  });

  it('a GTIN row wins over an EAN row, an EAN row over a UPC row', () => {
    expect(gtinIn(techSpecRow('UPC', '012345678905') + techSpecRow('EAN', '4006381333931'))).toBe('4006381333931');
    expect(gtinIn(techSpecRow('EAN', '4006381333931') + techSpecRow('GTIN', '00012345678905'))).toBe('00012345678905');
  });
});

describe('gtinOf: the code of a row value', () => {
  it.each([
    ['4006381333931, 4006381333948', '4006381333931'],
    ['0 12345 67890 5', '012345678905'],
    ['012345-678905', '012345678905'],
    // the first code whose check digit holds wins over a mistyped one before it
    ['4006381333932 4006381333931', '4006381333931'],
    // a code of a GTIN length still counts when no check digit holds
    ['4006381333932', '4006381333932'],
    ['96385074', '96385074'],
  ])('%s -> %s', (value, expected) => {
    expect(gtinOf(value)).toBe(expected);
  });

  it.each(['Not applicable', '12345', '123456789012345678'])('no GTIN in %s', (value) => {
    expect(gtinOf(value)).toBeNull();
  });
});

describeOnRealPages('gtin on the saved product pages', () => {
  it('no saved page has a GTIN, EAN or UPC row: null on every one', () => {
    const files = realPageFiles((f) => f.startsWith('details-'));
    expect(files.length).toBe(16);
    const gtins = files.map((file) => {
      const mk = file.split('-')[1] as MarketplaceCode;
      return [file, parseDetailsPage(readRealPage(file), { marketplace: mk, origin: `https://${MARKETPLACES[mk].host}` })?.gtin];
    });
    expect(gtins).toEqual(files.map((file) => [file, null]));
  });
});
