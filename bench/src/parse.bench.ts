import fs from 'node:fs';
import path from 'node:path';
import { Tokenizer } from 'htmlparser2';
import { parseDetailsPage, parseSearchPage } from '@crawl/marketplace';
import { REPO_ROOT } from '@crawl/testing';
import { table } from './processes';

const FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures/amazon');
/** Rounds, each timing the tokenizer then the parsers over every page of a set once. */
const ROUNDS = Number(process.env.BENCH_PARSE_ROUNDS ?? 40);
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

/**
 * The floor: a page's bytes read as HTML. The tokenizer takes a string, so the bytes are made one
 * the cheapest way, a character per byte (Latin-1; the markup reads the same, see
 * docs/parsing.md), which is also how the parsers take them.
 */
function tokenize(page: Buffer): void {
  const tokenizer = new Tokenizer({}, TOKEN_CALLBACKS);
  tokenizer.write(page.toString('latin1'));
  tokenizer.end();
}

/** Milliseconds per page of `read` over `pages`, once through. */
function msPerPage<P>(pages: P[], read: (page: P) => unknown): number {
  const start = process.hrtime.bigint();
  for (const page of pages) read(page);
  return Number(process.hrtime.bigint() - start) / 1e6 / pages.length;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};

/**
 * `pnpm bench parse`: the details and search parsers against their floor, htmlparser2's tokenizer
 * alone over the same fixture pages in the same run (any parser that reads every byte pays at
 * least that). Floor and parse alternate in short rounds, so a slow spell of the machine (this VM
 * loses up to a quarter of its CPU to its neighbours at times) weighs on both alike; the figures
 * are the medians of the rounds, and the ratio is floor time / parse time (1.0 would be a parse
 * as cheap as tokenizing). Both start from the page's bytes, as a crawl worker's parse thread
 * gets them: decoding is part of a parse's cost.
 */
export async function benchParse(): Promise<void> {
  if (!fs.existsSync(FIXTURES)) throw new Error(`fixtures not found at ${FIXTURES}`);
  const files = fs.readdirSync(FIXTURES);
  const read = (prefix: string) => files.filter((f) => f.startsWith(prefix)).map((f) => fs.readFileSync(path.join(FIXTURES, f)));
  const ctx = { marketplace: 'US', origin: 'https://www.amazon.com' };
  const sets = [
    { name: 'details', pages: read('details-'), parse: (page: Buffer) => parseDetailsPage(page, ctx) },
    { name: 'search', pages: read('search-'), parse: (page: Buffer) => parseSearchPage(page, ctx) },
  ];
  // Warm both paths up first so neither side is measured cold.
  for (let i = 0; i < 3; i++) for (const set of sets) msPerPage(set.pages, (page) => (tokenize(page), set.parse(page)));
  const rounds = sets.map(() => ({ floor: [] as number[], parse: [] as number[], ratio: [] as number[], all: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    let floorMs = 0;
    let parseMs = 0;
    sets.forEach((set, i) => {
      const floor = msPerPage(set.pages, tokenize);
      const parse = msPerPage(set.pages, set.parse);
      rounds[i]!.floor.push(floor);
      rounds[i]!.parse.push(parse);
      rounds[i]!.ratio.push(floor / parse);
      floorMs += floor * set.pages.length;
      parseMs += parse * set.pages.length;
    });
    rounds[0]!.all.push(floorMs / parseMs);
  }
  const rows = sets.map((set, i) => {
    const r = rounds[i]!;
    const mb = set.pages.reduce((n, p) => n + p.length, 0) / set.pages.length / 1e6;
    return { set, floor: median(r.floor), parse: median(r.parse), ratio: median(r.ratio), mb };
  });
  const ratio = median(rounds[0]!.all);
  console.log(
    `\nparse vs htmlparser2's tokenizer alone, one core, medians of ${ROUNDS} alternating rounds:\n${table(
      rows.map((r) => ({
        pages: `${r.set.name}, ${r.set.pages.length} fixtures (avg ${r.mb.toFixed(2)} MB)`,
        'tokenizer ms/page': r.floor.toFixed(2),
        'parse ms/page': r.parse.toFixed(2),
        ratio: `${r.ratio.toFixed(2)}x`,
      })),
    )}`,
  );
  console.log(
    `\ntarget: details + search parse >= ${TARGET_RATIO}x the tokenizer (all pages): ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'} (${ratio.toFixed(2)}x)`,
  );
}
