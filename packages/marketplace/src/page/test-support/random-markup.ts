/**
 * Random markup for the differential test of the page tree (generated-markup.unit.test.ts): nested
 * tags, attributes, text, references and the malformed constructs real pages carry (implied and
 * stray end tags, raw-text bodies holding "</", comments and declarations, foreign content, a
 * page cut anywhere). Seeded, so every run and every machine sees the same documents, and a
 * failure names the document's number.
 */

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Elements with content, weighted towards the ones Amazon's pages are made of (repeats weigh). */
const CONTAINERS = [
  ...['div', 'div', 'div', 'span', 'span', 'a', 'b', 'i', 'p', 'p', 'ul', 'ol', 'li', 'li', 'h1', 'h2', 'h5', 'section'],
  ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'tr', 'td', 'td', 'th', 'dl', 'dt', 'dd', 'caption', 'colgroup'],
  ...['select', 'option', 'option', 'optgroup', 'button', 'form', 'label', 'fieldset', 'datalist', 'output'],
  ...['header', 'nav', 'footer', 'main', 'aside', 'article', 'figure', 'figcaption', 'details', 'summary', 'pre', 'blockquote'],
  ...['noscript', 'template', 'iframe', 'ruby', 'rt', 'rp', 'body', 'head', 'html', 'center', 'font', 'strong', 'em', 'sup'],
  // custom and odd names, and names that only start like a raw-text element's
  ...['amzn-widget', 'x-y', 'a~', 'b_', 'DIV', 'Li', 'P', 'TD', 'scripts', 'styles', 'titles', 's', 't', 'x', 'st', 'tx'],
];
const VOIDS = ['br', 'img', 'input', 'hr', 'meta', 'link', 'wbr', 'source', 'col', 'area', 'embed', 'param', 'track', 'base', 'keygen'];
const RAW_TEXT = ['script', 'script', 'style', 'title', 'textarea', 'xmp', 'SCRIPT', 'Title'];
/** Names htmlparser2's tokenizer also reads as raw text, by the letters it tests. */
const RAW_TEXT_LOOKALIKES = ['tmp', 'xitle', 'xextarea', 'TMP'];
const SVG_CHILDREN = ['path', 'g', 'use', 'circle', 'rect', 'defs', 'symbol', 'text', 'tspan', 'desc', 'foreignObject', 'title'];
const MATH_CHILDREN = ['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'mrow'];

const ATTRIBUTE_NAMES = [
  ...['id', 'class', 'class', 'href', 'src', 'data-asin', 'data-a-state', 'data-hook', 'aria-label', 'style', 'value', 'type'],
  ...['name', 'disabled', 'checked', 'selected', 'data-x', 'DATA-X', 'Class', 'ID', 'xlink:href', 'viewBox', 'd', 'title'],
  ...['alt', 'data-ü', 'data_y', '=odd', 'a"b', "c'd", 'e<f', 'constructor', '__proto__', 'hasOwnProperty', 'tabindex', '1'],
];
const WORDS = ['Echo', 'Dot', 'Smart', 'speaker', 'Größe', '寸法', 'café', '😀', 'prix', '12,99', '€', '–', 'Kindle', 'x', ''];
const REFERENCES = [
  ...['&amp;', '&lt;', '&gt;', '&quot;', '&#39;', '&nbsp;', '&copy;', '&copy', '&euro;', '&rlm;', '&lrm;', '&#8206;', '&#x20AC;'],
  ...['&#65', '&#x41', '&#0;', '&#xD800;', '&#1114112;', '&#128512;', '&#x1F600;', '&notit;', '&notin;', '&not', '&ampx'],
  ...['&unknown;', '&amp;quot;', '&amp;amp;', '&', '&#', '&#x', '&#;', '&AMP;', '&Amp;', '&copy2026', '&lt3', '&ltx;', '&ApplyFunction;'],
];
/** What a "<" or ">" in text can look like without starting markup. */
const LOOSE_BRACKETS = ['< ', '<3', '<=', '<<', '<>', '>', '>>', '1 < 2', 'a<-b', '<#', '<.', '<_'];
/** Stray end tags and other end-tag-shaped text. */
const STRAY_END_TAGS = [
  '</p>',
  '</P >',
  '</br>',
  '</BR/>',
  '</span>',
  '</div x="y">',
  '</>',
  '</ >',
  '</3 x>',
  '</ a>',
  '</td>',
  '</li>',
  '</option>',
  '</svg>',
  '</table>',
  '</form>',
  '</img>',
];
const COMMENTS = [
  ...['<!-- x -->', '<!---->', '<!-->', '<!--->', '<!-- a -- b -->', '<!-- x --!>', '<!-- <p>not a tag</p> -->', '<!--- x --->'],
  ...['<!--[if lt IE 9]><p class="ie">old</p><![endif]-->', '<!-- sp:feature:dp-title -->', '<!-- ü 寸法 -->', '<!-- --- -->'],
];
const DECLARATIONS = [
  ...['<!DOCTYPE html>', '<!doctype HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">', '<![CDATA[ x < y && z ]]>', '<![CDATA[]]>'],
  ...['<![CDATA[ a ]] b ]]]>', '<!bogus x>', '<!-x>', '<![CDATx>', '<?xml version="1.0"?>', '<?php echo 1 ?>', '<!Ä bogus>', '<?x a/b?>'],
];
/** Script bodies: strings and comments holding "</" and markup that must stay text. */
const SCRIPT_BODIES = [
  'var s = "</div>"; var t = "</scr" + "ipt>";',
  "if (a < b && c > d) { document.write('<p>x</p>'); }",
  'P.when("A").execute(function(A){ var x = {"k":"</p><b>"}; });',
  '//<![CDATA[\nvar cdata = 1;\n//]]>',
  '<!-- var hidden = "</script"; -->',
  'var re = /<\\/script>/; var u = "\\u003c/script>";',
  'window.ue_t0 = +new Date(); var ü = "寸法 </SCRIPTS>";',
  'var tricky = "</script\tx";',
  '',
];
const STYLE_BODIES = [
  '.a-price > span { color: red } /* </div> */',
  'p>b{}',
  '@media (max-width: 100px) { a[href^="/dp/"] { x: "</sty" } }',
  '',
];
const TITLE_BODIES = [
  'Amazon.com &amp; more',
  'A <b>bold</b> &copy 2026 &lt;x&gt;',
  'Größe &euro; 寸法',
  '</titles> still &amp; title',
  '',
];
const TEXTAREA_BODIES = ['&lt;x&gt; </p> <b>x</b>', 'line 1\nline 2 &amp;', '</textareas>', ''];

export class MarkupGenerator {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private int(from: number, to: number): number {
    return from + Math.floor(this.random() * (to - from + 1));
  }

  /**
   * One document: a sequence of nodes, a quarter of them cut at a random point (a truncated
   * page), between two characters: a page's bytes cut inside a character are `cutBytes`.
   */
  document(): { html: string; cut: boolean } {
    const html = (this.chance(0.3) ? this.pick(DECLARATIONS.slice(0, 2)) : '') + this.nodes(0, this.int(1, 12));
    if (!this.chance(0.25)) return { html, cut: false };
    const chars = Array.from(html);
    return { html: chars.slice(0, this.int(0, chars.length)).join(''), cut: true };
  }

  /** A document's UTF-8 bytes cut at a random byte, often inside a character. */
  cutBytes(html: string): Buffer {
    const bytes = Buffer.from(html);
    return bytes.subarray(0, this.int(0, bytes.length));
  }

  private nodes(depth: number, count: number): string {
    let out = '';
    for (let n = 0; n < count; n++) out += this.node(depth);
    return out;
  }

  private node(depth: number): string {
    const roll = this.random();
    if (depth > 6 || roll < 0.3) return this.text();
    if (roll < 0.62) return this.element(depth);
    if (roll < 0.68) return this.voidElement();
    if (roll < 0.74) return this.rawText();
    if (roll < 0.79) return this.pick(STRAY_END_TAGS);
    if (roll < 0.84) return this.pick(COMMENTS);
    if (roll < 0.87) return this.pick(DECLARATIONS);
    if (roll < 0.91) return this.foreign(depth);
    if (roll < 0.95) return this.list(depth);
    return this.table(depth);
  }

  private text(): string {
    let out = '';
    for (let n = this.int(1, 4); n > 0; n--) {
      const roll = this.random();
      if (roll < 0.55) out += this.pick(WORDS);
      else if (roll < 0.8) out += this.pick(REFERENCES);
      else if (roll < 0.92) out += this.pick(LOOSE_BRACKETS);
      else out += this.pick(['\n', '\t', '\u00a0', '  ', '\r\n', '\u3000', '\f', '\v', '\0']);
      if (this.chance(0.6)) out += ' ';
    }
    return out;
  }

  private attributeValue(): string {
    let value = '';
    for (let n = this.int(0, 3); n > 0; n--) {
      const roll = this.random();
      if (roll < 0.5) value += this.pick(WORDS);
      else if (roll < 0.75) value += this.pick(REFERENCES);
      else value += this.pick(['a-price', 's-result-item', '>', '/', '=', '{"k":1}', '&quot;{&quot;a&quot;:1}&quot;', ' ', '\n']);
    }
    return value;
  }

  private attributes(): string {
    let out = '';
    for (let n = this.int(0, 4); n > 0; n--) {
      out += this.pick([' ', ' ', '  ', '\n', '\t', '\f', '\r', '/', ' / ']);
      const name = this.pick(ATTRIBUTE_NAMES);
      const value = this.attributeValue();
      const roll = this.random();
      if (roll < 0.4) out += `${name}="${value.replace(/"/g, '&quot;')}"`;
      else if (roll < 0.6) out += `${name}='${value.replace(/'/g, '&#39;')}'`;
      // Unquoted: the value ends at whitespace or ">", so those are left out of it.
      else if (roll < 0.8) out += `${name}=${value.replace(/[\s>"'`=<]/g, '') || 'x'}`;
      else if (roll < 0.9) out += name;
      else out += `${name} = ${this.chance(0.5) ? '"' + value.replace(/"/g, '') + '"' : 'v'}`;
    }
    return out;
  }

  private openTag(name: string, selfClose = this.chance(0.08)): string {
    return `<${name}${this.attributes()}${selfClose ? (this.chance(0.5) ? '/' : ' /') : ''}${this.chance(0.05) ? ' ' : ''}>`;
  }

  private endTag(name: string): string {
    const roll = this.random();
    if (roll < 0.25) return ''; // left open: closed by an implied close, an ancestor's end or the page's end
    if (roll < 0.35) return `</${name.toUpperCase()}>`;
    if (roll < 0.42) return `</${name} >`;
    if (roll < 0.47) return `</${name} class="junk">`;
    return `</${name}>`;
  }

  private element(depth: number): string {
    const name = this.pick(this.chance(0.03) ? RAW_TEXT_LOOKALIKES : CONTAINERS);
    return this.openTag(name) + this.nodes(depth + 1, this.int(0, 4)) + this.endTag(name);
  }

  private voidElement(): string {
    const name = this.pick(VOIDS);
    return this.openTag(name) + (this.chance(0.1) ? `</${name}>` : '');
  }

  private rawText(): string {
    const name = this.pick(RAW_TEXT);
    const lower = name.toLowerCase();
    const body =
      lower === 'script'
        ? this.pick(SCRIPT_BODIES)
        : lower === 'style'
          ? this.pick(STYLE_BODIES)
          : lower === 'title'
            ? this.pick(TITLE_BODIES)
            : this.pick(TEXTAREA_BODIES);
    const close = this.pick([`</${name}>`, `</${lower}>`, `</${lower.toUpperCase()} >`, `</${lower}\n>`, '']);
    return this.openTag(name, this.chance(0.03)) + body + close;
  }

  /** svg or math, with self-closing children and an integration point back to HTML. */
  private foreign(depth: number): string {
    const math = this.chance(0.3);
    const children = math ? MATH_CHILDREN : SVG_CHILDREN;
    let body = '';
    for (let n = this.int(0, 4); n > 0; n--) {
      const name = this.pick(children);
      body += this.chance(0.5)
        ? `<${name}${this.attributes()}/>`
        : this.openTag(name, false) + this.nodes(depth + 2, this.int(0, 2)) + `</${name}>`;
    }
    const root = math ? 'math' : this.pick(['svg', 'svg', 'SVG']);
    return `${this.openTag(root, false)}${body}${this.chance(0.8) ? `</${root}>` : ''}`;
  }

  /** A list or a select whose items are left unclosed, as Amazon's markup often has them. */
  private list(depth: number): string {
    const [outer, item] = this.pick([
      ['ul', 'li'],
      ['ol', 'li'],
      ['select', 'option'],
      ['dl', 'dt'],
      ['dl', 'dd'],
      ['div', 'p'],
      ['ruby', 'rt'],
    ] as const);
    let out = this.openTag(outer, false);
    for (let n = this.int(1, 4); n > 0; n--) out += this.openTag(item, false) + this.nodes(depth + 2, this.int(0, 2));
    return out + this.endTag(outer);
  }

  /** A table with rows and cells left unclosed, sections implied or given. */
  private table(depth: number): string {
    let out = this.openTag('table', false);
    if (this.chance(0.4)) out += this.openTag(this.pick(['tbody', 'thead', 'tfoot']), false);
    for (let r = this.int(1, 3); r > 0; r--) {
      out += this.openTag('tr', false);
      for (let c = this.int(1, 3); c > 0; c--) out += this.openTag(this.pick(['td', 'th']), false) + this.nodes(depth + 2, this.int(0, 2));
    }
    return out + this.endTag('table');
  }
}
