/**
 * Classifies a fetched Amazon page from cheap string probes on the raw HTML
 * (no DOM parse): this runs before every parse and on every blocked response.
 * The markup markers are ASCII and searched in the page's source (its bytes, page/page-source.ts);
 * the localized texts are searched in decoded text, only where a page is small or has no markup
 * of any kind.
 */
import type { JobType } from '@crawl/core';
import { type PageInput, PageSource } from '../page';
import type { PageKind } from './types';

/** Markers that only robot-check / captcha interstitials carry, in any marketplace. */
const CAPTCHA_STRONG = [
  '/errors/validatecaptcha', // form action of the classic and the "continue shopping" interstitials
  'id="captchacharacters"',
  "id='captchacharacters'",
  'opfcaptcha.amazon', // ue_sn of the captcha host
  'api-services-support@amazon.com', // "to discuss automated access" comment of bot pages
  'amazon-captcha', // newer JS/WAF captcha challenge
  'captcha.awswaf.com',
];

/** Localized captcha instructions; only trusted when the page has no product or result markup. */
const CAPTCHA_TEXTS = [
  'enter the characters you see below',
  'type the characters you see in this image',
  "sorry, we just need to make sure you're not a robot",
  "make sure you're not a robot",
  'geben sie die zeichen unten ein', // de
  'geben sie die unten angezeigten zeichen ein',
  'saisissez les caractères que vous voyez ci-dessous', // fr
  'introduce los caracteres que ves a continuación', // es
  'introduzca los caracteres que ve a continuación',
  'inserisci i caratteri visualizzati', // it
  'digite os caracteres que você vê abaixo', // pt-BR
  'introduza os caracteres que vê abaixo', // pt-PT
  'voer de tekens in die u hieronder ziet', // nl
  'ange tecknen du ser nedan', // sv
  'wprowadź znaki widoczne poniżej', // pl
  'aşağıda gördüğünüz karakterleri girin', // tr
  '表示されている文字を入力してください', // ja
  'أدخل الأحرف التي تراها أدناه', // ar
];

const CAPTCHA_TITLE_RE =
  /<title[^>]*>\s*(?:robot check|bot check|amazon\.[a-z.]+\s*(?:-|–)?\s*captcha|captcha|roboter-?check|vérification robot|verificación de robot|controllo robot)\s*<\/title>/i;

const DETAILS_MARKERS = [
  'id="productTitle"',
  "id='productTitle'",
  'id="dp-container"',
  'id="ppd"',
  'id="ASIN"',
  'name="ASIN"',
  'id="title_feature_div"',
  'id="ebooksProductTitle"',
];

const SEARCH_MARKERS = [
  'data-component-type="s-search-result"',
  "data-component-type='s-search-result'",
  'id="s-results-list-atf"',
  'id="atfResults"',
  's-result-list',
  'id="search"',
  's-search-results',
];

/**
 * Rendered offer rows: legacy "Buying Choices" rows (class olpOffer, a template of its own without
 * product-page markers) and the 2021+ All Offers Display panel (#aod-offer-list, #aod-pinned-offer,
 * #aod-offer), which a browser-saved product page can contain. Product pages otherwise carry only
 * the empty AOD shell (#all-offers-display, #aod-background), never these ids.
 */
const AOD_OFFER_IDS = ['offer"', 'offer-list"', 'pinned-offer"'];

/** One scan of the page (every product page pays it): walks the few id="aod-..." occurrences. */
function hasAodOffers(html: string): boolean {
  const prefix = 'id="aod-';
  for (let at = html.indexOf(prefix); at >= 0; at = html.indexOf(prefix, at + prefix.length)) {
    for (const id of AOD_OFFER_IDS) if (html.startsWith(id, at + prefix.length)) return true;
  }
  return false;
}

/** Customer review pages (/product-reviews/ASIN); product pages also use data-hook="review", so they are told apart first. */
const REVIEWS_MARKERS = ['data-hook="review"', 'id="cm_cr-review_list"'];

/** Best-seller lists: the 2021+ grid and the 2019-2021 / pre-2019 lists. Product pages only link /zgbs/. */
const BESTSELLERS_MARKERS = ['id="gridItemRoot"', 'zg-item-immersion', 'zg_itemImmersion'];

/**
 * The /ap/signin page (sign-in wall): its form and e-mail/password inputs. Ordinary pages only
 * *link* to /ap/signin (nav, review vote buttons), so links are no evidence.
 */
const SIGNIN_MARKERS = [
  'name="signIn"',
  "name='signIn'",
  'id="ap_email"',
  'id="ap_email_login"',
  'id="ap_password"',
  'id="authportal-main-section"',
  'id="ap_login_form"',
];

function includesAny(hay: string, needles: readonly string[]): boolean {
  for (const n of needles) if (hay.includes(n)) return true;
  return false;
}

