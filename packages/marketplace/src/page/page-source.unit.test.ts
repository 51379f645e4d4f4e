/**
 * The parsers read a page's UTF-8 bytes (page-source.ts); what they take out of it must be the
 * page's text. The tree's side is in page-tree.unit.test.ts; the scans of embedded JSON in
 * ../parsers/source-scans.unit.test.ts.
 */
import { PageSource, utf8 } from './page-source';

describe('PageSource', () => {
  it('holds a page given as text or as bytes as the same bytes, one per character', () => {
    const text = 'Größe 寸法 😀';
    const fromText = PageSource.of(text);
    expect(fromText.raw).toBe(Buffer.from(text).toString('latin1'));
    expect(PageSource.of(Buffer.from(text)).raw).toBe(fromText.raw);
    expect(fromText.length).toBe(Buffer.byteLength(text));
    expect(fromText.text()).toBe(text);
    expect(PageSource.of(fromText)).toBe(fromText);
  });

  it('decodes any slice that ends between characters, and leaves ASCII as it is', () => {
    const source = PageSource.of('ab – cd');
    expect(source.text(2, 7)).toBe(' – ');
    const ascii = 'plain <p>';
    expect(utf8(ascii)).toBe(ascii);
    expect(utf8(Buffer.from('€ 😀').toString('latin1'))).toBe('€ 😀');
  });
});
