import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type StorageFailure, storageFailure } from './storage-errors';

/**
 * The test a destination passes before it is saved: a small object written under its prefix and
 * deleted again, with the credentials it was given. Both steps must succeed: a key that may
 * write but not delete would leave a test object behind on every retry of a delivery.
 */
export async function verifyDestination(
  client: S3Client,
  bucket: string,
  prefix: string,
): Promise<{ ok: true; key: string } | ({ ok: false } & StorageFailure)> {
  const key = `${prefix}.crawl-data-service-test-${randomBytes(6).toString('hex')}`;
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: 'A test object written and deleted by the crawl data service when this destination was saved.\n',
        ContentType: 'text/plain',
      }),
    );
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    return { ok: true, key };
  } catch (err) {
    return { ok: false, ...storageFailure(err) };
  }
}
