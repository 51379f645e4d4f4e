import type { Schemas } from '../../api/client';

type FieldChange = Schemas['FieldChange'];
type Rank = { category: string; rank: number } | null | undefined;

export const FIELD_LABELS: Record<FieldChange['field'], string> = {
  price: 'Price',
  listPrice: 'List price',
  currency: 'Currency',
  availability: 'Availability',
  rating: 'Rating',
  reviewsCount: 'Reviews',
  title: 'Title',
  seller: 'Seller',
  bestSellersRank: 'Best-sellers rank',
  isPrime: 'Prime',
  mainImage: 'Main image',
  lowestNewPrice: 'Lowest new price',
};

type Availability = NonNullable<Extract<FieldChange, { field: 'availability' }>['from']>;

/** An availability status in words, as the product page says it. */
export const AVAILABILITY_LABELS: Record<Availability, string> = {
  in_stock: 'In stock',
  out_of_stock: 'Out of stock',
  preorder: 'Preorder',
  unknown: 'Unknown',
};

export const formatRank = (rank: Rank) => (rank ? `#${rank.rank.toLocaleString()} in ${rank.category}` : '—');

export function formatMoney(amount: number | null | undefined, currency?: string | null): string {
  if (amount == null) return '—';
  if (!currency) return amount.toFixed(2);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** One side of a change, in words (a rank with its category, yes/no for Prime, money with two decimals). */
export function formatChangeValue(change: FieldChange, side: 'from' | 'to', currency?: string | null): string {
  const value = change[side];
  if (value === null || value === undefined) return '—';
  switch (change.field) {
    case 'bestSellersRank':
      return formatRank(value as Rank);
    case 'isPrime':
      return value ? 'Yes' : 'No';
    case 'availability':
      return AVAILABILITY_LABELS[value as Availability] ?? String(value);
    case 'reviewsCount':
    case 'rating':
      return typeof value === 'number' ? value.toLocaleString() : String(value);
    case 'price':
    case 'listPrice':
    case 'lowestNewPrice':
      return formatMoney(value as number, currency);
    default:
      return String(value);
  }
}
