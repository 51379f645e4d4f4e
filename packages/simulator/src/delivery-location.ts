/**
 * Where the shopper is, as the marketplace's "Deliver to" control sets it (docs/crawling.md,
 * "Delivery location"): the postal codes each marketplace knows, the place a code names
 * ("Chicago 60601"), the deliver-to block every page's navigation shows, and the sessions that
 * chose a place. A session is the `session-id` cookie the simulator issued; the place it chose
 * is kept here, server-side, as Amazon keeps it behind its session cookies.
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from './html';
import type { MarketLocale } from './locale';
import { fnv1a } from './prng';

/** The form of each marketplace's postal codes (upper-cased, runs of spaces made one); others take 3-10 letters, digits, spaces or hyphens. */
const POSTAL_CODES: Record<string, RegExp> = {
  US: /^\d{5}(?:-\d{4})?$/,
  UK: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/,
  JP: /^\d{3}-?\d{4}$/,
  BR: /^\d{5}-?\d{3}$/,
  NL: /^\d{4} ?[A-Z]{2}$/,
  PL: /^\d{2}-?\d{3}$/,
  SE: /^\d{3} ?\d{2}$/,
  IN: /^\d{6}$/,
  SG: /^\d{6}$/,
  AU: /^\d{4}$/,
  BE: /^\d{4}$/,
};
const FIVE_DIGITS = /^\d{5}$/;
for (const code of ['DE', 'FR', 'IT', 'ES', 'MX', 'TR', 'SA', 'EG']) POSTAL_CODES[code] = FIVE_DIGITS;
const ANY_CODE = /^[A-Z\d][A-Z\d -]{1,8}[A-Z\d]$/;

/** A code as the marketplace writes it (JP `100-0001`, UK `W12 7RJ`), or null when the marketplace does not know it. */
export function marketPostalCode(marketplace: string, raw: string): string | null {
  const code = raw.replace(/\s+/g, ' ').trim().toUpperCase();
  if (!(POSTAL_CODES[marketplace] ?? ANY_CODE).test(code)) return null;
  const compact = code.replace(/[\s-]/g, '');
  if (marketplace === 'JP') return `${compact.slice(0, 3)}-${compact.slice(3)}`;
  if (marketplace === 'BR') return `${compact.slice(0, 5)}-${compact.slice(5)}`;
  if (marketplace === 'PL') return `${compact.slice(0, 2)}-${compact.slice(2)}`;
  if (marketplace === 'UK' || marketplace === 'CA') return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  if (marketplace === 'NL' || marketplace === 'SE') return `${compact.slice(0, -2)} ${compact.slice(-2)}`;
  return code;
}

/** The key a refusal or an expiry names a code by: case, spaces and hyphens ignored. */
export const postalKey = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

const CITIES: Record<string, readonly string[]> = {
  US: ['Chicago', 'Seattle', 'Austin', 'Denver', 'Boston', 'Miami', 'Portland', 'Phoenix'],
  UK: ['London', 'Manchester', 'Leeds', 'Bristol', 'Glasgow'],
  DE: ['Berlin', 'München', 'Hamburg', 'Köln', 'Leipzig'],
  FR: ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Lille'],
  IT: ['Roma', 'Milano', 'Torino', 'Napoli', 'Bologna'],
  ES: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao'],
  CA: ['Toronto', 'Vancouver', 'Ottawa', 'Calgary'],
  JP: ['東京都', '大阪府', '京都府', '北海道'],
  IN: ['Mumbai', 'Delhi', 'Bengaluru', 'Chennai'],
  BR: ['São Paulo', 'Rio de Janeiro', 'Curitiba'],
  MX: ['Ciudad de México', 'Guadalajara', 'Monterrey'],
};

