/**
 * HTML to the tree htmlparser2 (cheerio's parser) builds, in a fraction of its time.
 *
 * htmlparser2's tokenizer visits every character through a state machine; most of an Amazon page
 * is script bodies, attribute values and text, which this builder crosses with `indexOf` instead.
 * The tree-building rules are htmlparser2's (which open tag closes which, void elements, `</p>`
 * and `</br>`, self-closing only inside svg/math, script/style/title/textarea/xmp bodies as raw
 * text, entities decoded in text and attribute values, what is kept of a construct the page ends
 * in), so every selector answers as before; `page-tree.unit.test.ts` compares both trees node by node
 * on pages and on markup written for each rule, `generated-markup.unit.test.ts` on generated documents.
 * It reads the page's source (its UTF-8 bytes, page-source.ts) and decodes each name, text and
 * value it keeps. See docs/parsing.md.
 */
import { Comment, Document, Element, ProcessingInstruction, Text, type ChildNode, type ParentNode } from 'domhandler';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { mayNameRawText, tagRules, type TagRules } from './html-syntax';
import { type PageInput, PageSource, utf8 } from './page-source';

/**
 * A parsed page: its root, and its elements in document order, all of them and by id (Amazon
 * repeats some ids). Every element's `startIndex` is the offset of its open tag and `endIndex`
 * the offset where it was closed, so a descendant's start lies strictly between its ancestor's
 * two (page-query.ts answers queries from these lists with that).
 */
export interface PageTree {
  root: Document;
  elements: PageElement[];
  ids: Map<string, PageElement[]>;
  /** Where each <script>'s text is in the source: [start, end) pairs, those in left-out regions too. */
  scripts: number[];
}

function addTo(index: Map<string, PageElement[]>, key: string, element: PageElement): void {
  const bucket = index.get(key);
  if (bucket) bucket.push(element);
  else index.set(key, [element]);
}

const GT = 62; // >
const SLASH = 47;
const EQ = 61;
const DQ = 34;
const SQ = 39;
const BANG = 33;
const QUESTION = 63;
const DASH = 45;
const LT = 60;
const AMP = 38;

function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
}

/**
 * Classes of the source's characters, one table load instead of a chain of comparisons in the
 * attribute scan, the builder's hottest loop. The source holds one byte per character, so every
 * character has an entry.
 */
const SPACE = 1;
/** Ends an attribute name: whitespace, "=", ">" or "/". */
const NAME_END = 2;
/** Ends an unquoted value: whitespace or ">". */
const VALUE_END = 4;
/** Makes a name need lower-casing or decoding: a capital or a byte above 127. */
const UNUSUAL = 8;
const CHAR_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if (isWhitespace(c)) CHAR_CLASS[c] = SPACE | NAME_END | VALUE_END;
  else if (c === GT) CHAR_CLASS[c] = NAME_END | VALUE_END;
  else if (c === EQ || c === SLASH) CHAR_CLASS[c] = NAME_END;
  else if ((c >= 65 && c <= 90) || c > 127) CHAR_CLASS[c] = UNUSUAL;
}

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * The references Amazon's markup escapes with (JSON in data attributes is mostly `&quot;`), which
 * decode the same in text and in attributes. `&amp;` comes last so "&amp;quot;" stays "&quot;".
 */
const COMMON_REFERENCES: readonly [string, string][] = [
  ['&quot;', '"'],
  ['&#39;', "'"],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&nbsp;', '\u00a0'],
  ['&amp;', '&'],
];

/**
 * Decodes `raw` with `decode` (entities' decoder, which reads character by character), or, when
 * every "&" in it starts one of the common references, by a native replace of each.
 */
function decodeWith(raw: string, decode: (raw: string) => string): string {
  let at = raw.indexOf('&');
  if (at < 0) return raw;
  let present = 0; // a bit per COMMON_REFERENCES entry
  while (at >= 0) {
    let n = 0;
    while (n < COMMON_REFERENCES.length && !raw.startsWith(COMMON_REFERENCES[n]![0], at)) n++;
    if (n === COMMON_REFERENCES.length) return decode(raw);
    present |= 1 << n;
    at = raw.indexOf('&', at + 2);
  }
  let out = raw;
  for (let n = 0; n < COMMON_REFERENCES.length; n++)
    if (present & (1 << n)) out = out.replaceAll(COMMON_REFERENCES[n]![0], COMMON_REFERENCES[n]![1]);
  return out;
}

