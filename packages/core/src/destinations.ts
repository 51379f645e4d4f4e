import { EXPORT_FORMAT_NAMES } from './domain';
import { ID_PATTERN } from './ids';
import { z } from './openapi-zod';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './text';

/**
 * Storage destinations (docs/destinations.md): the API's bodies and resources, one source for
 * the gateway, the deliverer, the OpenAPI document and the SDK.
 */

export const MAX_DESTINATIONS_PER_PROJECT = 10;
export const MAX_DESTINATION_SCHEDULES = 100;

const isoTimestamp = z.string().datetime();
const safe = (s: z.ZodString) => s.refine(isSafeText, UNSAFE_TEXT_MESSAGE);

/** S3's bucket naming rules: 3-63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_RE = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A key prefix of URL-safe characters (S3's "safe" set), never starting with `/` or holding `..`. */
const PREFIX_RE = /^(?!\/)(?!.*\.\.)[A-Za-z0-9!_.*'()/=-]*$/;

const fields = {
  name: safe(z.string().trim().min(1).max(100)),
  bucket: z.string().regex(BUCKET_RE, 'must be an S3 bucket name (3-63 lowercase letters, digits, dots and hyphens)'),
  region: z.string().regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as us-east-1'),
  endpoint: z
    .string()
    .max(2048)
    .url('must be an http(s) URL')
    .describe("An S3-compatible service's URL; absent or null for AWS S3. Private and loopback addresses are refused"),
  prefix: z.string().max(512).regex(PREFIX_RE, "must be letters, digits and ! _ . * ' ( ) / = - only, not start with / nor hold .."),
  accessKeyId: z.string().regex(/^[A-Za-z0-9+/=_-]{1,128}$/, 'must be an access key id'),
  secretAccessKey: safe(z.string().min(1).max(256)).describe('Stored encrypted; never returned'),
  format: z.enum(EXPORT_FORMAT_NAMES),
  gzip: z.boolean(),
  scheduleIds: z
    .array(z.string().regex(ID_PATTERN, 'must be a schedule id'))
    .max(MAX_DESTINATION_SCHEDULES)
    .describe('Only the jobs these schedules start; absent or null: every completed job of the project'),
};

export const createDestinationBody = z
  .object({
    name: fields.name,
    type: z.literal('s3'),
    bucket: fields.bucket,
    region: fields.region,
    endpoint: fields.endpoint.nullable().optional(),
    prefix: fields.prefix.optional(),
    accessKeyId: fields.accessKeyId,
    secretAccessKey: fields.secretAccessKey,
    format: fields.format,
    gzip: fields.gzip.optional(),
    scheduleIds: fields.scheduleIds.nullable().optional(),
  })
  .strict()
  .openapi('CreateDestinationBody');
export type CreateDestinationInput = z.output<typeof createDestinationBody>;

/** `PATCH`: any field; a change of where or how it writes is tested again before it is saved. */
export const updateDestinationBody = z
  .object({
    name: fields.name.optional(),
    bucket: fields.bucket.optional(),
    region: fields.region.optional(),
    endpoint: fields.endpoint.nullable().optional(),
    prefix: fields.prefix.optional(),
    accessKeyId: fields.accessKeyId.optional(),
    secretAccessKey: fields.secretAccessKey.optional(),
    format: fields.format.optional(),
    gzip: fields.gzip.optional(),
    scheduleIds: fields.scheduleIds.nullable().optional(),
  })
  .strict()
  .openapi('UpdateDestinationBody');
export type UpdateDestinationInput = z.output<typeof updateDestinationBody>;

export const destinationSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.literal('s3'),
    bucket: z.string(),
    region: z.string(),
    endpoint: z.string().nullable(),
    prefix: z.string(),
    accessKeyId: z.string(),
    format: fields.format,
    gzip: z.boolean(),
    scheduleIds: z.array(z.string()).nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .strict()
  .openapi('Destination');
export type DestinationResource = z.infer<typeof destinationSchema>;

export const DESTINATION_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const destinationDeliverySchema = z
  .object({
    destinationId: z.string(),
    jobId: z.string(),
    key: z.string().describe('The object key: {prefix}{projectId}/{YYYY}/{MM}/{DD}/{jobId}.{ext}[.gz]'),
    bytes: z.number().int().nullable().describe('The object size once delivered'),
    status: z.enum(DESTINATION_DELIVERY_STATUSES),
    attempts: z.number().int(),
    error: z
      .object({
        code: z.string().describe("The storage's error code (AccessDenied, NoSuchBucket, ...) or a network failure's"),
        message: z.string(),
      })
      .strict()
      .nullable(),
    createdAt: isoTimestamp,
    deliveredAt: isoTimestamp.nullable(),
  })
  .strict()
  .openapi('DestinationDelivery');
export type DestinationDeliveryResource = z.infer<typeof destinationDeliverySchema>;
