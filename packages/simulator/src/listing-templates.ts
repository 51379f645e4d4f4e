/**
 * Saved offer-listing, review and best-seller pages re-targeted at any ASIN or list: the page's
 * own ids are slots (see patch-template.ts), so another product's offers or reviews carry that
 * product's ASIN, review ids differ per product and page, and the "next page" link is present
 * on every page but the last, as on Amazon. Everything else (sellers, review texts, product
 * names of a list) is the saved page's.
 */
import { fnv1a } from './prng';
import { nextPageItem, PatchTemplate, type Needle } from './patch-template';
import { syntheticAsin } from './synthetic';

const REVIEW_ID_RE = /\bid="(R[A-Z0-9]{8,20})"/g;
/** ASINs a list page names: `data-asin`, element ids (amazon.in 2023 grid) and product links. */
const LIST_ASIN_RES = [/\bdata-asin="([A-Z0-9]{10})"/g, /\bid="([A-Z0-9]{10})"/g, /\/dp\/([A-Z0-9]{10})\b/g];

type ReviewSlot = 'asin' | 'next' | number;

/** An offer listing (`/gp/offer-listing/{ASIN}`) for any ASIN. */
export class OffersTemplate {
  private readonly template: PatchTemplate<'asin'>;

  constructor(
    page: Buffer,
    readonly ownAsin: string,
  ) {
    this.template = new PatchTemplate(page, [{ text: ownAsin, slot: 'asin' }]);
  }

  render(asin: string): Buffer {
    const value = Buffer.from(asin);
    return this.template.render(() => value);
  }
}

/** Review id `index` of page `page` of `asin`'s reviews: 'R' + 13 base-36 characters, stable. */
export function reviewId(asin: string, page: number, index: number): string {
  const seed = `${asin}#reviews#${page}#${index}`;
  return `R${(fnv1a(seed).toString(36) + fnv1a(`${seed}\u0000`).toString(36)).toUpperCase().padEnd(13, '0').slice(0, 13)}`;
}

/** A customer-review page (`/product-reviews/{ASIN}?pageNumber=n`) for any ASIN and page. */
export class ReviewsTemplate {
  private readonly template: PatchTemplate<ReviewSlot>;
  private readonly nextLabel: string;
  readonly reviewCount: number;

  constructor(
    page: Buffer,
    readonly ownAsin: string,
    private readonly origin: string,
  ) {
    const html = page.toString('latin1');
    const ids = [...new Set([...html.matchAll(REVIEW_ID_RE)].map((m) => m[1]!))];
    const next = nextPageItem(html);
    const needles: Needle<ReviewSlot>[] = [{ text: ownAsin, slot: 'asin' }, ...ids.map((text, i) => ({ text, slot: i }))];
    if (next) needles.push({ text: next.text, slot: 'next' });
    this.template = new PatchTemplate(page, needles);
    this.nextLabel = next?.label ?? 'Next page'; // HTML text as written (latin1 view of its bytes)
    this.reviewCount = ids.length;
  }

  /** Page `pageNo` of `asin`'s reviews; `last` shows the disabled "next" item instead of a link. */
  render(asin: string, pageNo: number, last: boolean): Buffer {
    const label = this.nextLabel;
    const next = last
      ? `<li class="a-disabled a-last">${label}</li>`
      : `<li class="a-last"><a href="${this.origin}/product-reviews/${asin}/ref=cm_cr_arp_d_paging_btm_next_${pageNo + 1}?ie=UTF8&amp;pageNumber=${pageNo + 1}">${label}</a></li>`;
    const values = new Map<ReviewSlot, Buffer>([
      ['asin', Buffer.from(asin)],
      ['next', Buffer.from(next, 'latin1')],
    ]);
    return this.template.render((slot) => {
      let v = values.get(slot);
      if (!v) {
        v = Buffer.from(reviewId(asin, pageNo, slot as number));
        values.set(slot, v);
      }
      return v;
    });
  }
}

/** A best-seller list page for any list path: the saved list with ASINs derived from the path. */
export class BestsellersTemplate {
  private readonly template: PatchTemplate<number>;

  constructor(page: Buffer) {
    const html = page.toString('latin1');
    const asins = [...new Set(LIST_ASIN_RES.flatMap((re) => [...html.matchAll(re)].map((m) => m[1]!)))];
    this.template = new PatchTemplate(
      page,
      asins.map((text, i) => ({ text, slot: i })),
    );
  }

  /** `listKey`: the list's path (category and page), so each list has its own stable ASINs. */
  render(listKey: string): Buffer {
    const values = new Map<number, Buffer>();
    return this.template.render((slot) => {
      let v = values.get(slot);
      if (!v) {
        v = Buffer.from(syntheticAsin(`${listKey}#${slot}`));
        values.set(slot, v);
      }
      return v;
    });
  }
}
