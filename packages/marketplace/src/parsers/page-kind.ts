/**
 * Classifies a fetched Amazon page from cheap string probes on the raw HTML
 * (no DOM parse): this runs before every parse and on every blocked response.
 */
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

function includesAny(hay: string, needles: readonly string[]): boolean {
  for (const n of needles) if (hay.includes(n)) return true;
  return false;
}

export function detectPageKind(html: string): PageKind {
  if (!html) return 'unknown';
  // Interstitials are tiny; product/search pages are 0.3-2 MB. Probe the head and the
  // whole lowercase text only when the page is small enough to be an interstitial.
  const head = html.slice(0, 20000);
  if (CAPTCHA_TITLE_RE.test(head)) return 'captcha';
  // Every search layout has s-result-item rows; detail pages never do. Each probe is a
  // full scan of a 1-2 MB string when it misses, so the cheapest decisive ones go first.
  const isSearch = html.includes('s-result-item') && includesAny(html, SEARCH_MARKERS);
  const isDetails = !isSearch && includesAny(html, DETAILS_MARKERS);
  if (!isSearch && !isDetails) {
    const lower = html.toLowerCase();
    if (includesAny(lower, CAPTCHA_STRONG) || includesAny(lower, CAPTCHA_TEXTS)) return 'captcha';
    return 'unknown';
  }
  // A real page can still be a captcha wrapped in site chrome: the captcha form wins.
  if (html.length < 60000) {
    const lower = html.toLowerCase();
    if (lower.includes('/errors/validatecaptcha') || lower.includes('captchacharacters')) return 'captcha';
  }
  return isSearch ? 'search' : 'details';
}
