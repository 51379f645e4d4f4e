/**
 * The scans of a page's raw source (its UTF-8 bytes, ../page/page-source.ts): what they take out
 * of it must be the page's text. The tree's side is in ../page/page-tree.unit.test.ts.
 */
import { Doc, PageSource } from '../page';
import { extractParentAsin } from './parent-asin';
import { findJson, isRecord, jsonAfter } from './text';

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
