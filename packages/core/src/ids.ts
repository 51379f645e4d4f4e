import { randomBytes } from 'node:crypto';

/** Prefixed, opaque, URL-safe ids (Stripe style): the prefix tells a human what an id names. */
export type IdPrefix =
  'org' | 'usr' | 'prj' | 'key' | 'job' | 'evt' | 'whk' | 'dlv' | 'sch' | 'ses' | 'tok' | 'inv' | 'alr' | 'alt' | 'dst';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** 16 random base-36 characters (~82 bits): unguessable enough for ids, short enough to read. */
export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}_${out}`;
}

/** Ids are validated before they reach SQL so that garbage paths are a clean 404. */
export const ID_PATTERN = /^[a-z]{3}_[0-9a-z]{16}$/;
