/**
 * The parsers read a page's UTF-8 bytes (page-source.ts); what they take out of it must be the
 * page's text. The tree's side is in page-tree.test.ts; these are the scans of the raw source.
 */
import { PageSource, utf8 } from './page-source';
import { extractParentAsin } from './parent-asin';
import { findJson, isRecord, jsonAfter } from './text';

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

describe('embedded JSON in the source', () => {
  it('is parsed from its bytes into the page’s text', () => {
    const source = PageSource.of(`var data = {"dimensionValuesDisplayData":{"B0":["Größe L","黒"]}};`);
    expect(jsonAfter(source, '"dimensionValuesDisplayData"')?.value).toEqual({ B0: ['Größe L', '黒'] });
  });

  it('may follow its marker after spaces outside ASCII, but after no other character', () => {
    expect(jsonAfter(PageSource.of('"k":\u00a0\u3000{"a":1}'), '"k"')?.value).toEqual({ a: 1 });
    expect(jsonAfter(PageSource.of('"k": é {"a":1}'), '"k"')).toBeUndefined();
  });

  it('is looked for at each occurrence of its marker until one is accepted', () => {
    const source = PageSource.of(`"x": ["ä"], "x": {"ü": 1}`);
    expect(findJson(source, '"x"', isRecord)).toEqual({ ü: 1 });
  });
});

describe('the parent ASIN', () => {
  it('is read among text beyond ASCII, and a key that only ends in the word is another key', () => {
    const data = (key: string) => `<div data-a="{&quot;title&quot;:&quot;Größe – 黒&quot;,&quot;${key}&quot;:&quot;B000000001&quot;}">`;
    expect(extractParentAsin(PageSource.of(data('parentAsin')), 'B000000002')).toBe('B000000001');
    expect(extractParentAsin(PageSource.of(data('éparentAsin')), null)).toBeNull();
    expect(extractParentAsin(PageSource.of(data('größeParentAsin')), null)).toBeNull();
  });
});
