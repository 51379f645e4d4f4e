/**
 * htmlparser2's tree-building rules (its Parser, in HTML mode), for the page-tree builder: what
 * they are decides which element a selector finds, so they are kept exactly. The builder reads
 * them per tag name, through `tagRules`.
 */
const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);

/** Opening `key` first closes the innermost open elements while they are in its set. */
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t) => [t, formTags] as const),
  ...[
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t) => [t, pTag] as const),
]);

const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Inside these, `<x/>` closes itself; the integration elements switch back to HTML rules. */
const FOREIGN_CONTEXT: ReadonlySet<string> = new Set(['math', 'svg']);
const HTML_INTEGRATION: ReadonlySet<string> = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

/** The closing tag of the raw-text element whose name (in lower case) starts with these two letters. */
function rawTextEndFor(name: string): string | undefined {
  const first = name.charCodeAt(0);
  const second = name[1];
  if (first === 115 /* s */) return second === 'c' ? 'script' : second === 't' ? 'style' : undefined;
  if (first !== 116 /* t */ && first !== 120 /* x */) return undefined;
  return second === 'i' ? 'title' : second === 'e' ? 'textarea' : second === 'm' ? 'xmp' : undefined;
}

/**
 * The closing tag a raw-text element of this name (in lower case) ends at, or undefined for any
 * other element. The raw-text elements are script, style, title, textarea and xmp: their body is
 * text up to that closing tag, and only a title's has its references decoded. htmlparser2's
 * tokenizer tells them by the letters it tests, not by the whole name: the first ("s", or "t" or
 * "x") and the second pick the closing tag, whose remaining letters must follow. So <xitle> is
 * read like <title>, <xextarea> like <textarea> and <tmp> like <xmp>, each up to that closing tag.
 */
function rawTextEnd(name: string): string | undefined {
  const end = rawTextEndFor(name);
  return end !== undefined && name.length === end.length && name.endsWith(end.slice(2)) ? end : undefined;
}

/**
 * Whether the tokenizer is still testing the letters of a tag name when a page ends inside it
 * (`name`: in lower case, the page's last characters): they could begin a raw-text element's
 * name, or make one whole, and htmlparser2 then keeps them as text instead of dropping the tag.
 */
export function mayNameRawText(name: string): boolean {
  if (name.length === 1) return name === 's' || name === 't' || name === 'x';
  const end = rawTextEndFor(name);
  return end !== undefined && name.length <= end.length && end.startsWith(name.slice(2), 2);
}

/** What the rules above say about one tag name, gathered so a builder looks them up once per name. */
export interface TagRules {
  /** The (lower-case) name; the same string for every tag of this name a builder reuses it for. */
  readonly name: string;
  readonly closesOnOpen: ReadonlySet<string> | undefined;
  readonly isVoid: boolean;
  /** For a raw-text element, the closing tag its body ends at (its own name but for look-alikes such as <xitle>). */
  readonly rawTextEnd: string | undefined;
  readonly foreignContext: boolean;
  readonly htmlIntegration: boolean;
}

export function tagRules(name: string): TagRules {
  return {
    name,
    closesOnOpen: OPEN_IMPLIES_CLOSE.get(name),
    isVoid: VOID_ELEMENTS.has(name),
    rawTextEnd: rawTextEnd(name),
    foreignContext: FOREIGN_CONTEXT.has(name),
    htmlIntegration: HTML_INTEGRATION.has(name),
  };
}
