import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets): AES-256-GCM with a random 96-bit IV per value.
 * Stored form: `v1.<iv>.<auth tag>.<ciphertext>` (base64url), so the format can change later
 * without guessing. GCM's tag makes a tampered or wrongly-keyed value fail loudly.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Accepts 32 bytes as 64 hex characters or base64/base64url. */
  static fromKey(raw: string): SecretBox {
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (64 hex characters or base64)');
    return new SecretBox(key);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A new webhook signing secret: `whsec_` + 256 random bits. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
