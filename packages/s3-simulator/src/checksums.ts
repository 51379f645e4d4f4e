import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { S3Error } from './s3-error';

/** A running checksum of an upload, in S3's base64 form (`x-amz-checksum-*`). */
export interface Checksum {
  update(data: Buffer): void;
  base64(): string;
}

class Crc32 implements Checksum {
  private value = 0;
  update(data: Buffer): void {
    this.value = crc32(data, this.value);
  }
  base64(): string {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(this.value >>> 0);
    return out.toString('base64');
  }
}

class Digest implements Checksum {
  private readonly hash: Hash;
  constructor(algorithm: 'sha1' | 'sha256') {
    this.hash = createHash(algorithm);
  }
  update(data: Buffer): void {
    this.hash.update(data);
  }
  base64(): string {
    return this.hash.digest('base64');
  }
}

/** The header each algorithm's value travels in (as a header, or as an aws-chunked trailer). */
export const CHECKSUM_HEADERS = [
  'x-amz-checksum-crc32',
  'x-amz-checksum-crc32c',
  'x-amz-checksum-crc64nvme',
  'x-amz-checksum-sha1',
  'x-amz-checksum-sha256',
];

/**
 * The checksum an `x-amz-checksum-*` name asks for. CRC32C and CRC64NVME need code Node does not
 * ship: they are refused rather than stored unchecked (clients of this store use CRC32, the AWS
 * SDK's default).
 */
export function checksumFor(header: string): Checksum {
  switch (header) {
    case 'x-amz-checksum-crc32':
      return new Crc32();
    case 'x-amz-checksum-sha1':
      return new Digest('sha1');
    case 'x-amz-checksum-sha256':
      return new Digest('sha256');
    default:
      throw new S3Error(400, 'InvalidRequest', `This store does not check ${header}; use CRC32, SHA1 or SHA256.`);
  }
}
