import * as http from 'node:http';
import * as https from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import { guardedLookup, staticCheck } from '@crawl/webhook-delivery';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/** Where a destination writes, with the key that may write there. */
export interface StorageTarget {
  bucket: string;
  region: string;
  /** An S3-compatible service's URL; absent for AWS itself. */
  endpoint: string | null;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A refused endpoint: a private address or an internal name, before any byte is sent. */
export class EndpointNotAllowed extends Error {
  readonly code = 'EndpointNotAllowed';
}

export interface StorageClientOptions {
  /** The operator's `WEBHOOK_ALLOW_PRIVATE_URLS`: the same egress rule as webhooks. */
  allowPrivate: boolean;
  /** Per request: connecting, and a silent socket (default 30 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * An S3 client for one destination. A tenant-given endpoint is checked like a webhook URL
 * (http(s), no credentials in it, no private or loopback address, no internal name), and every
 * connection goes through the guarded lookup, so a name that resolves elsewhere later (DNS
 * rebinding) cannot reach an internal address either. The SDK follows no redirects. Endpoints
 * use path-style addressing, which every S3-compatible store understands.
 */
export function storageClient(target: StorageTarget, options: StorageClientOptions): S3Client {
  if (target.endpoint !== null) {
    const checked = staticCheck(target.endpoint, options.allowPrivate);
    if (!checked.ok) throw new EndpointNotAllowed(`endpoint ${checked.reason}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agentOptions = { keepAlive: true, maxSockets: 8, ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }) };
  return new S3Client({
    region: target.region,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    ...(target.endpoint !== null ? { endpoint: target.endpoint, forcePathStyle: true } : {}),
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions),
      connectionTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    }),
  });
}
