/**
 * The parsers read a page's UTF-8 bytes (page-source.ts); what they take out of it must be the
 * page's text. The tree's side is in page-tree.test.ts; these are the scans of the raw source.
 */
import { PageSource, utf8 } from './page-source';
import { extractParentAsin } from './parent-asin';
import { Doc } from './dom';
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

  it('is looked for at each occurrence of its marker in the scripts until one is accepted', () => {
    const doc = new Doc(`<p>"x": {"ü": 0}</p><script>"x": ["ä"]</script><div><script>var a = {"x": {"ü": 1}}</script></div>`);
    expect(findJson(doc.scripts, '"x"', isRecord)).toEqual({ ü: 1 });
    expect(doc.scripts.indexOf('"x"')).toBe(doc.source.raw.indexOf('<script>') + '<script>'.length);
    expect(doc.scripts.includes('"ü": 0')).toBe(false);
  });

  it('is found in the scripts of a left-out region and of a page cut inside a script', () => {
    const doc = new Doc('<div id="skip"><script>var a = {"k": {"v": 1}}</script></div><script>var b = {"j": [1', {
      leaveOut: (_name, id) => id === 'skip',
    });
    expect(findJson(doc.scripts, '"k"', isRecord)).toEqual({ v: 1 });
    expect(doc.scripts.includes('"j": [1')).toBe(true);
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
