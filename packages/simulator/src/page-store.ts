/**
 * Everything the simulator can answer with, read into memory once at start: the bench serves
 * thousands of 1-1.5 MB pages, so no request may touch the disk or scan a page.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { AsinTemplate } from './asin-template';
import { SIGNIN_WALL_PAGE, SYNTHETIC_CAPTCHA_PAGE } from './error-pages';
import { keywordSlugs } from './keyword-slug';
import { BestsellersTemplate } from './bestsellers-template';
import { OffersTemplate, ReviewsTemplate } from './listing-templates';
import { absolutizeLinks, marketplaceOrigin } from './marketplace-hosts';
import { SearchTemplate } from './search-template';
import { LocatedShapes } from './located-page';

export interface StoredPage {
  file: string;
  /** Marketplace code from the file name (`details-DE-...` -> DE), '' when absent. */
  marketplace: string;
  body: Buffer;
}

export interface PageStore {
  fixturesDir: string | null;
  /** By ASIN (upper case). Several pages when marketplaces share an ASIN. */
  details: Map<string, StoredPage[]>;
  /** By every slug spelling of the file's keyword (see keyword-slug.ts). */
  searches: Map<string, StoredPage[]>;
  captcha: Buffer;
  /**
   * Sign-in walls: `unified` is the 2025 "Sign in or create account" page (/ax/claim form) that
   * review URLs now lead to, `classic` the /ap/signin form. Saved ones (`signin-*.html`) when
   * present, else the synthetic classic page for both.
   */
  signIn: { unified: Buffer; classic: Buffer };
  /**
   * null: no usable details fixture, unknown ASINs get the synthetic page. Its links are
   * absolute on its marketplace's host (see marketplace-hosts.ts).
   */
  detailsTemplate: AsinTemplate | null;
  /** null: no search fixture, unknown keywords get the synthetic page. Links as above. */
  searchTemplate: SearchTemplate | null;
  /** Offer listings by ASIN (`offers-US-0133356728.html`). */
  offers: Map<string, StoredPage[]>;
  /** Review pages by `ASIN#page` (`reviews-UK-B086X5XDD3-p10.html` is page 10). */
  reviews: Map<string, StoredPage[]>;
  /** Best-seller lists by category slug (`bestsellers-US-electronics.html` is `electronics`). */
  bestsellers: Map<string, StoredPage[]>;
  /** Templates for ids without a saved page; null when no such fixture exists (then 404). */
  offersTemplate: OffersTemplate | null;
  reviewsTemplate: ReviewsTemplate | null;
  /** An ASIN with saved review pages gets its other pages from its own first saved page (its language). */
  reviewTemplatesByAsin: Map<string, ReviewsTemplate>;
  bestsellersTemplate: BestsellersTemplate | null;
  /** Later pages of a saved best-seller list, by the saved (first) page's file. */
  bestsellerTemplatesByFile: Map<string, BestsellersTemplate>;
  /** Each template's marketplace, from its file's name (a located page writes prices and texts in its marketplace's way). */
  marketplaces: WeakMap<object, string>;
  /** Saved and template pages as a shopper at a postal code sees them (located-page.ts), made on first use. */
  located: LocatedShapes;
}

export const DEFAULT_DETAILS_TEMPLATE = 'details-US-B0DR8G428S.html';
export const DEFAULT_SEARCH_TEMPLATE = 'search-US-portable-charger.html';
export const DEFAULT_OFFERS_TEMPLATE = 'offers-US-0133356728.html';
export const DEFAULT_REVIEWS_TEMPLATE = 'reviews-US-B01IPHVFUI.html';
export const DEFAULT_BESTSELLERS_TEMPLATE = 'bestsellers-US-electronics.html';

/**
 * Where the saved real pages are (docs/testing.md, "Real marketplace pages"): the folder
 * `CRAWL_REAL_PAGES_DIR` names, `none` for none (a run as a plain clone), else
 * `../../../../shared/fixtures/amazon` from src/ or dist/, which is `../shared/fixtures/amazon`
 * next to the checkout. null when that folder does not exist. The same rule as the tests'
 * (packages/testing), written again because the simulator has no dependencies.
 */
