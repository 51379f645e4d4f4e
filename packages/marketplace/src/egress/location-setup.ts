import { detectPageKind } from '../parsers/page-kind';
import type { ExitOutcome } from './exits';
import type { FetchPageOptions, FetchResult } from './fetch-page';

/**
 * Setting a location session's delivery location the way a shopper does with the "Deliver to"
 * control (docs/crawling.md, "Delivery location"): the home page, the address selections with
 * the home page's token, the address change with the selections' token. Every request goes to
 * the marketplace origin only, through the session's exit (a turn of its politeness each).
 */

export const SELECTIONS_PATH =
  '/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal';
export const ADDRESS_CHANGE_PATH = '/portal-migration/hz/glow/address-change?actionSource=glow';
const TOKEN_HEADER = 'anti-csrftoken-a2z';

/** Bodies this small may be robot checks (theirs are 5-10 KB); bigger ones are not scanned for one. */
const SMALL_PAGE_BYTES = 64 * 1024;

/**
 * What an answer says about the request and its exit, before its content is read: a refusal
 * (robot check, 429, 403 and other 4xx) rests the exit; a 5xx, a network failure or a redirect
 * is an upstream failure. Null: a 2xx worth reading.
 */
export function answerTrouble(result: FetchResult): { exit: ExitOutcome; code: 'BLOCKED' | 'UPSTREAM_ERROR'; detail: string } | null {
  if (result.kind === 'network_error') return { exit: 'error', code: 'UPSTREAM_ERROR', detail: result.message };
  if (result.kind === 'redirect_refused')
    return { exit: 'other', code: 'UPSTREAM_ERROR', detail: `redirect not followed (${result.reason})` };
  const { status, body } = result;
  if (body.length < SMALL_PAGE_BYTES && detectPageKind(body) === 'captcha')
    return { exit: 'blocked', code: 'BLOCKED', detail: 'robot check' };
  if (status >= 500) return { exit: 'error', code: 'UPSTREAM_ERROR', detail: `answered ${status}` };
  if (status < 200 || status >= 300) return { exit: 'blocked', code: 'BLOCKED', detail: `answered ${status}` };
  return null;
}