/** The place a code names on a marketplace: a city drawn from the code, then the code (UK: its outward part, as Amazon shows it). */
export function placeOf(marketplace: string, postalCode: string): string {
  const cities = CITIES[marketplace];
  const shown = marketplace === 'UK' ? postalCode.split(' ')[0]! : postalCode;
  return cities ? `${cities[fnv1a(`${postalKey(postalCode)}#city`) % cities.length]!} ${shown}` : shown;
}

/** The place a session without a chosen one is shown: a fixed US city, elsewhere the country (the older layout). */
const DEFAULT_US_CODE = '20147';
export function defaultPostalCode(marketplace: string): string | null {
  return marketplace === 'US' ? DEFAULT_US_CODE : null;
}

/** The deliver-to block's two lines for a session's place (null: none chosen, the marketplace's default). */
export function glowLines(locale: MarketLocale, postalCode: string | null): [string, string] {
  const t = locale.texts;
  const code = postalCode ?? defaultPostalCode(locale.code);
  // 2025 layout: the place in line 1, the update link in line 2; older layout: the country in line 2.
  if (code) return [`${t.deliveringTo} ${placeOf(locale.code, code)}`, t.updateLocation];
  return [t.deliverTo, locale.country.replace(/^the /, '')];
}

/** The navigation's deliver-to block (`#glow-ingress-block`), as the built-in pages carry it. */
export function glowBlock(locale: MarketLocale, postalCode: string | null = null): string {
  const [line1, line2] = glowLines(locale, postalCode);
  return `<div id="nav-global-location-slot"><span id="nav-global-location-data-modal-action" class="a-declarative nav-progressive-attribute" data-action="a-modal"><a id="nav-global-location-popover-link" role="button" tabindex="0" class="nav-a nav-a-2 a-popover-trigger a-declarative nav-progressive-attribute" href="javascript:void(0)"><div class="nav-sprite nav-progressive-attribute" id="nav-packard-glow-loc-icon"></div><div id="glow-ingress-block"><span class="nav-line-1 nav-progressive-content" id="glow-ingress-line1">${escapeHtml(line1)}</span><span class="nav-line-2 nav-progressive-content" id="glow-ingress-line2">${escapeHtml(line2)}</span></div></a></span></div>`;
}

/** The built-in pages' navigation belt: the logo and the deliver-to block. */
export function navBelt(locale: MarketLocale): string {
  return `<header id="navbar-main" class="nav-opaque"><div id="nav-belt"><div class="nav-left"><a href="${locale.origin}/ref=nav_logo" id="nav-logo-sprites" class="nav-logo-link nav-progressive-attribute" aria-label="Amazon"><span class="nav-sprite nav-logo-base"></span></a>${glowBlock(locale)}</div></div></header>`;
}

const LINE1 = Buffer.from('glow-ingress-line1');
const LINE2 = Buffer.from('glow-ingress-line2');
const TAG_END = Buffer.from('>');
const SPAN_END = Buffer.from('</span>');

/** Where the text of the element whose id is at `at` sits: after its tag, before its `</span>`; null when malformed. */
function textRange(body: Buffer, id: Buffer): [number, number] | null {
  const at = body.indexOf(id);
  if (at < 0) return null;
  const start = body.indexOf(TAG_END, at + id.length);
  const end = start < 0 ? -1 : body.indexOf(SPAN_END, start);
  return end < 0 ? null : [start + 1, end];
}

/**
 * `body` with its deliver-to lines replaced (saved pages and built-in ones alike); the body
 * itself when it has no block (the offers panel's ajax pages). Searches the bytes only, no
 * decoding, so a 1.5 MB page costs two `indexOf`s.
 */
