/**
 * The page-tree builder must build exactly htmlparser2's tree (the parsers' selectors were written
 * against it): compared node by node on our own pages in Amazon's markup, on the real pages saved
 * next to the checkout when they are there, on markup written to hit each rule, and on generated
 * markup (generated-markup.unit.test.ts).
 */
import * as fs from 'fs';
import { parseDocument } from 'htmlparser2';
import { attributeOf, buildPageTree, classOf } from './page-tree';
import { comparisonPages } from './test-support/comparison-pages';
import { difference, reference } from './test-support/tree-difference';

it.each(comparisonPages(() => true).map((page) => [page.name, page.file]))('builds htmlparser2’s tree of %s', (_name, file) => {
  const html = fs.readFileSync(file, 'utf8');
  expect(difference(reference(html), buildPageTree(html).root)).toBeNull();
});

it.each([
  ['implied closes', '<p>one<div>two</div><li>a<li>b</ul><table><tr><td>1<td>2<tr><td>3</table><dl><dt>x<dd>y</dl>'],
  ['stray end tags', '<div></p></br><span>x</div></span></em>text</>'],
  ['void elements', '<img src=a.jpg><br/><input value="v" disabled><hr>after'],
  ['self-closing only in svg', '<div/>inside<svg><path d="M0"/><g/></svg><span/>still inside'],
  [
    'raw text bodies',
    '<script>if (a < b && c) document.write("</div>")</script><style>p>b{}</style><title>A &amp; B</title><textarea>&lt;x&gt;</textarea>',
  ],
  ['script ends only at its own tag', '<script>var s = "</scripts>"; var t = "</SCRIPT >";</SCRIPT ><b>x</b>'],
  ['attributes', `<a HREF='/x?a=1&amp;b=2' data-x = "y" data-x="dup" empty= flag q=unquoted&lt; =odd title="a > b">t</a>`],
  ['entities in text', 'a &lt; b &amp;amp; &copy 2026 &#x41;&#66; &unknown; &amp'],
  [
    'common references only (decoded by replace) and mixed with others',
    `<p data-j="{&quot;a&quot;:&quot;&amp;quot;&#39;&lt;&gt;&nbsp;&quot;}" data-k="&quot;&copy=&amp;x">&amp;lt; &nbsp;&quot;x&#39;</p>`,
  ],
  ['comments and declarations', '<!DOCTYPE html><!-- c --><!----><!---><!--->x--><![CDATA[ d ]]><?xml version="1.0"?><!bogus><b>z</b>'],
  ['a "<" that opens nothing', '<p>1 < 2 and 3 <= 4 <3 </3 ok></p>'],
  ['an unterminated tag at the end', '<div>text<span class="x'],
  // htmlparser2's tokenizer tells raw-text elements by a few of their letters, not by name.
  ['raw-text look-alikes', '<tmp><b>x</b></xmp>y<xitle>a &amp; <i>b</i></title>c<XEXTAREA>&lt;</textarea><scripts><b>d</b></scripts>'],
  ['a title’s "&" right after part of its closing tag', '<title>a<&amp; </&amp; </titl&amp; </title&amp; &amp;</title>'],
  [
    // The builder reads the page's UTF-8 bytes: every name, text and value is decoded on its way out.
    'characters beyond ASCII everywhere',
    `<DİV Data-Ü="Größe &amp; 寸法" class="prix€ 価格" id="ünïque"><p>Prix : 12,99\u00a0€ — 日本語 😀</p><title>Ä &amp; Ö</title>` +
      `<script>var s = "Ünïcödé </p>";</script><!-- kommentar ü --><?xml ä?><!Ä bogus></3 ö><Ünknown>text</ÜNKNOWN></dİv>`,
  ],
  // Tag names are looked up by a hash of their characters: these two share one ("a~" and "b_").
  ['tag names with the same hash', '<a~><b_>x</a~>y</b_><b_><a~>z</b_>'],
  [
    'long custom tag names',
    `<amzn-custom-widget>a<${'x-'.repeat(40)}long>b</${'x-'.repeat(40)}long>c</amzn-custom-widget><amzn-custom-widget>d`,
  ],
  [
    'more tag names than the builder remembers',
    Array.from({ length: 700 }, (_, n) => `<t${n}><div>${n}</div></t${n}>`).join('') + '<t1>kept<t699>open',
  ],
])('builds htmlparser2’s tree of %s', (_name, html) => {
  expect(difference(reference(html), buildPageTree(html).root)).toBeNull();
});

it('builds htmlparser2’s tree of a page cut at any point', () => {
  // A page that ends inside a construct ends as htmlparser2's tokenizer leaves it: some are
  // dropped, some kept as text or a comment, and some tags are acted on before they end.
  const html =
    `<!DOCTYPE html><p class="a" id=b data-x='y' disabled/>t &amp; u<!-- c --><![CDATA[ d ]]><!x y><?p q?>` +
    `<script>s = "</p>";</script ><title>a<&amp;</title><tmp>x</xmp></br ><div/><svg><path/></svg></3 z><s><b>é😀</b>`;
  const chars = Array.from(html);
  for (let n = 0; n <= chars.length; n++) {
    const cut = chars.slice(0, n).join('');
    expect([cut, difference(reference(cut), buildPageTree(cut).root)]).toEqual([cut, null]);
  }
});

