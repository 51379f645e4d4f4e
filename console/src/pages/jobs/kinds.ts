import type { Schemas } from '../../api/client';

export type Job = Schemas['Job'];
export type JobType = Schemas['CreateJobBody']['type'];
export type JobStatus = Job['status'];

/**
 * Every job type of the API with what its targets are. Typed by the OpenAPI enum: a type the API
 * adds or drops fails the console's type-check here instead of going missing from the form.
 */
export const JOB_TYPES: Record<JobType, { label: string; target: string; placeholder: string; pages?: { max: number; what: string } }> = {
  search: {
    label: 'Search',
    target: 'One search keyword per line, e.g. “usb c cable”.',
    placeholder: 'usb c cable\nwireless mouse',
    pages: { max: 7, what: 'Result pages per keyword' },
  },
  details: {
    label: 'Product details',
    target: 'One product per line: an ASIN (B0DR8G428S) or a product URL (…/dp/B0DR8G428S).',
    placeholder: 'B0DR8G428S\nhttps://www.amazon.com/dp/B08N5WRWNW',
  },
  offers: {
    label: 'Offers',
    target: 'One product per line whose offers (sellers, prices) to list: an ASIN or a product URL.',
    placeholder: 'B0DR8G428S',
  },
  bestsellers: {
    label: 'Best sellers',
    target: 'One best-seller list URL per line, on the chosen marketplace, e.g. https://www.amazon.com/gp/bestsellers/electronics.',
    placeholder: 'https://www.amazon.com/gp/bestsellers/electronics',
  },
  reviews: {
    label: 'Reviews',
    target: 'One product per line whose reviews to collect: an ASIN or a product URL.',
    placeholder: 'B0DR8G428S',
    pages: { max: 10, what: 'Review pages per product' },
  },
};
export const JOB_TYPE_KEYS = Object.keys(JOB_TYPES) as JobType[];

/** Job statuses, in lifecycle order (typed by the API's enum, like the types above). */
const STATUS_BADGE: Record<JobStatus, 'ok' | 'warn' | 'bad' | ''> = {
  queued: '',
  running: 'warn',
  completed: 'ok',
  failed: 'bad',
  cancelled: '',
};
export const JOB_STATUSES = Object.keys(STATUS_BADGE) as JobStatus[];
export const statusBadge = (status: JobStatus) => `badge ${STATUS_BADGE[status]}`.trim();
export const isActive = (status: JobStatus) => status === 'queued' || status === 'running';
export const isJobStatus = (v: string | undefined): v is JobStatus => !!v && v in STATUS_BADGE;
export const isJobType = (v: string | undefined): v is JobType => !!v && v in JOB_TYPES;

/**
 * The marketplaces the API accepts (`config.marketplace`, packages/core/src/marketplaces.ts), with the
 * names people know them by. The OpenAPI document types the field as a plain string, so this list is kept
 * by hand: a code the API refuses comes back as a validation error on the field.
 */
export const MARKETPLACES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'US', name: 'United States (amazon.com)' },
  { code: 'UK', name: 'United Kingdom (amazon.co.uk)' },
  { code: 'DE', name: 'Germany (amazon.de)' },
  { code: 'FR', name: 'France (amazon.fr)' },
  { code: 'IT', name: 'Italy (amazon.it)' },
  { code: 'ES', name: 'Spain (amazon.es)' },
  { code: 'CA', name: 'Canada (amazon.ca)' },
  { code: 'MX', name: 'Mexico (amazon.com.mx)' },
  { code: 'BR', name: 'Brazil (amazon.com.br)' },
  { code: 'JP', name: 'Japan (amazon.co.jp)' },
  { code: 'IN', name: 'India (amazon.in)' },
  { code: 'AU', name: 'Australia (amazon.com.au)' },
  { code: 'NL', name: 'Netherlands (amazon.nl)' },
  { code: 'SE', name: 'Sweden (amazon.se)' },
  { code: 'PL', name: 'Poland (amazon.pl)' },
  { code: 'TR', name: 'Türkiye (amazon.com.tr)' },
  { code: 'AE', name: 'United Arab Emirates (amazon.ae)' },
  { code: 'SA', name: 'Saudi Arabia (amazon.sa)' },
  { code: 'SG', name: 'Singapore (amazon.sg)' },
  { code: 'BE', name: 'Belgium (amazon.com.be)' },
  { code: 'EG', name: 'Egypt (amazon.eg)' },
];
export const marketplaceName = (code: string) => MARKETPLACES.find((m) => m.code === code)?.name ?? code;

/** Whole numbers with the viewer's separators. */
export const count = (n: number) => n.toLocaleString();
