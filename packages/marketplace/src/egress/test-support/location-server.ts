/**
 * Test support (not exported from the package): a local marketplace that serves the deliver-to
 * flow of docs/crawling.md, "Delivery location" (home page token, address selections token,
 * address change) and pages that show the location their request's cookies carry.
 */
import type http from 'node:http';
import { type RecordingServer, startRecordingServer } from '@crawl/testing';
import { ownPage } from '../../test-support/own-pages';
import { ADDRESS_CHANGE_PATH, SELECTIONS_PATH } from '../location-setup';

export const DETAILS_ASIN = 'B0TSTPWRBK';
/** A details page without a deliver-to block of its own. */
export const BLOCKLESS_ASIN = 'B0TSTSCN01';
export const HOME_TOKEN = 'home-token+/=';
export const SELECTIONS_TOKEN = 'selections-token';

export interface LocationServerState {
  /** Postal codes the address change answers as not updated. */
  refused: Set<string>;
  /** Postal codes accepted whose pages still show DEFAULT_PLACE. */
  ignored: Set<string>;
  /** Requests with their method, the token header they carried and when they arrived (ms since epoch). */
  log: { method: string; path: string; token: string | undefined; cookie: string; body: string; at: number }[];
  /** Address change bodies received. */
  changes: Record<string, unknown>[];
}

export const DEFAULT_PLACE = 'Aldie 20105';

const cookiesOf = (req: http.IncomingMessage) =>
  Object.fromEntries(
    (req.headers.cookie ?? '')
      .split(/;\s*/)
      .filter(Boolean)
      .map((c) => c.split('=') as [string, string]),
  );

/** A page with its own deliver-to block first in the body (any block the page had is renamed away). */
function withBlock(html: string, place: string): string {
  const renamed = html.replace(/glow-ingress-(block|line1|line2)/g, 'old-glow-$1');
  const block =
    `<div id="nav-global-location-slot"><div id="glow-ingress-block"><span class="nav-line-1" id="glow-ingress-line1">Delivering to ${place}</span>` +
    `<span class="nav-line-2" id="glow-ingress-line2">Update location</span></div></div>`;
  return renamed.replace(/<body[^>]*>/, (m) => `${m}${block}`);
}

const HOME = (token: string) =>
  '<html><body><div id="nav-global-location-slot"><span id="nav-global-location-data-modal-action" class="a-declarative" ' +
  `data-a-modal="{&quot;width&quot;:375,&quot;url&quot;:&quot;/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&amp;pageType=Gateway&quot;,&quot;ajaxHeaders&quot;:{&quot;anti-csrftoken-a2z&quot;:&quot;${token}&quot;},&quot;header&quot;:&quot;Choose your location&quot;}" ` +
  'data-action="a-modal"><a>Deliver to</a></span></div><div id="gw">home</div></body></html>';

export async function startLocationServer(): Promise<RecordingServer & { state: LocationServerState }> {
  const state: LocationServerState = { refused: new Set(), ignored: new Set(), log: [], changes: [] };
  const details = ownPage('details-US-2026.html');
  const blockless = ownPage('details-US-2019.html').replace(/glow-ingress-(block|line1|line2)/g, 'old-glow-$1');
  let sessions = 0;
  const server = await startRecordingServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const token = req.headers['anti-csrftoken-a2z'] as string | undefined;
      const cookies = cookiesOf(req);
      state.log.push({ method: req.method ?? '', path: req.url ?? '', token, cookie: req.headers.cookie ?? '', body, at: Date.now() });
      const html = (text: string, headers: Record<string, string> = {}) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(text);
      if (req.url === '/') return html(HOME(HOME_TOKEN), { 'set-cookie': `session-id=${++sessions}; Path=/` });
      if (req.url === SELECTIONS_PATH) {
        if (token !== HOME_TOKEN || !cookies['session-id']) return res.writeHead(400).end('bad token');
        return html(`<script>P.declare("glow", { CSRF_TOKEN : "${SELECTIONS_TOKEN}", IDs : {} });</script><div>addresses</div>`);
      }
      if (req.url === ADDRESS_CHANGE_PATH && req.method === 'POST') {
        if (token !== SELECTIONS_TOKEN) return res.writeHead(400).end('bad token');
        const change = JSON.parse(body) as { zipCode: string };
        state.changes.push(change);
        if (state.refused.has(change.zipCode))
          return res.writeHead(200, { 'content-type': 'application/json' }).end('{"isValidAddress":0,"isAddressUpdated":0}');
        return res
          .writeHead(200, { 'content-type': 'application/json', 'set-cookie': `loc=${encodeURIComponent(change.zipCode)}; Path=/` })
          .end('{"isValidAddress":1,"isTransitOutOfAis":0,"isAddressUpdated":1}');
      }
      const loc = cookies.loc ? decodeURIComponent(cookies.loc) : null;
      const place = loc && !state.ignored.has(loc) ? `Springfield ${loc}` : DEFAULT_PLACE;
      if (req.url?.startsWith(`/dp/${DETAILS_ASIN}`)) return html(withBlock(details, place));
      if (req.url?.startsWith(`/dp/${BLOCKLESS_ASIN}`)) return html(blockless);
      return res.writeHead(404).end('<html>Page Not Found</html>');
    });
  });
  return Object.assign(server, { state });
}
