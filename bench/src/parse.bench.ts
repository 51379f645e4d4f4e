import fs from 'node:fs';
import path from 'node:path';
import { Tokenizer } from 'htmlparser2';
import { parseDetailsPage, parseSearchPage } from '@crawl/marketplace';
import { REPO_ROOT } from '@crawl/testing';
import { parseRate } from './measure';
import { table } from './processes';

const FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures/amazon');
const SECONDS = Number(process.env.BENCH_PARSE_SECONDS ?? 4);
/** The parsers should read a page in at most 1 / 0.6 of the time the tokenizer alone takes. */
const TARGET_RATIO = 0.6;

const noop = () => undefined;
/** Every tokenizer callback, doing nothing: the cost of reading every byte of the page as HTML. */
const TOKEN_CALLBACKS = {
  onattribdata: noop,
  onattribentity: noop,
  onattribend: noop,
  onattribname: noop,
  oncdata: noop,
  onclosetag: noop,
  oncomment: noop,
  ondeclaration: noop,
  onend: noop,
  onopentagend: noop,
  onopentagname: noop,
  onprocessinginstruction: noop,
  onselfclosingtag: noop,
  ontext: noop,
  ontextentity: noop,
};

function tokenize(html: string): void {
  const tokenizer = new Tokenizer({}, TOKEN_CALLBACKS);
  tokenizer.write(html);
  tokenizer.end();
}

/**
 * `pnpm bench parse`: the details and search parsers against their floor, htmlparser2's tokenizer
 * alone over the same fixture pages in the same run (any parser that reads every byte pays at
 * least that). Printed: pages/s of each, and the ratio floor time / parse time (1.0 would be a
 * parse as cheap as tokenizing).
 */
export async function benchParse(): Promise<void> {
  if (!fs.existsSync(FIXTURES)) throw new Error(`fixtures not found at ${FIXTURES}`);
  const files = fs.readdirSync(FIXTURES);
  const read = (f: string) => fs.readFileSync(path.join(FIXTURES, f), 'utf8');
  const ctx = { marketplace: 'US', origin: 'https://www.amazon.com' };
  const sets = [
    { name: 'details', pages: files.filter((f) => f.startsWith('details-')).map(read), parse: (h: string) => parseDetailsPage(h, ctx) },
    { name: 'search', pages: files.filter((f) => f.startsWith('search-')).map(read), parse: (h: string) => parseSearchPage(h, ctx) },
  ];
  // Warm both paths up first so neither side is measured cold.
  for (const set of sets) parseRate(set.pages, (h) => (tokenize(h), set.parse(h)), 1);
  const rows = sets.map((set) => {
    const floor = parseRate(set.pages, tokenize, SECONDS);
    const parse = parseRate(set.pages, set.parse, SECONDS);
    const mb = set.pages.reduce((n, p) => n + p.length, 0) / set.pages.length / 1e6;
    return { set, floor, parse, ratio: parse / floor, mb };
  });
  const allFloor = rows.reduce((n, r) => n + r.set.pages.length / r.floor, 0);
  const allParse = rows.reduce((n, r) => n + r.set.pages.length / r.parse, 0);
  const ratio = allFloor / allParse;
  console.log(
    `\nparse vs htmlparser2's tokenizer alone, one core, ${SECONDS} s each:\n${table(
      rows.map((r) => ({
        pages: `${r.set.name}, ${r.set.pages.length} fixtures (avg ${r.mb.toFixed(2)} MB)`,
        'tokenizer pages/s': r.floor.toFixed(1),
        'tokenizer ms/page': (1000 / r.floor).toFixed(2),
        'parse pages/s': r.parse.toFixed(1),
        'parse ms/page': (1000 / r.parse).toFixed(2),
        ratio: `${r.ratio.toFixed(2)}x`,
      })),
    )}`,
  );
  console.log(
    `\ntarget: details + search parse >= ${TARGET_RATIO}x the tokenizer: ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'} (${ratio.toFixed(2)}x)`,
  );
}