export function defaultFixturesDir(env: NodeJS.ProcessEnv = readEnv()): string | null {
  const chosen = env.CRAWL_REAL_PAGES_DIR;
  if (chosen === 'none') return null;
  const dir = chosen ? path.resolve(chosen) : path.resolve(__dirname, '../../../../shared/fixtures/amazon');
  return existsSync(dir) ? dir : null;
}

/**
 * The one environment variable the simulator library reads. It is a default of a development
 * tool shared with the test harness, which starts the simulator in many processes (tests, the
 * stack of `pnpm start:sim`, bench), none of which should each have to pass it on.
 */
function readEnv(): NodeJS.ProcessEnv {
  // eslint-disable-next-line no-restricted-syntax -- see the doc comment: a development default, not service configuration
  return process.env;
}

const ASIN_RE = /^[A-Z0-9]{10}$/;
const INPUT_ASIN_RE = /<input\b[^>]*?\bid\s*=\s*["']ASIN["'][^>]*>/i;
const VALUE_RE = /\bvalue\s*=\s*["']([A-Za-z0-9]{10})["']/;
const CANONICAL_RE = /<link\b[^>]*?\brel\s*=\s*["']canonical["'][^>]*>/i;
const DP_RE = /\/(?:dp|gp\/product)\/([A-Za-z0-9]{10})(?:[/?#"']|$)/;
const DETAILS_FILE_RE = /^details-(?:([A-Z]{2})-)?(.+)\.html?$/;
const SEARCH_FILE_RE = /^search-(?:([A-Z]{2})-)?(.+)\.html?$/;
const CAPTCHA_FILE_RE = /^captcha-.*\.html?$/;
const SIGNIN_FILE_RE = /^signin-.*\.html?$/;
/** The unified sign-in page's e-mail field (the classic form's is `ap_email`). */
const UNIFIED_SIGNIN_RE = /\bid\s*=\s*["']ap_email_login["']/;
const OFFERS_FILE_RE = /^offers-(?:([A-Z]{2})-)?([A-Z0-9]{10})\.html?$/;
const REVIEWS_FILE_RE = /^reviews-(?:([A-Z]{2})-)?([A-Z0-9]{10})(?:-p(\d+))?\.html?$/;
const BESTSELLERS_FILE_RE = /^bestsellers-(?:([A-Z]{2})-)?(.+)\.html?$/;
const FILE_MARKETPLACE_RE = /^[a-z]+-([A-Z]{2})-/;

/** Marketplace code of a fixture file name (`details-DE-...` -> DE), '' when absent. */
function fileMarketplace(file: string): string {
  return FILE_MARKETPLACE_RE.exec(file)?.[1] ?? '';
}

/** The `/product-reviews/` page store key. */
export const reviewPageKey = (asin: string, page: number): string => `${asin}#${page}`;

/** A details fixture as the template for every other ASIN of its marketplace; `marketplaces` learns the template's. */
export function detailsTemplateFrom(file: string, body: Buffer, asin: string, marketplaces?: WeakMap<object, string>): AsinTemplate {
  const template = new AsinTemplate(absolutizeLinks(body, marketplaceOrigin(fileMarketplace(file))), asin);
  marketplaces?.set(template, fileMarketplace(file));
  return template;
}

/** A search fixture as the template for every other keyword of its marketplace; `marketplaces` learns the template's. */
export function searchTemplateFrom(file: string, body: Buffer, marketplaces?: WeakMap<object, string>): SearchTemplate {
  const template = new SearchTemplate(absolutizeLinks(body, marketplaceOrigin(fileMarketplace(file))));
  marketplaces?.set(template, fileMarketplace(file));
  return template;
}

/**
 * The page's own ASIN: input#ASIN, else the canonical link, else the file name. Runs once per
 * file at start; latin1 decoding keeps it cheap and the patterns are ASCII.
 */
export function pageAsin(body: Buffer, fileAsin: string | undefined): string | null {
  const html = body.toString('latin1');
  const input = INPUT_ASIN_RE.exec(html);
  const value = input ? VALUE_RE.exec(input[0]) : null;
  if (value) return value[1]!.toUpperCase();
  const canonical = CANONICAL_RE.exec(html);
  const dp = canonical ? DP_RE.exec(canonical[0]) : null;
  if (dp) return dp[1]!.toUpperCase();
  return fileAsin && ASIN_RE.test(fileAsin.toUpperCase()) ? fileAsin.toUpperCase() : null;
}

function addTo(map: Map<string, StoredPage[]>, key: string, page: StoredPage): void {
  const list = map.get(key);
  if (!list) map.set(key, [page]);
  else if (!list.includes(page)) list.push(page);
}

interface TemplateChoice {
  detailsTemplate?: string;
  searchTemplate?: string;
}

/** Reads and indexes `dir`; `null` gives an empty store served by the synthetic pages. */
export async function loadPageStore(dir: string | null, choice: TemplateChoice = {}): Promise<PageStore> {
  const store: PageStore = {
    fixturesDir: dir,
    details: new Map(),
    searches: new Map(),
    captcha: SYNTHETIC_CAPTCHA_PAGE,
    signIn: { unified: SIGNIN_WALL_PAGE, classic: SIGNIN_WALL_PAGE },
    detailsTemplate: null,
    searchTemplate: null,
    offers: new Map(),
    reviews: new Map(),
    bestsellers: new Map(),
    offersTemplate: null,
    reviewsTemplate: null,
    reviewTemplatesByAsin: new Map(),
    bestsellersTemplate: null,
    bestsellerTemplatesByFile: new Map(),
    marketplaces: new WeakMap(),
    located: new LocatedShapes(),
  };
  if (dir === null) {
    if (choice.detailsTemplate || choice.searchTemplate) throw new Error('detailsTemplate/searchTemplate need a fixturesDir');
    return store;
  }
  // Sorted so "the first fixture" (template fallback, captcha) is stable across file systems.
  const files = (await readdir(dir)).filter((f) => /\.html?$/.test(f)).sort();
  const bodies = await Promise.all(files.map((f) => readFile(path.join(dir, f))));
  const detailsAsins = new Map<string, string>();
  const searchBodies = new Map<string, Buffer>();
  let captchaFile: string | null = null;
  const signInSeen = new Set<'unified' | 'classic'>();

  files.forEach((file, i) => {
    const body = bodies[i]!; // Promise.all keeps one body per file, in order
    const details = DETAILS_FILE_RE.exec(file);
    if (details) {
      const asin = pageAsin(body, details[2]);
      if (!asin) return; // nothing to route it by
      detailsAsins.set(file, asin);
      addTo(store.details, asin, { file, marketplace: details[1] ?? '', body });
      return;
    }
    const search = SEARCH_FILE_RE.exec(file);
    if (search) {
      const page = { file, marketplace: search[1] ?? '', body };
      for (const slug of keywordSlugs(search[2]!)) addTo(store.searches, slug, page);
      searchBodies.set(file, body);
      return;
    }
    if (indexListingPage(store, file, body)) return;
    if (SIGNIN_FILE_RE.test(file)) {
      // the first saved page of each form (files are sorted)
      const form = UNIFIED_SIGNIN_RE.test(body.toString('latin1')) ? 'unified' : 'classic';
      if (!signInSeen.has(form)) store.signIn[form] = body;
      signInSeen.add(form);
      return;
    }
    // captcha-1.html is the documented one; otherwise the first captcha file.
    if (CAPTCHA_FILE_RE.test(file) && (captchaFile === null || file === 'captcha-1.html')) {
      captchaFile = file;
      store.captcha = body;
    }
  });

  store.detailsTemplate = pickDetailsTemplate(dir, files, bodies, detailsAsins, choice.detailsTemplate, store.marketplaces);
  store.searchTemplate = pickSearchTemplate(dir, searchBodies, choice.searchTemplate, store.marketplaces);
  pickListingTemplates(store);
  return store;
}

/** Files the listing pages (offers, reviews, best sellers) by their id; false for other files. */
function indexListingPage(store: PageStore, file: string, body: Buffer): boolean {
  const offers = OFFERS_FILE_RE.exec(file);
  if (offers) {
    addTo(store.offers, offers[2]!, { file, marketplace: offers[1] ?? '', body });
    return true;
  }
  const reviews = REVIEWS_FILE_RE.exec(file);
  if (reviews) {
    addTo(store.reviews, reviewPageKey(reviews[2]!, Number(reviews[3] ?? 1)), { file, marketplace: reviews[1] ?? '', body });
    return true;
  }
  const lists = BESTSELLERS_FILE_RE.exec(file);
  if (lists) {
    addTo(store.bestsellers, lists[2]!.toLowerCase(), { file, marketplace: lists[1] ?? '', body });
    return true;
  }
  return false;
}

/** The default listing templates (or the first saved page of the kind) and one review template per saved ASIN. */
function pickListingTemplates(store: PageStore): void {
  const first = (map: Map<string, StoredPage[]>, preferred: string): StoredPage | undefined => {
    const all = [...map.values()].flat().sort((a, b) => a.file.localeCompare(b.file));
    return all.find((p) => p.file === preferred) ?? all[0];
  };
  const linked = (page: StoredPage): Buffer => absolutizeLinks(page.body, marketplaceOrigin(page.marketplace));
  const offers = first(store.offers, DEFAULT_OFFERS_TEMPLATE);
  if (offers) {
    store.offersTemplate = new OffersTemplate(linked(offers), OFFERS_FILE_RE.exec(offers.file)![2]!, marketplaceOrigin(offers.marketplace));
    store.marketplaces.set(store.offersTemplate, offers.marketplace);
  }
  for (const list of [...store.bestsellers.values()].flat()) {
    const template = new BestsellersTemplate(linked(list));
    store.bestsellerTemplatesByFile.set(list.file, template);
    store.marketplaces.set(template, list.marketplace);
  }
  const lists = first(store.bestsellers, DEFAULT_BESTSELLERS_TEMPLATE);
  if (lists) store.bestsellersTemplate = store.bestsellerTemplatesByFile.get(lists.file) ?? null;
  const reviewTemplate = (page: StoredPage): ReviewsTemplate =>
    new ReviewsTemplate(linked(page), REVIEWS_FILE_RE.exec(page.file)![2]!, marketplaceOrigin(page.marketplace));
  for (const page of [...store.reviews.values()].flat().sort((a, b) => a.file.localeCompare(b.file))) {
    const asin = REVIEWS_FILE_RE.exec(page.file)![2]!;
    if (!store.reviewTemplatesByAsin.has(asin)) store.reviewTemplatesByAsin.set(asin, reviewTemplate(page));
  }
  const reviews = first(store.reviews, DEFAULT_REVIEWS_TEMPLATE);
  if (reviews) store.reviewsTemplate = store.reviewTemplatesByAsin.get(REVIEWS_FILE_RE.exec(reviews.file)![2]!) ?? null;
}

function pickDetailsTemplate(
  dir: string,
  files: string[],
  bodies: Buffer[],
  asins: Map<string, string>,
  requested: string | undefined,
  marketplaces: WeakMap<object, string>,
): AsinTemplate | null {
  if (requested !== undefined) {
    const asin = asins.get(requested);
    if (!asin) throw new Error(`detailsTemplate ${requested}: not a details page with a known ASIN in ${dir}`);
    // `asins` is keyed by file names taken from `files`, so indexOf finds it.
    return detailsTemplateFrom(requested, bodies[files.indexOf(requested)]!, asin, marketplaces);
  }
  const file = asins.has(DEFAULT_DETAILS_TEMPLATE) ? DEFAULT_DETAILS_TEMPLATE : [...asins.keys()][0];
  if (file === undefined) return null;
  return detailsTemplateFrom(file, bodies[files.indexOf(file)]!, asins.get(file) as string, marketplaces);
}

function pickSearchTemplate(
  dir: string,
  bodies: Map<string, Buffer>,
  requested: string | undefined,
  marketplaces: WeakMap<object, string>,
): SearchTemplate | null {
  if (requested !== undefined) {
    const body = bodies.get(requested);
    if (!body) throw new Error(`searchTemplate ${requested}: no such search page in ${dir}`);
    return searchTemplateFrom(requested, body, marketplaces);
  }
  const file = bodies.has(DEFAULT_SEARCH_TEMPLATE) ? DEFAULT_SEARCH_TEMPLATE : [...bodies.keys()][0];
  return file === undefined ? null : searchTemplateFrom(file, bodies.get(file)!, marketplaces);
}
