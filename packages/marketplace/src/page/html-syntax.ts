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

/** Elements whose body is text up to their own closing tag (only <title>'s has entities decoded). */
const RAW_TEXT_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/** What the rules above say about one tag name, gathered so a builder looks them up once per name. */
export interface TagRules {
  /** The (lower-case) name; the same string for every tag of this name a builder reuses it for. */
  readonly name: string;
  readonly closesOnOpen: ReadonlySet<string> | undefined;
  readonly isVoid: boolean;
  readonly rawText: boolean;
  readonly foreignContext: boolean;
  readonly htmlIntegration: boolean;
}

export function tagRules(name: string): TagRules {
  return {
    name,
    closesOnOpen: OPEN_IMPLIES_CLOSE.get(name),
    isVoid: VOID_ELEMENTS.has(name),
    rawText: RAW_TEXT_TAGS.has(name),
    foreignContext: FOREIGN_CONTEXT.has(name),
    htmlIntegration: HTML_INTEGRATION.has(name),
  };
}
