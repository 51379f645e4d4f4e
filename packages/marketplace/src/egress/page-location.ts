import { type MarketplaceCode, postalCodeMatches } from '@crawl/core';
import { PageSource } from '../page';
import { type DeliveryLocation, deliveryLocationOf } from '../parsers/delivery-location';

/** Bytes read before and after the block's id: its start tag, and its two lines (deliveryLocationOf reads 3,000). */
const BEFORE = 512;
const AFTER = 3_200;
const BLOCK_ID = /id\s*=\s*["']glow-ingress-block["']/;

/**
 * The deliver-to block of a page: `null` when the page has none of its own (the offers panel's
 * ajax pages), else the place it shows (`location` null: it names none, "Select your address").
 * Only a slice of bytes around the block is decoded, on the event loop: a page is parsed in a
 * parse thread, and this must not decode a 3 MB body a second time here.
 */
export function deliverToBlock(body: Buffer, marketplace: MarketplaceCode): { location: DeliveryLocation | null } | null {
  for (let at = body.indexOf('glow-ingress-block'); at >= 0; at = body.indexOf('glow-ingress-block', at + 1)) {
    const start = Math.max(0, at - BEFORE);
    const slice = body.subarray(start, at + AFTER);
    // the name also appears in styles and scripts: only an element's id counts
    if (!BLOCK_ID.test(slice.toString('latin1', Math.max(0, at - start - 16), at - start + 32))) continue;
    return { location: deliveryLocationOf(PageSource.of(slice), marketplace) };
  }
  return null;
}

export type LocationCheck = { ok: true; location: DeliveryLocation; inherited: boolean } | { ok: false; detail: string };

/**
 * Whether a page of a job with `postalCode` was served for it, from its deliverToBlock (read
 * before the page goes to a parse thread, which takes its bytes) (docs/crawling.md, "Delivery
 * location"): its block names the code (or its leading part); a page without a block of its
 * own inherits `before` (the location its session's last page showed, or else the one its
 * address change set).
 */
export function checkPageLocation(block: ReturnType<typeof deliverToBlock>, postalCode: string, before: DeliveryLocation): LocationCheck {
  if (!block) return { ok: true, location: before, inherited: true };
  const shown = block.location;
  if (shown?.postalCode && postalCodeMatches(shown.postalCode, postalCode)) return { ok: true, location: shown, inherited: false };
  return {
    ok: false,
    detail: shown ? `the page delivers to "${shown.text}", not ${postalCode}` : `the page names no delivery location, not ${postalCode}`,
  };
}