const ENTITIES: Record<string, string> = {
  quot: '"',
  amp: '&',
  apos: "'",
  lt: '<',
  gt: '>',
  '#34': '"',
  '#39': "'",
  '#x22': '"',
  '#x27': "'",
};
const unescapeAttribute = (value: string) => value.replace(/&(#?x?[0-9a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m);

/** The start tag around byte `at` of `raw`: from its `<` to the first `>` outside quotes. */
function tagAround(raw: string, at: number): string {
  const start = raw.lastIndexOf('<', at);
  let quote = '';
  for (let i = at; i < raw.length && i < at + 20_000; i++) {
    const c = raw[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return raw.slice(start, i + 1);
  }
  return raw.slice(start, at + 20_000);
}

/**
 * The home page's token for the selections request: `ajaxHeaders['anti-csrftoken-a2z']` of the
 * `data-a-modal` JSON on `#nav-global-location-data-modal-action`; null when the page has none.
 */
export function modalToken(body: Buffer): string | null {
  const raw = body.toString('latin1');
  const found = /id\s*=\s*["']nav-global-location-data-modal-action["']/.exec(raw);
  if (!found) return null;
  const tag = tagAround(raw, found.index);
  const attr = /\sdata-a-modal\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag);
  if (!attr) return null;
  try {
    const modal = JSON.parse(unescapeAttribute(attr[1] ?? attr[2] ?? '')) as { ajaxHeaders?: Record<string, unknown> };
    const token = modal.ajaxHeaders?.[TOKEN_HEADER];
    return typeof token === 'string' && token ? token : null;
  } catch {
    return null;
  }
}

/** The selections answer's token for the address change (`CSRF_TOKEN : "..."`), or null. */
export function selectionsToken(body: Buffer): string | null {
  return /CSRF_TOKEN\s*:\s*["']([^"']+)["']/.exec(body.toString('utf8'))?.[1] ?? null;
}

/**
 * Whether the address change answer says the location was set: true, false (refused:
 * `isValidAddress` or `isAddressUpdated` 0), or null when the answer is not the JSON expected.
 */
export function addressUpdated(body: Buffer): boolean | null {
  try {
    const answer = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (typeof answer !== 'object' || answer === null || !('isAddressUpdated' in answer)) return null;
    const yes = (v: unknown) => v === true || Number(v) === 1;
    return yes(answer.isAddressUpdated) && (!('isValidAddress' in answer) || yes(answer.isValidAddress));
  } catch {
    return null;
  }
}

/** The address change's body, as the deliver-to control sends it. */
export function addressChangeBody(postalCode: string): string {
  return JSON.stringify({
    locationType: 'LOCATION_INPUT',
    zipCode: postalCode,
    deviceType: 'web',
    storeContext: 'generic',
    pageType: 'Gateway',
    actionSource: 'glow',
  });
}

export type SetupResult =
  | { ok: true }
  /** The marketplace answered that it did not take the location. */
  | { ok: false; refused: true; detail: string }
  | { ok: false; refused: false; code: 'BLOCKED' | 'UPSTREAM_ERROR'; detail: string; retryable: boolean };

/**
 * One request of the setup through the session (and a turn of its exit); the sender reports the
 * answer's exit outcome (answerTrouble) to the exit.
 */
export type SetupSend = (url: string, xhr?: FetchPageOptions['xhr']) => Promise<FetchResult>;

/**
 * Sets `postalCode` as the session's delivery location: three requests, each of which may fail
 * (a robot check, a 5xx: retryable like a page) or lack its token (the flow changed: an upstream
 * failure, retried elsewhere). An answer that the address was not updated is a refusal.
 */
export async function setUpLocation(origin: string, postalCode: string, send: SetupSend): Promise<SetupResult> {
  const failed = (step: string, result: FetchResult): SetupResult | null => {
    const trouble = answerTrouble(result);
    if (!trouble) return null;
    const retryable = !(result.kind === 'redirect_refused' && result.reason === 'off_origin');
    return { ok: false, refused: false, code: trouble.code, detail: `location setup, ${step}: ${trouble.detail}`, retryable };
  };
  const noToken = (step: string): SetupResult => ({
    ok: false,
    refused: false,
    code: 'UPSTREAM_ERROR',
    detail: `location setup, ${step}: no ${TOKEN_HEADER} token`,
    retryable: true,
  });

  const home = await send(`${origin}/`);
  const homeFailed = failed('home page', home);
  if (homeFailed || home.kind !== 'response') return homeFailed!;
  const first = modalToken(home.body);
  if (!first) return noToken('home page');

  const selections = await send(`${origin}${SELECTIONS_PATH}`, { headers: { [TOKEN_HEADER]: first } });
  const selectionsFailed = failed('address selections', selections);
  if (selectionsFailed || selections.kind !== 'response') return selectionsFailed!;
  const second = selectionsToken(selections.body);
  if (!second) return noToken('address selections');

  const change = await send(`${origin}${ADDRESS_CHANGE_PATH}`, {
    headers: { [TOKEN_HEADER]: second },
    body: addressChangeBody(postalCode),
  });
  const changeFailed = failed('address change', change);
  if (changeFailed || change.kind !== 'response') return changeFailed!;
  const updated = addressUpdated(change.body);
  if (updated === null)
    return {
      ok: false,
      refused: false,
      code: 'UPSTREAM_ERROR',
      detail: 'location setup: unreadable address change answer',
      retryable: true,
    };
  if (!updated) return { ok: false, refused: true, detail: 'location setup: the address change was answered as not updated' };
  return { ok: true };
}
