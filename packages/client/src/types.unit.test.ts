import type { ExportFormat, LlmExport, ProductChangedDelivery, ResultItem, WebhookLogEntry } from './types';

/**
 * Type-level checks of drift the hand-kept SDK types once had; `pnpm typecheck`
 * compiles this file, so a regression fails CI before any test runs. The values also run.
 */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(value: T) => value;

it('a webhook log entry may lack its delivery id but always has a duration', () => {
  expect(is<Equal<WebhookLogEntry['deliveryId'], string | null>>(true)).toBe(true);
  expect(is<Equal<WebhookLogEntry['durationMs'], number>>(true)).toBe(true);
});

it('the llm export is an object with a version and items, not an array', () => {
  expect(is<Equal<LlmExport['schemaVersion'], '1.3'>>(true)).toBe(true);
  expect(is<LlmExport extends unknown[] ? false : true>(true)).toBe(true);
  const formats: ExportFormat[] = ['json', 'jsonl', 'csv', 'llm'];
  expect(formats).toHaveLength(4);
});

it('product.changed carries prices as numbers and the full snapshot', () => {
  type Change = ProductChangedDelivery['data']['changes'][number];
  expect(is<Equal<Extract<Change, { field: 'price' }>['to'], number>>(true)).toBe(true);
  expect(
    is<
      Equal<
        keyof ProductChangedDelivery['data']['snapshot'],
        | 'price'
        | 'listPrice'
        | 'currency'
        | 'availability'
        | 'rating'
        | 'reviewsCount'
        | 'title'
        | 'seller'
        | 'bestSellersRank'
        | 'isPrime'
        | 'mainImage'
        | 'lowestNewPrice'
      >
    >(true),
  ).toBe(true);
});

it('result items are a union told apart by their keys', () => {
  const describe = (item: ResultItem) => {
    if ('keyword' in item) return `${item.keyword}#${item.position}`;
    if ('condition' in item) return `${item.asin} offer ${item.position}`;
    if ('rank' in item) return `${item.asin} rank ${item.rank}`;
    if ('body' in item) return `${item.asin} review ${item.id}`;
    return `${item.target}:${item.availability.status}`;
  };
  expect(describe({ keyword: 'usb', position: 1 } as ResultItem)).toBe('usb#1');
  expect(describe({ asin: 'B000000001', position: 2, condition: 'New' } as ResultItem)).toBe('B000000001 offer 2');
  expect(describe({ asin: 'B000000001', rank: 3 } as ResultItem)).toBe('B000000001 rank 3');
});