// A slice of the source holds UTF-8 bytes (page-source.ts): they are decoded before its entities.
const decodeText = (raw: string) => decodeWith(utf8(raw), decodeHTML);
const decodeAttribute = (raw: string) => decodeWith(utf8(raw), decodeHTMLAttribute);
/** A tag or attribute name as htmlparser2 has it: lower case (`unusual`: it has capitals or bytes above 127). */
const nameOf = (raw: string, unusual: boolean) => (unusual ? utf8(raw).toLowerCase() : raw);

/**
 * The rules of each tag name met so far, found from the name's characters in the source, by a hash
 * taken while scanning them, without slicing the name out: a page has some 10,000 tags of a few
 * dozen names. Names with capitals or bytes above 127 go by their lower-case form instead. A page's
 * markup is not ours, so only so many names, of a sane length, are kept, each as a copy of its own:
 * a slice of 13 characters or more is a view that would keep the whole page's source alive.
 */
const RULES_BY_HASH = new Map<number, TagRules[]>();
const RULES_BY_NAME = new Map<string, TagRules>();
const MAX_KNOWN_NAMES = 512;
const MAX_KNOWN_NAME_LENGTH = 64;
let knownNames = 0;

const mayKeep = (name: string) => knownNames < MAX_KNOWN_NAMES && name.length <= MAX_KNOWN_NAME_LENGTH;
/** A copy of a name taken from the source (its characters are one byte each). */
const ownCopy = (name: string) => Buffer.from(name, 'latin1').toString('latin1');

/** Adds a character to a tag name's hash. */
const hashStep = (hash: number, c: number) => (Math.imul(hash, 31) + c) | 0;

function rulesAt(html: string, from: number, to: number, hash: number, unusual: boolean): TagRules {
  if (unusual) {
    const name = nameOf(html.slice(from, to), true);
    const known = RULES_BY_NAME.get(name);
    if (known) return known;
    // Decoding or lower-casing made the name a string of its own.
    const rules = tagRules(name);
    if (mayKeep(name)) {
      knownNames++;
      RULES_BY_NAME.set(name, rules);
    }
    return rules;
  }
  const bucket = RULES_BY_HASH.get(hash);
  if (bucket) for (const rules of bucket) if (rules.name.length === to - from && html.startsWith(rules.name, from)) return rules;
  const name = html.slice(from, to);
  if (!mayKeep(name)) return tagRules(name);
  const rules = tagRules(ownCopy(name));
  knownNames++;
  if (bucket) bucket.push(rules);
  else RULES_BY_HASH.set(hash, [rules]);
  return rules;
}

/** What a title's body ends at (see TreeBuilder.titleText). */
const TITLE_END = '</title';

/** The rules of <p>, which a stray </p> opens and closes. */
const P_RULES = tagRules('p');

/** What reading an open tag's attributes found besides them. */
interface TagScan {
  /** The index after its ">", or -1 when the page ends inside the tag. */
  end: number;
  /** Ended by "/>"; or, when the page ends inside the tag, after a "/" (which htmlparser2 reads as a tag ending). */
  selfClosing: boolean;
  id: string | undefined;
  className: string | undefined;
  /** When set, the one attribute to look for, whose value goes to `found`; nothing else is read. */
  wanted: string | undefined;
  found: string | undefined;
  /** Only where the tag ends is wanted (a tag inside a left-out region): no value is read. */
  endOnly: boolean;
}

const newTagScan = (wanted?: string, endOnly = false): TagScan => ({
  end: -1,
  selfClosing: false,
  id: undefined,
  className: undefined,
  wanted,
  found: undefined,
  endOnly,
});