describe('a page given as bytes', () => {
  const html = '<p title="naïve – ✓">Größe: 寸法 😀</p>';
  const text = (page: Uint8Array | string) => {
    const p = buildPageTree(page).elements[0]!;
    return [p.attribs.title, (p.children[0] as unknown as { data: string }).data];
  };

  it('builds the tree of its text', () => {
    expect(text(Buffer.from(html))).toEqual(['naïve – ✓', 'Größe: 寸法 😀']);
    expect(difference(reference(html), buildPageTree(Buffer.from(html)).root)).toBeNull();
  });

  it('drops a leading byte order mark, as a UTF-8 decoder does, and keeps one inside the page', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const tree = buildPageTree(Buffer.concat([bom, Buffer.from('<p>a'), bom, Buffer.from('b</p>')]));
    expect(tree.root.children[0]).toBe(tree.elements[0]);
    expect((tree.elements[0]!.children[0] as unknown as { data: string }).data).toBe('a\ufeffb');
  });

  it('decodes malformed UTF-8 as the page decoder would (a replacement character each)', () => {
    const bytes = Buffer.concat([
      Buffer.from('<p class="a'),
      Buffer.from([0xc3]),
      Buffer.from('">x'),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('<b>'),
      Buffer.from([0xff]),
      Buffer.from('</b></p>'),
    ]);
    const decoded = new TextDecoder().decode(bytes);
    expect(decoded).toContain('\ufffd');
    expect(difference(reference(decoded), buildPageTree(bytes).root)).toBeNull();
  });
});

it('lists elements in document order and by id, with offsets that nest', () => {
  const html = '<div id="a" class="x y"><p class="y">1</p><span id="a">2</span></div><b class=" y ">3</b>';
  const tree = buildPageTree(html);
  expect(tree.ids.get('a')!.map((e) => e.name)).toEqual(['div', 'span']);
  expect(tree.elements.map((e) => e.name)).toEqual(['div', 'p', 'span', 'b']);
  const [div, p, span, b] = tree.elements;
  for (const inner of [p!, span!]) {
    expect(inner.startIndex!).toBeGreaterThan(div!.startIndex!);
    expect(inner.startIndex!).toBeLessThan(div!.endIndex!);
  }
  expect(b!.startIndex!).toBeGreaterThanOrEqual(div!.endIndex!);
});

it('keeps a left-out element, empty, and builds the rest as before', () => {
  const html =
    '<div id="keep"><p>a</p><div id="skip" class="c"><div><p>inner<img src=x></div><script>"</div>"</script><span id="deep">x</span></div><p id="after">b</p></div>';
  const tree = buildPageTree(html, { leaveOut: (_name, id) => id === 'skip' });
  const skip = tree.ids.get('skip')![0]!;
  expect(skip.children).toEqual([]);
  expect(skip.attribs.class).toBe('c');
  expect(tree.ids.has('deep')).toBe(false);
  expect(tree.elements.map((e) => e.attribs.id ?? e.name)).toEqual(['keep', 'p', 'skip', 'after']);
  // Everything outside the region is exactly htmlparser2's tree.
  const full = parseDocument(html, { xmlMode: false, decodeEntities: true });
  const region = (full.children[0] as unknown as { children: { attribs?: Record<string, string>; children: unknown[] }[] }).children[1]!;
  expect(region.attribs!.id).toBe('skip');
  region.children = [];
  expect(difference(full, tree.root)).toBeNull();
});

it('decodes an element’s attributes when first read, and its id and class with the tag', () => {
  const html = `<div ID="a&amp;b" id="second" Class="x &quot;y&quot;" data-j="{&quot;k&quot;:1}" class="later"><br></div>`;
  const tree = buildPageTree(html);
  const div = tree.elements[0]!;
  expect(tree.ids.get('a&b')).toEqual([div]);
  expect(div.classAttribute).toBe('x "y"');
  expect(classOf(div)).toBe('x "y"');
  expect(div.attribs).toEqual({ id: 'a&b', class: 'x "y"', 'data-j': '{"k":1}' });
  expect(div.attribs).toBe(div.attribs); // decoded once
  // A change made through cheerio (which replaces or edits `attribs`) is what the class reads.
  div.attribs = { class: 'z' };
  expect(div.classAttribute).toBe('z');
  div.attribs.class = 'w';
  expect(classOf(div)).toBe('w');
  // Elements the builder makes without a tag of their own have no attributes.
  expect(buildPageTree('</br>').elements[0]!.attribs).toEqual({});
});

it('looks one attribute up in the tag as decoding them all would read it', () => {
  const html = `<input DATA-X="1" data-x="2" data_y='&lt;y&gt;' disabled value=plain class="c">`;
  const names = ['data-x', 'data_y', 'disabled', 'value', 'class', 'missing', 'DATA-X', 'constructor'];
  const fresh = () => buildPageTree(html).elements[0]!;
  const input = fresh();
  const decoded = names.map((n) => (Object.hasOwn(input.attribs, n) ? input.attribs[n] : undefined));
  expect(decoded).toEqual(['1', '<y>', '', 'plain', 'c', undefined, undefined, undefined]); // names are lower case
  // Each looked up first in the tag, and all in turn on one element (which decodes them all
  // after a few lookups): the same answers.
  expect(names.map((n) => attributeOf(fresh(), n))).toEqual(decoded);
  const one = fresh();
  expect(names.map((n) => attributeOf(one, n))).toEqual(decoded);
});