/** A captcha form wrapped in site chrome (pages under 60,000 bytes only: real pages are 0.3-2 MB). */
function isWrappedCaptcha(source: PageSource): boolean {
  if (source.length >= 60000) return false;
  const lower = source.text().toLowerCase();
  return lower.includes('/errors/validatecaptcha') || lower.includes('captchacharacters');
}

/** The interstitials a crawl must not parse as content: they burn the session or fail the target. */
export type InterstitialKind = 'captcha' | 'signin';

/** The page kinds with content (one per job type, so a type without its probe does not compile), each with its markup probe. */
export type ContentKind = JobType;
const CONTENT_PROBES: Record<ContentKind, (html: string) => boolean> = {
  details: (html) => includesAny(html, DETAILS_MARKERS),
  // Every search layout has s-result-item rows; detail pages never do.
  search: (html) => html.includes('s-result-item') && includesAny(html, SEARCH_MARKERS),
  offers: (html) => html.includes('olpOffer') || hasAodOffers(html),
  reviews: (html) => includesAny(html, REVIEWS_MARKERS),
  bestsellers: (html) => includesAny(html, BESTSELLERS_MARKERS),
};
const CONTENT_KINDS = Object.keys(CONTENT_PROBES) as ContentKind[];

/** A content page that is neither a search nor a product page. */
type ListingKind = Exclude<ContentKind, 'search' | 'details'>;
/**
 * The listing kinds in the order detectPageKind tells them apart, after search and product pages:
 * every content kind but those two, in CONTENT_PROBES' order (offer rows win over review markup,
 * review markup over a best-seller list). A new job type, which must have its probe, is one
 * without being listed here (page-kind.unit.test.ts checks them against MARKETPLACE_KINDS).
 */
export const LISTING_KINDS: readonly ListingKind[] = CONTENT_KINDS.filter(
  (kind): kind is ListingKind => kind !== 'search' && kind !== 'details',
);

/**
 * Whether the page has the markup of any content kind, the expected one probed first: a probe
 * that misses scans the whole 1-2 MB page, one that hits usually stops early.
 */
function hasContent(html: string, expected: ContentKind): boolean {
  return CONTENT_PROBES[expected](html) || CONTENT_KINDS.some((kind) => kind !== expected && CONTENT_PROBES[kind](html));
}

const isCaptchaTitled = (source: PageSource): boolean => CAPTCHA_TITLE_RE.test(source.text(0, 20000));

/** A page without any content markers: a sign-in form, a captcha in any language, or unknown. */
function markerlessKind(source: PageSource): PageKind {
  if (includesAny(source.raw, SIGNIN_MARKERS)) return 'signin';
  const lower = source.text().toLowerCase();
  if (includesAny(lower, CAPTCHA_STRONG) || includesAny(lower, CAPTCHA_TEXTS)) return 'captcha';
  return 'unknown';
}

/**
 * `detectPageKind(html)` when that is 'captcha' or 'signin', else null: what a parser asks before
 * it parses a page of the kind it expects. On a page of the expected kind (nearly every page
 * crawled) it costs a probe that stops at the first marker, where detectPageKind scans the
 * whole page several times to tell the kinds apart.
 */
export function interstitialKind(page: PageInput, expected: ContentKind): InterstitialKind | null {
  const source = PageSource.of(page);
  if (!source.length) return null;
  if (isCaptchaTitled(source)) return 'captcha';
  if (hasContent(source.raw, expected)) return isWrappedCaptcha(source) ? 'captcha' : null;
  const kind = markerlessKind(source);
  return kind === 'captcha' || kind === 'signin' ? kind : null;
}

export function detectPageKind(page: PageInput): PageKind {
  const source = PageSource.of(page);
  const html = source.raw;
  if (!html) return 'unknown';
  // Interstitials are tiny; product/search pages are 0.3-2 MB. Probe the head and the
  // whole lowercase text only when the page is small enough to be an interstitial.
  if (isCaptchaTitled(source)) return 'captcha';
  // Each probe is a full scan of a 1-2 MB string when it misses, so the cheapest decisive ones go first.
  const isSearch = CONTENT_PROBES.search(html);
  // Offer rows win over product markup: a product page opened on its offers panel (/dp/ASIN?aod=1) is an offers page.
  const kind: PageKind | null = isSearch
    ? 'search'
    : CONTENT_PROBES.details(html) && !hasAodOffers(html)
      ? 'details'
      : (LISTING_KINDS.find((k) => CONTENT_PROBES[k](html)) ?? null);
  // A real page can still be a captcha wrapped in site chrome: the captcha form wins.
  if (kind) return isWrappedCaptcha(source) ? 'captcha' : kind;
  return markerlessKind(source);
}
