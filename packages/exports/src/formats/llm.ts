import { type JobType, LLM_SCHEMA_VERSION, type LlmExport, type LlmExportItem, type ResultItem } from '@crawl/core';
import type { JobRow } from '@crawl/db';
import { EXPORT_KINDS, type ExportKind } from '../kinds';
import type { Format } from './format';

export function llmHeader(job: JobRow, generatedAt: Date): string {
  const meta = {
    id: job.id,
    type: job.type,
    marketplace: job.marketplace,
    lang: job.lang,
    targets: job.targets,
    createdAt: job.created_at.toISOString(),
    finishedAt: job.finished_at?.toISOString() ?? null,
    resultsCount: job.results_count,
  } satisfies LlmExport['job'];
  return `{"schemaVersion":${JSON.stringify(LLM_SCHEMA_VERSION)},"generatedAt":${JSON.stringify(generatedAt.toISOString())},"job":${JSON.stringify(meta)},"items":[`;
}

/**
 * One item of the `llm` contract (`llmExportItemSchema` in @crawl/core): the same keys, in the
 * same order, for every kind of row (null where a kind has no such value), prices as decimal
 * numbers in major units with an ISO 4217 currency, ratings on a 0-5 scale.
 */
export function llmItem(job: JobRow, item: ResultItem): LlmExportItem {
  // The registry entry of the job's type reads the items of that type (what the job stored).
  const v = (EXPORT_KINDS[job.type] as ExportKind<JobType>).llm(item);
  return {
    source: job.type,
    query: v.query,
    rank: v.rank ?? null,
    organicRank: v.organicRank ?? null,
    page: v.page ?? null,
    asin: v.asin,
    marketplace: job.marketplace,
    url: v.url ?? null,
    title: v.title ?? null,
    brand: v.brand ?? null,
    price: v.price ?? null,
    listPrice: v.listPrice ?? null,
    currency: v.currency ?? null,
    rating: v.rating ?? null,
    reviewCount: v.reviewCount ?? null,
    availability: v.availability ?? null,
    isPrime: v.isPrime ?? null,
    isSponsored: v.isSponsored ?? null,
    imageUrl: v.imageUrl ?? null,
    images: v.images ?? [],
    features: v.features ?? [],
    description: v.description ?? null,
    categories: v.categories ?? [],
    bestSellersRank: v.bestSellersRank ?? [],
    seller: v.seller ?? null,
    badges: v.badges ?? [],
    specifications: v.specifications ?? {},
    condition: v.condition ?? null,
    shipping: v.shipping ?? null,
    isBuyBox: v.isBuyBox ?? null,
    fulfilledByAmazon: v.fulfilledByAmazon ?? null,
    reviewId: v.reviewId ?? null,
    author: v.author ?? null,
    date: v.date ?? null,
    verifiedPurchase: v.verifiedPurchase ?? null,
    helpfulVotes: v.helpfulVotes ?? null,
    variant: v.variant ?? null,
    parentAsin: v.parentAsin ?? null,
    manufacturer: v.manufacturer ?? null,
    modelNumber: v.modelNumber ?? null,
    weight: v.weight ?? null,
    dimensions: v.dimensions ?? null,
    firstAvailable: v.firstAvailable ?? null,
    ratingHistogram: v.ratingHistogram ?? null,
    coupon: v.coupon ?? null,
    boughtPastMonth: v.boughtPastMonth ?? null,
    shipsFrom: v.shipsFrom ?? null,
    newOffersCount: v.newOffersCount ?? null,
    isbn13: v.isbn13 ?? null,
    totalResults: v.totalResults ?? null,
    deliveryLocation: v.deliveryLocation ?? null,
    postalCode: v.postalCode ?? null,
    deliveryPromise: v.deliveryPromise ?? null,
    deliveryDate: v.deliveryDate ?? null,
    unitPrice: v.unitPrice ?? null,
    unitPriceUnit: v.unitPriceUnit ?? null,
    stockQuantity: v.stockQuantity ?? null,
    lowestNewPrice: v.lowestNewPrice ?? null,
    subscribeAndSave: v.subscribeAndSave ?? null,
    gtin: v.gtin ?? null,
    fetchedAt: item.fetchedAt,
    sourceUrl: item.sourceUrl,
    missingFields: item.missingFields,
  };
}

/**
 * One JSON document (`llmExportSchema` in @crawl/core): the job's metadata, then its items in
 * the `llm` contract, one source for every job type (the `llm` mapping of export/<type>.ts).
 */
export const llm: Format = {
  contentType: 'application/json; charset=utf-8',
  extension: 'llm.json',
  header: (job, generatedAt) => llmHeader(job, generatedAt),
  row: (job, item, index) => `${index === 0 ? '' : ','}${JSON.stringify(llmItem(job, item))}`,
  footer: () => ']}',
};