/** Whether the attribute name at `html[from, to)`, lower-cased, is `name`. */
function isName(html: string, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) {
    const c = html.charCodeAt(from + k);
    if ((c >= 65 && c <= 90 ? c | 32 : c) !== name.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Reads an open tag's attributes from `i` (just after its name) to its ">", as htmlparser2's
 * tokenizer does: into `into` (the first of repeated names wins), or with `into` null only the
 * one `tag.wanted`, or with `tag.endOnly` none, or else only its id and class (a tag's other
 * values are decoded only when something asks for them). Where the tag ends, and its id and
 * class, go to `tag`.
 */
function readAttributes(html: string, i: number, into: Record<string, string> | null, tag: TagScan): void {
  const end = html.length;
  const wanted = tag.wanted;
  tag.end = -1;
  tag.selfClosing = false;
  tag.id = undefined;
  tag.className = undefined;
  tag.found = undefined;
  for (;;) {
    while (i < end && CHAR_CLASS[html.charCodeAt(i)]! & SPACE) i++;
    if (i >= end) return;
    const c = html.charCodeAt(i);
    if (c === GT) break;
    if (c === SLASH) {
      let j = i + 1;
      while (j < end && CHAR_CLASS[html.charCodeAt(j)]! & SPACE) j++;
      if (j >= end) {
        tag.selfClosing = true;
        return;
      }
      if (html.charCodeAt(j) === GT) {
        tag.selfClosing = true;
        i = j;
        break;
      }
      i = j;
      continue;
    }
    const nameStart = i;
    let classes = CHAR_CLASS[c]!;
    i++; // the first character may be "=" or anything else but whitespace, "/" and ">"
    while (i < end) {
      const k = CHAR_CLASS[html.charCodeAt(i)]!;
      if (k & NAME_END) break;
      classes |= k;
      i++;
    }
    if (i >= end) return;
    const unusual = (classes & UNUSUAL) !== 0;
    const nameEnd = i;
    while (i < end && CHAR_CLASS[html.charCodeAt(i)]! & SPACE) i++;
    if (i >= end) return;
    let valueStart = i;
    let valueEnd = i;
    if (html.charCodeAt(i) === EQ) {
      i++;
      while (i < end && CHAR_CLASS[html.charCodeAt(i)]! & SPACE) i++;
      if (i >= end) return;
      const q = html.charCodeAt(i);
      if (q === DQ || q === SQ) {
        const close = html.indexOf(q === DQ ? '"' : "'", i + 1);
        if (close < 0) return;
        valueStart = i + 1;
        valueEnd = close;
        i = close + 1;
      } else {
        valueStart = i;
        while (i < end && !(CHAR_CLASS[html.charCodeAt(i)]! & VALUE_END)) i++;
        if (i >= end) return;
        valueEnd = i;
      }
    }
    if (into) {
      const attribute = nameOf(html.slice(nameStart, nameEnd), unusual);
      // Own values are strings, so anything else read here ("constructor") is inherited and the
      // attribute is new.
      if (typeof into[attribute] !== 'string') into[attribute] = decodeAttribute(html.slice(valueStart, valueEnd));
    } else if (wanted !== undefined) {
      if (isName(html, nameStart, nameEnd, wanted)) {
        tag.found = decodeAttribute(html.slice(valueStart, valueEnd));
        return;
      }
    } else if (tag.endOnly) {
      continue;
    } else if (tag.id === undefined && isName(html, nameStart, nameEnd, 'id')) {
      tag.id = decodeAttribute(html.slice(valueStart, valueEnd));
    } else if (tag.className === undefined && isName(html, nameStart, nameEnd, 'class')) {
      tag.className = decodeAttribute(html.slice(valueStart, valueEnd));
    }
  }
  if (into) {
    tag.id = into.id;
    tag.className = into.class;
  }
  tag.end = i + 1; // i is at ">"
}

/** Single attributes looked up in an element's source before all its attributes are decoded. */
const LOOKUPS_BEFORE_DECODING = 4;

/**
 * An element of a parsed page whose attributes are decoded on first use. Building every
 * element's attributes was a quarter of the tree's cost, and a product page's parse needs all of
 * an element's for about one element in forty (a search page's for two in three: its cards are
 * asked many questions each). Its class (which the page's queries index) and id are read with the
 * tag; a query testing one attribute looks that one up in the tag (`attribute`).
 */
export class PageElement extends Element {
  declare private readonly source: string;
  declare private readonly attributesAt: number;
  declare private readonly eagerClass: string | undefined;
  declare private read: Record<string, string> | undefined;
  declare private lookups: number;

  constructor(name: string, source: string, attributesAt: number, className: string | undefined) {
    super(name, undefined as never);
    this.source = source;
    this.attributesAt = attributesAt;
    this.eagerClass = className;
    this.lookups = 0;
  }

  static {
    // domhandler's `attribs` is a plain property; a page element's is this accessor, which
    // decodes the attributes when something first reads them.
    Object.defineProperty(this.prototype, 'attribs', {
      get(this: PageElement): Record<string, string> {
        if (this.read === undefined) {
          const attribs: Record<string, string> = {};
          // A scan of its own: one shared by all pages would keep this page's strings alive.
          if (this.attributesAt >= 0) readAttributes(this.source, this.attributesAt, attribs, newTagScan());
          this.read = attribs;
        }
        return this.read;
      },
      set(this: PageElement, attribs: Record<string, string>) {
        this.read = attribs;
      },
    });
  }

  /** One attribute's value, without decoding the others when they have not been. */
  attribute(name: string): string | undefined {
    if (this.read === undefined) {
      if (name === 'class') return this.eagerClass;
      if (this.attributesAt < 0) return undefined;
      // An element asked again and again (under a search card) is cheaper decoded once.
      if (++this.lookups <= LOOKUPS_BEFORE_DECODING) {
        const scan = newTagScan(name);
        readAttributes(this.source, this.attributesAt, null, scan);
        return scan.found;
      }
    }
    const attribs = this.attribs;
    return Object.hasOwn(attribs, name) ? attribs[name] : undefined;
  }

  /** The class attribute, without decoding the others. */
  get classAttribute(): string | undefined {
    return this.read === undefined ? this.eagerClass : this.read.class;
  }
}

/**
 * A text node whose data is decoded when something first reads it: most of a page's text (its
 * script bodies above all) is never read, and decoding means looking for bytes above 127 in it.
 */
class PageText extends Text {
  declare private raw: string | undefined;
  declare private decoded: string;
  declare private readonly entities: boolean;

  /** `entities`: decode character references too (text and <title>; not script and style bodies). */
  constructor(raw: string, entities: boolean) {
    super('');
    this.raw = raw;
    this.entities = entities;
  }

  static {
    // domhandler's `data` is a plain property; a page text's is this accessor.
    Object.defineProperty(this.prototype, 'data', {
      get(this: PageText): string {
        if (this.raw !== undefined) {
          this.decoded = this.entities ? decodeText(this.raw) : utf8(this.raw);
          this.raw = undefined;
        }
        return this.decoded;
      },
      set(this: PageText, data: string) {
        this.decoded = data;
        this.raw = undefined;
      },
    });
  }
}

/** An element's attribute (without decoding a page element's others). */
export function attributeOf(node: { attribs?: Record<string, string> }, name: string): string | undefined {
  return node instanceof PageElement ? node.attribute(name) : node.attribs?.[name];
}

/** An element's class attribute (without decoding a page element's other attributes). */
export function classOf(node: { attribs?: Record<string, string> }): string | undefined {
  return node instanceof PageElement ? node.classAttribute : node.attribs?.class;
}

class TreeBuilder {
  readonly root = new Document([]);
  readonly elements: PageElement[] = [];
  readonly ids = new Map<string, PageElement[]>();
  readonly scripts: number[] = [];
  /** Open elements, innermost last; `names` mirrors it for htmlparser2's name-based rules. */
  private readonly open: ParentNode[] = [this.root];
  /**
   * The children of the open elements, one run per element from `childrenFrom` (parallel to
   * `open`). An element gets its children as one array of their exact length when it closes: an
   * array grown by pushing reserves 17 slots at its first child, and most elements have one or two.
   * `childCount` is where the runs end (entries past it are stale).
   */
  private readonly children: ChildNode[] = [];
  private childCount = 0;
  private readonly childrenFrom: number[] = [0];
  private readonly names: string[] = [];
  /** The open tag being read. */
  private readonly tag = newTagScan();
  /** The scan of tags inside a left-out region, which are only counted. */
  private readonly skippedTag = newTagScan(undefined, true);
  private readonly foreign: boolean[] = [false];
  /** The text node still being appended to (htmlparser2 merges adjacent text). */
  private lastText: Text | null = null;

  /** While above 0, the depth of the left-out element being crossed. */
  private skipDepth = 0;

  constructor(
    /** The page's source: its bytes, one per character (page-source.ts). */
    private readonly html: string,
    private readonly options: TreeOptions,
  ) {}

  build(): PageTree {
    const html = this.html;
    const end = html.length;
    let textStart = 0;
    let at = html.indexOf('<');
    while (at >= 0 && at + 1 < end) {
      const c = html.charCodeAt(at + 1);
      let next: number;
      if (isAlpha(c)) {
        this.text(textStart, at);
        next = this.openTag(at);
      } else if (c === SLASH && !this.isEmptyEndTag(at)) {
        this.text(textStart, at);
        next = this.closeTag(at);
      } else if (c === BANG) {
        this.text(textStart, at);
        next = this.declaration(at);
      } else if (c === QUESTION) {
        this.text(textStart, at);
        next = this.instruction(at + 2, '?');
      } else {
        // A "<" that starts no tag is text; the text run goes on.
        at = html.indexOf('<', at + 1);
        continue;
      }
      textStart = next;
      at = html.indexOf('<', next);
    }
    this.text(textStart, end);
    while (this.names.length > 0) this.popElement(end);
    this.root.children = this.children.slice(0, this.childCount);
    this.root.startIndex = 0;
    this.root.endIndex = end;
    return { root: this.root, elements: this.elements, ids: this.ids, scripts: this.scripts };
  }

  private text(from: number, to: number): void {
    if (to <= from || this.skipDepth > 0) return;
    const raw = this.html.slice(from, to);
    // Each run is decoded on its own, as htmlparser2 decodes them: a reference never spans two.
    if (this.lastText) this.lastText.data += decodeText(raw);
    else {
      const node = new PageText(raw, true);
      this.add(node);
      this.lastText = node;
    }
  }

  private add(node: ChildNode): void {
    if (this.skipDepth > 0) return;
    const children = this.children;
    if (this.childCount > this.childrenFrom[this.childrenFrom.length - 1]!) {
      const previous = children[this.childCount - 1]!;
      node.prev = previous;
      previous.next = node;
    }
    children[this.childCount++] = node;
    node.parent = this.open[this.open.length - 1]!;
    this.lastText = null;
  }

  /** `<name attrs...>` at `at`; returns the index after it (the page's end when the page ends inside it). */
  private openTag(at: number): number {
    const html = this.html;
    const end = html.length;
    let i = at + 1;
    let unusual = false;
    let hash = 0;
    while (i < end) {
      const c = html.charCodeAt(i);
      if (c === GT || c === SLASH || isWhitespace(c)) break;
      if ((c >= 65 && c <= 90) || c > 127) unusual = true;
      hash = hashStep(hash, c);
      i++;
    }
    if (i >= end) return this.endInTagName(at + 1);
    const rules = rulesAt(html, at + 1, i, hash, unusual);
    const name = rules.name;
    const implied = rules.closesOnOpen;
    if (implied) while (this.names.length > 0 && implied.has(this.names[this.names.length - 1]!)) this.popElement(at);

    const tag = this.skipDepth > 0 ? this.skippedTag : this.tag;
    const attribs = this.options.eagerAttributes && this.skipDepth === 0 ? ({} as Record<string, string>) : null;
    readAttributes(html, i, attribs, tag);
    // The page ends inside the tag: htmlparser2 makes no element of it, but has already closed
    // what its name implies, and after a "/" keeps a last piece of text.
    if (tag.end < 0) return tag.selfClosing ? this.lastCharacterAsText() : end;
    const { end: after, selfClosing } = tag;

    if (this.skipDepth > 0) {
      // Inside a left-out region: the element is only counted, for where the region ends.
      if (rules.isVoid) return after;
      this.open.push(this.open[this.open.length - 1]!);
      this.childrenFrom.push(this.childCount);
    } else {
      const element = this.element(name, i, tag, at);
      if (attribs) element.attribs = attribs;
      if (rules.isVoid) {
        element.endIndex = at;
        return after;
      }
      this.open.push(element);
      this.childrenFrom.push(this.childCount);
      if (this.options.leaveOut?.(name, tag.id)) this.skipDepth = this.names.length + 1;
    }
    this.names.push(name);
    if (rules.foreignContext) this.foreign.push(true);
    else if (rules.htmlIntegration) this.foreign.push(false);
    if (selfClosing && this.foreign[this.foreign.length - 1]) {
      // Self-closing counts only inside svg/math; htmlparser2 ignores it in HTML.
      this.popElement(after);
      return after;
    }
    if (!selfClosing && rules.rawTextEnd !== undefined) return this.rawText(rules.rawTextEnd, after);
    return after;
  }

  /**
   * The page ends inside a tag's name (`from`: its first character). htmlparser2 drops the tag,
   * unless its tokenizer is still testing the letters for a raw-text element's name, in which
   * case it keeps them as text.
   */
  private endInTagName(from: number): number {
    const end = this.html.length;
    const name = this.html.slice(from, end);
    return /^[a-zA-Z]+$/.test(name) && mayNameRawText(name.toLowerCase()) ? this.trailingText(from, end) : end;
  }

  /** The body of a script/style/title/textarea/xmp: text up to its closing tag (`closing`, lower case). */
  private rawText(closing: string, from: number): number {
    if (closing === 'title') return this.titleText(from);
    const html = this.html;
    let search = from;
    for (;;) {
      const close = html.indexOf('</', search);
      if (close < 0) {
        this.rawTextNode(closing, from, html.length);
        return html.length;
      }
      const nameEnd = close + 2 + closing.length;
      const following = nameEnd < html.length ? html.charCodeAt(nameEnd) : -1;
      if ((following === GT || isWhitespace(following)) && html.slice(close + 2, nameEnd).toLowerCase() === closing) {
        this.rawTextNode(closing, from, close);
        return this.closeTag(close);
      }
      search = close + 2;
    }
  }

  private rawTextNode(closing: string, from: number, to: number): void {
    if (to <= from) return;
    if (closing === 'script') this.scripts.push(from, to);
    if (this.skipDepth > 0) return;
    // Only a title's text has its entities decoded (as htmlparser2 does).
    const node = new PageText(this.html.slice(from, to), closing === 'title');
    this.add(node);
    this.lastText = node;
  }

  /**
   * A title's body: text up to "</title", read as htmlparser2's tokenizer reads it, one character
   * at a time while matching "</title" (each compared with its 0x20 bit set, so "\x1c" counts as
   * "<" and "\x0f" as "/"). An "&" met while part of that is matched ("a<&amp;") starts no
   * reference; every other one is decoded. A page has a title or two, a few dozen bytes each.
   */
  private titleText(from: number): number {
    const html = this.html;
    const end = html.length;
    /** The "&"s that start no reference. */
    const literal: number[] = [];
    let matched = 0;
    for (let k = from; k < end; k++) {
      const c = html.charCodeAt(k);
      if (matched === TITLE_END.length) {
        if (c === GT || isWhitespace(c)) {
          const close = k - TITLE_END.length;
          this.titleNode(from, close, literal);
          return this.closeTag(close);
        }
        matched = 0;
      }
      if ((c | 0x20) === TITLE_END.charCodeAt(matched)) matched++;
      else if (matched > 0) {
        if (c === AMP) literal.push(k);
        matched = c === LT ? 1 : 0;
      }
    }
    this.titleNode(from, end, literal);
    return end;
  }

  private titleNode(from: number, to: number, literal: number[]): void {
    if (to <= from || this.skipDepth > 0) return;
    let node: Text;
    if (literal.length === 0) node = new PageText(this.html.slice(from, to), true);
    else {
      // Decoded piece by piece around the "&"s kept as they are (a reference never spans one:
      // the "<" before it ends any).
      let data = '';
      let start = from;
      for (const at of literal) {
        data += decodeText(this.html.slice(start, at)) + '&';
        start = at + 1;
      }
      node = new Text(data + decodeText(this.html.slice(start, to)));
    }
    this.add(node);
    this.lastText = node;
  }

  /**
   * Text htmlparser2 keeps of a construct the page ends in (its tokenizer's trailing data), as
   * it is: references are not decoded. Returns the page's end.
   */
  private trailingText(from: number, to: number): number {
    if (to > from && this.skipDepth === 0) {
      const raw = this.html.slice(from, to);
      if (this.lastText) this.lastText.data += utf8(raw);
      else {
        const node = new PageText(raw, false);
        this.add(node);
        this.lastText = node;
      }
    }
    return this.html.length;
  }

  /**
   * When the page ends inside an end tag after its name, or after a "/" in an open tag,
   * htmlparser2 has already acted on the tag and takes as text what lies from the start of its
   * section, which it has set to -1, to the page's end: the last UTF-16 unit of the page's text.
   * Returns the page's end.
   */
  private lastCharacterAsText(): number {
    const html = this.html;
    const end = html.length;
    if (this.skipDepth > 0) return end;
    // The last character's bytes start at most three continuation bytes (10xxxxxx) back.
    let from = end - 1;
    while (from > 0 && from > end - 4 && (html.charCodeAt(from) & 0xc0) === 0x80) from--;
    const last = utf8(html.slice(from, end)).slice(-1);
    if (this.lastText) this.lastText.data += last;
    else {
      const node = new Text(last);
      this.add(node);
      this.lastText = node;
    }
    return end;
  }

  /** `</>` (or `</ >`): htmlparser2 keeps it as text. */
  private isEmptyEndTag(at: number): boolean {
    const html = this.html;
    let i = at + 2;
    while (i < html.length && isWhitespace(html.charCodeAt(i))) i++;
    return html.charCodeAt(i) === GT;
  }

  /** `</name ...>` at `at`; returns the index after it (the page's end when the page ends inside it). */
  private closeTag(at: number): number {
    const html = this.html;
    const end = html.length;
    let i = at + 2;
    while (i < end && isWhitespace(html.charCodeAt(i))) i++;
    // A page ending in "</" and whitespace ends in that text.
    if (i >= end) return this.trailingText(at, end);
    const c = html.charCodeAt(i);
    if (!isAlpha(c)) {
      // "</3 ...>" is a comment in htmlparser2 (and the rest of the page is text when no ">" ends it).
      const gt = html.indexOf('>', i);
      if (gt < 0) return this.trailingText(i, end);
      this.add(new Comment(utf8(html.slice(i, gt))));
      return gt + 1;
    }
    const nameStart = i;
    let unusual = false;
    let hash = 0;
    for (; i < end; i++) {
      const c = html.charCodeAt(i);
      if (c === GT || isWhitespace(c)) break;
      if ((c >= 65 && c <= 90) || c > 127) unusual = true;
      hash = hashStep(hash, c);
    }
    // The page ends inside the name: htmlparser2 drops the tag.
    if (i >= end) return end;
    const gt = html.charCodeAt(i) === GT ? i : html.indexOf('>', i);
    this.endTag(rulesAt(html, nameStart, i, hash, unusual), at);
    return gt < 0 ? this.lastCharacterAsText() : gt + 1;
  }

  /**
   * A new element, added to its parent and to the page's lists; its attributes are at
   * `attributesAt` (or it has none, at -1), and `tag` holds its id and class.
   */
  private element(name: string, attributesAt: number, tag: TagScan | null, at: number): PageElement {
    const element = new PageElement(name, this.html, attributesAt, tag?.className);
    element.startIndex = at;
    this.add(element);
    this.elements.push(element);
    const id = tag?.id;
    if (id) addTo(this.ids, id, element);
    return element;
  }

  private endTag(rules: TagRules, at: number): void {
    const name = rules.name;
    if (rules.foreignContext || rules.htmlIntegration) {
      if (this.foreign.length > 1) this.foreign.pop();
    }
    if (rules.isVoid) {
      if (name === 'br' && this.skipDepth === 0) this.element('br', -1, null, at).endIndex = at;
      return;
    }
    const pos = this.names.lastIndexOf(name);
    if (pos >= 0) {
      while (this.names.length > pos) this.popElement(at);
    } else if (name === 'p') {
      // htmlparser2 opens and closes an empty <p> for a stray </p>.
      const implied = P_RULES.closesOnOpen!;
      while (this.names.length > 0 && implied.has(this.names[this.names.length - 1]!)) this.popElement(at);
      if (this.skipDepth === 0) this.element('p', -1, null, at).endIndex = at;
    }
  }

  private popElement(at: number): void {
    const from = this.childrenFrom.pop()!;
    const element = this.open.pop() as Element;
    if (this.skipDepth === 0 || this.names.length === this.skipDepth) {
      element.endIndex = at;
      element.children = this.children.slice(from, this.childCount);
      this.childCount = from;
    }
    this.names.pop();
    if (this.names.length < this.skipDepth) this.skipDepth = 0;
    this.lastText = null;
  }

  /** `<!--...-->`, `<![CDATA[...]]>` (a comment in HTML) or `<!DOCTYPE ...>`. */
  private declaration(at: number): number {
    const html = this.html;
    if (html.charCodeAt(at + 2) === DASH && html.charCodeAt(at + 3) === DASH) {
      const close = html.indexOf('-->', at + 2);
      // A comment the page ends in holds the rest of the page (as one cut in a CDATA section).
      if (close < 0) {
        if (at + 4 < html.length) this.comment(utf8(html.slice(at + 4)));
        return html.length;
      }
      this.comment(close > at + 4 ? utf8(html.slice(at + 4, close)) : '');
      return close + 3;
    }
    if (html.startsWith('[CDATA[', at + 2)) {
      const close = html.indexOf(']]>', at + 9);
      if (close < 0) {
        if (at + 9 < html.length) this.comment(`[CDATA[${utf8(html.slice(at + 9))}]]`);
        return html.length;
      }
      this.comment(`[CDATA[${utf8(html.slice(at + 9, close))}]]`);
      return close + 3;
    }
    return this.instruction(at + 2, '!');
  }

  private comment(data: string): void {
    this.add(new Comment(data));
  }

  /** `<!name ...>` or `<?name ...>`: a processing instruction node, as htmlparser2 makes. */
  private instruction(from: number, mark: '!' | '?'): number {
    const gt = this.html.indexOf('>', from);
    // Cut by the page's end, it is text, without its "<!" or "<?".
    if (gt < 0) return this.trailingText(from, this.html.length);
    const value = utf8(this.html.slice(from, gt));
    const nameEnd = value.search(/\s|\//);
    const name = (nameEnd < 0 ? value : value.slice(0, nameEnd)).toLowerCase();
    this.add(new ProcessingInstruction(`${mark}${name}`, `${mark}${value}`));
    return gt + 1;
  }
}

/**
 * Elements whose content a parser never reads (site navigation, other products' carousels), told
 * by tag name and id: the element stays in the tree, empty, and its content is only scanned for
 * where it ends.
 */
export type LeaveOut = (name: string, id: string | undefined) => boolean;

export interface TreeOptions {
  leaveOut?: LeaveOut;
  /**
   * Decode every element's attributes while building, for pages whose parse reads most of them
   * (a search page's cards): decoding on first use would read most tags twice.
   */
  eagerAttributes?: boolean;
}

/** Parses a page; see the module comment for what "as htmlparser2" covers. */
export function buildPageTree(page: PageInput, options: TreeOptions = {}): PageTree {
  return new TreeBuilder(PageSource.of(page).raw, options).build();
}
