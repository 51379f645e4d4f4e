/**
 * Saved offer-listing and review pages re-targeted at any ASIN (best-seller lists:
 * bestsellers-template.ts): the page's own ids are slots (see patch-template.ts), so another
 * product's offers or reviews carry that product's ASIN, review ids differ per product and page,
 * and the "next page" link is present on every page but the last, as on Amazon. Everything else
 * (sellers, review texts) is the saved page's.
 */
import { fnv1a } from './prng';
import { nextPageItem, PatchTemplate, type Needle } from './patch-template';

const REVIEW_ID_RE = /\bid="(R[A-Z0-9]{8,20})"/g;

type ReviewSlot = 'asin' | 'next' | number;

/** An offer listing (`/gp/offer-listing/{ASIN}`, page n at `?startIndex=(n-1)*10`) for any ASIN and page. */
export class OffersTemplate {
  private readonly template: PatchTemplate<'asin' | 'next'>;
  private readonly nextLabel: string;

  constructor(
    page: Buffer,
    readonly ownAsin: string,
    private readonly origin: string,
  ) {
    const next = nextPageItem(page.toString('latin1'));
    const needles: Needle<'asin' | 'next'>[] = [{ text: ownAsin, slot: 'asin' }];
    if (next) needles.push({ text: next.text, slot: 'next' });
    this.template = new PatchTemplate(page, needles);
    this.nextLabel = next?.label ?? 'Next';
  }

  /** Page `pageNo` of `asin`'s offers (the saved page's rows); `last` shows the disabled "Next" item instead of a link. */
  render(asin: string, pageNo = 1, last = true): Buffer {
    const label = this.nextLabel;
    const next = last
      ? `<li class="a-disabled a-last">${label}<span class="a-letter-space"></span><span class="a-letter-space"></span>&rarr;</li>`
      : `<li class="a-last"><a href="${this.origin}/gp/offer-listing/${asin}/ref=olp_page_next?ie=UTF8&amp;f_all=true&amp;startIndex=${pageNo * 10}">${label}<span class="a-letter-space"></span><span class="a-letter-space"></span>&rarr;</a></li>`;
    const values = { asin: Buffer.from(asin), next: Buffer.from(next, 'latin1') };
    return this.template.render((slot) => values[slot]);
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
