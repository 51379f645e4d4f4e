import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys look like `cds_<8 hex prefix>_<43 base64url chars = 256 random bits>`. The prefix
 * identifies a key in listings, logs and `revoke-key`; only the SHA-256 of the whole key is
 * stored, so a database leak reveals no usable key. SHA-256 (not a slow KDF) is enough for
 * 256-bit random secrets and keeps authentication to one indexed lookup.
 */
const API_KEY_PATTERN = /^cds_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): { apiKey: string; keyPrefix: string; keyHash: string } {
  const keyPrefix = `cds_${randomBytes(4).toString('hex')}`;
  const apiKey = `${keyPrefix}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, keyPrefix, keyHash: hashApiKey(apiKey) };
}

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
