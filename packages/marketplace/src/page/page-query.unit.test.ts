/**
 * Queries answered from the page's element lists must return what cheerio's own `find` returns:
 * compared on our own pages in Amazon's markup and on every saved marketplace page when they are
 * there, for the parsers' kinds of selectors, from the document and from every element the
 * parsers query under (search cards, price blocks, tables).
 */
import * as fs from 'fs';
import * as cheerio from 'cheerio';
import type { AnyNode } from 'domhandler';
import { Doc } from './dom';
import { comparisonPages } from './test-support/comparison-pages';

/** Our page's `$`, called like cheerio's. */
const loadHtml = (html: string) => {
  const doc = new Doc(html);
  return (selector: unknown) => doc.$(selector) as cheerio.Cheerio<AnyNode>;
};

const pages = comparisonPages((file) => /^(details|search|offers|bestsellers|reviews)-/.test(file)).map((page) => [page.name, page.file]);

const SELECTORS = [
  '.a-price',
  '.a-price:not(.a-text-price)',
  'span.a-offscreen',
  '#productTitle',
  'div#centerCol .a-icon-alt',
  '[data-component-type="s-search-result"]',
  'li.s-result-item[data-asin], div.s-result-item[data-asin]',
  'i.a-icon[class*="a-star"], .a-icon-star, .a-icon-star-small',
  '[aria-label]',
  'a[href*="/dp/"]',
  'h2 a span',
  'tr > th',
  'img',
  '.a-price[data-a-strike="true"], .a-text-price[data-a-strike="true"]',
  '.a-section .a-row .a-size-base',
  'ul li:not(.a-breadcrumb-divider)',
  'table tr:first-child td',
];
/** Answered by cheerio itself (positional, relative): they must still work. */
const HANDED_BACK = ['li:first', '> div', 'span:eq(1)', 'h2:contains("a")'];

/** An element's place in its tree, comparable across two parses of the same page. */
function place(node: AnyNode): string {
  const steps: number[] = [];
  for (let n: AnyNode | null = node; n?.parent; n = n.parent) steps.push(n.parent.children.indexOf(n as never));
  return steps.reverse().join('.');
}

it.each(pages)('answers as cheerio does on %s', (name, file) => {
  const html = fs.readFileSync(file, 'utf8');
  const ours = loadHtml(html);
  const theirs = cheerio.load(html, { xml: { xmlMode: false, decodeEntities: true } }); // htmlparser2, as before
  const places = (sel: cheerio.Cheerio<AnyNode>) => sel.toArray().map(place);
  for (const selector of [...SELECTORS, ...HANDED_BACK]) {
    expect([selector, places(ours(selector))]).toEqual([selector, places(theirs(selector))]);
  }
  // From elements inside the page: every 40th div, and the result cards.
  const contexts = (q: (selector: string) => cheerio.Cheerio<AnyNode>) => [
    ...q('div')
      .toArray()
      .filter((_, i) => i % 40 === 0),
    ...q('[data-asin]').toArray(),
  ];
  const oursContexts = contexts(ours);
  const theirsContexts = contexts(theirs);
  expect(oursContexts.map(place)).toEqual(theirsContexts.map(place));
  for (let i = 0; i < oursContexts.length; i++) {
    const mine = ours(oursContexts[i]!);
    const reference = theirs(theirsContexts[i]!);
    for (const selector of [...SELECTORS, ...HANDED_BACK]) {
      // find, closest, filter and is: the four the page answers itself.
      const answers = (q: cheerio.Cheerio<AnyNode>) => [
        places(q.find(selector)).join(),
        places(q.closest(selector)).join(),
        places(q.children().filter(selector)).join(),
        q.children().is(selector),
      ];
      const found = answers(mine);
      const expected = answers(reference);
      if (found.join('|') !== expected.join('|'))
        expect([name, place(oursContexts[i]!), selector, found]).toEqual([name, place(oursContexts[i]!), selector, expected]);
    }
  }
});

it('has pages of its own that give every selector something to find', () => {
  // Otherwise a clone without the saved pages would compare empty answers.
  const own = comparisonPages(() => false).map((page) => loadHtml(fs.readFileSync(page.file, 'utf8')));
  // (A relative selector finds nothing from the document: it is asked from the elements inside.)
  const fromDocument = [...SELECTORS, ...HANDED_BACK].filter((selector) => !selector.startsWith('>'));
  const unfound = fromDocument.filter((selector) => own.every(($) => $(selector).length === 0));
  expect(unfound).toEqual([]);
  expect(own.some(($) => $('[data-asin]').length >= 3)).toBe(true);
});

it('answers for a copy of an element from the copy, not from the page', () => {
  const $ = loadHtml('<div id="x"><span class="a">1</span><span class="a">2</span></div>');
  const copy = $('#x').clone();
  copy.find('.a').first().remove();
  expect(copy.text()).toBe('2');
  expect($('#x').text()).toBe('12');
});

it('keeps the previous selection for .end(), as cheerio does', () => {
  const $ = loadHtml('<div id="x"><p class="a">1</p><p class="b">2</p></div>');
  const div = $('#x');
  expect(div.find('.a').end()[0]).toBe(div[0]);
  expect(div.children().filter('.b').end().length).toBe(2);
});

it('splits class lists as css-select does once every class of the page is indexed', () => {
  const html =
    '<div class=" a\tb\nc  a "><span class="d\u00a0e">1</span><span class="é f\u2003g">2</span>' +
    '<i class="h\fi\rj">3</i><b class="">4</b><u class="k l m n o p">5</u></div>';
  const ours = loadHtml(html);
  const theirs = cheerio.load(html, { xml: { xmlMode: false, decodeEntities: true } });
  // More class names than are looked up one by one, so the whole page's classes get indexed.
  const names = ['a', 'b', 'c', 'd', 'e', 'é', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'd\u00a0e'];
  for (const name of [...names, ...names]) {
    const selector = `.${cssEscape(name)}`;
    expect([selector, ours(selector).length]).toEqual([selector, theirs(selector).length]);
  }
  expect(['.a', '.j', '.\\e9 ', '.g'].map((s) => ours(s).length)).toEqual([1, 1, 1, 1]);
});

/** A class name as a CSS selector writes it (NBSP and other spaces escaped). */
function cssEscape(name: string): string {
  return name.replace(/[^\w\u00c0-\uffff-]|[\u00a0\u2000-\u200a]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
}

it('answers each page from its own tree, through one cheerio shared by all pages', () => {
  const a = new Doc('<div id="x"><span class="a">1</span><span class="a">2</span></div>');
  const b = new Doc('<div id="x"><span class="a">3</span></div><p class="a">4</p>');
  // Interleaved: a query of one page never reads the other's index.
  expect(a.$('.a').text()).toBe('12');
  expect(b.$('.a').text()).toBe('34');
  expect(a.$('#x').find('.a').length).toBe(2);
  expect(b.$('#x').find('.a').length).toBe(1);
  expect(b.root().find('p.a').text()).toBe('4');
  // No class or function is made per page: one made per page is kept by V8's inline caches, and
  // the last page's whole tree with it (docs/parsing.md "Garbage").
  expect(Object.getPrototypeOf(a.$('span'))).toBe(Object.getPrototypeOf(b.$('span')));
  expect(Object.hasOwn(a, '$')).toBe(false);
});
