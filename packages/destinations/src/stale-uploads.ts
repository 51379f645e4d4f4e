import { AbortMultipartUploadCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * Aborts the multipart uploads left open under exactly `key` (an attempt killed midway leaves
 * its parts, which the bucket's owner pays for until a lifecycle rule removes them). Best effort:
 * a key without the list permission, or a store without the call, just leaves them.
 * Returns how many were aborted.
 */
export async function abortStaleUploads(client: S3Client, bucket: string, key: string): Promise<number> {
  let aborted = 0;
  try {
    const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
    for (const upload of listed.Uploads ?? []) {
      if (upload.Key !== key || !upload.UploadId) continue;
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: upload.UploadId }));
      aborted++;
    }
  } catch {
    // the upload that follows reports a storage that cannot be written; this one only tidies
  }
  return aborted;
}