export function withGlowLines(body: Buffer, [line1, line2]: [string, string]): Buffer {
  const one = textRange(body, LINE1);
  const two = one ? textRange(body.subarray(one[1]), LINE2) : null;
  if (!one || !two) return body;
  const twoStart = one[1] + two[0];
  const twoEnd = one[1] + two[1];
  const [first, second] = [Buffer.from(escapeHtml(line1)), Buffer.from(escapeHtml(line2))];
  // already naming the place (a located page, located-page.ts): no second copy of the page
  if (body.subarray(one[0], one[1]).equals(first) && body.subarray(twoStart, twoEnd).equals(second)) return body;
  return Buffer.concat([body.subarray(0, one[0]), first, body.subarray(one[1], twoStart), second, body.subarray(twoEnd)]);
}

/** How a refused postal code is refused: the address change says so, or says it worked while pages keep showing the place before. */
export type RefusalMode = 'not-updated' | 'other-place';
export interface Refusal {
  postalCode: string;
  mode: RefusalMode;
}

/** The place a session chose. */
export interface SessionLocation {
  marketplace: string;
  postalCode: string;
}

/** Sessions remembered with a place; beyond that the oldest forget theirs (as the anti-bot registry forgets ids). */
const MAX_LOCATIONS = 100_000;

/** The refused codes from the control API's body; throws TypeError (nothing changes then). */
export function validateRefusals(input: unknown): Refusal[] {
  if (input === null || input === undefined) return [];
  if (!Array.isArray(input)) throw new TypeError('refused postal codes must be an array of { postalCode, mode? }');
  return input.map((entry: unknown, i) => {
    const raw = entry as { postalCode?: unknown; mode?: unknown } | null;
    if (typeof raw !== 'object' || raw === null || typeof raw.postalCode !== 'string' || !postalKey(raw.postalCode))
      throw new TypeError(`refused[${i}].postalCode must be a non-empty string`);
    const mode = raw.mode ?? 'not-updated';
    if (mode !== 'not-updated' && mode !== 'other-place') throw new TypeError(`refused[${i}].mode must be "not-updated" or "other-place"`);
    return { postalCode: raw.postalCode, mode };
  });
}

/**
 * The places sessions chose, the tokens of the deliver-to flow and the test controls over them.
 * Tokens are derived from the session id and a secret of this simulator, so a token from another
 * session (or another run) is refused.
 */
export class LocationRegistry {
  private readonly secret = randomBytes(16).toString('hex');
  private readonly bySession = new Map<string, SessionLocation>();
  private refusals = new Map<string, Refusal>();

  /** `step` 1: the home page's modal token (for the selections request); 2: the selections' CSRF token (for the address change). */
  token(sessionId: string, step: 1 | 2): string {
    const parts = [0, 1, 2, 3, 4, 5].map((i) => fnv1a(`${this.secret}#${sessionId}#${step}#${i}`).toString(16).padStart(8, '0'));
    return Buffer.from(parts.join(''), 'hex').toString('base64');
  }

  of(sessionId: string | null): SessionLocation | null {
    return sessionId ? (this.bySession.get(sessionId) ?? null) : null;
  }

  refusalOf(postalCode: string): Refusal | null {
    return this.refusals.get(postalKey(postalCode)) ?? null;
  }

  set(sessionId: string, location: SessionLocation): void {
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, location);
    if (this.bySession.size > MAX_LOCATIONS) this.bySession.delete(this.bySession.keys().next().value!);
  }

  /** Drops the place of every session that chose `postalCode` (all sessions without it); returns how many. */
  expire(postalCode?: string | null): number {
    const key = postalCode ? postalKey(postalCode) : null;
    let n = 0;
    for (const [id, location] of this.bySession)
      if (key === null || postalKey(location.postalCode) === key) {
        this.bySession.delete(id);
        n++;
      }
    return n;
  }

  setRefusals(input: unknown): void {
    this.refusals = new Map(validateRefusals(input).map((r) => [postalKey(r.postalCode), r]));
  }

  list(): { sessions: ({ sessionId: string } & SessionLocation)[]; refused: Refusal[] } {
    return {
      sessions: [...this.bySession].map(([sessionId, l]) => ({ sessionId, ...l })),
      refused: [...this.refusals.values()],
    };
  }
}
