import { generateWebhookSecret, SecretBox } from './secrets';

const KEY = 'a'.repeat(64);

it('round-trips, never stores the plaintext, and uses a fresh IV each time', () => {
  const box = SecretBox.fromKey(KEY);
  const secret = generateWebhookSecret();
  const a = box.encrypt(secret);
  const b = box.encrypt(secret);
  expect(a).not.toContain(secret);
  expect(a).not.toBe(b);
  expect(box.decrypt(a)).toBe(secret);
  expect(box.decrypt(b)).toBe(secret);
});

it('rejects tampering, another key and bad keys', () => {
  const box = SecretBox.fromKey(KEY);
  const stored = box.encrypt('s3cret');
  const parts = stored.split('.');
  const flipped = Buffer.from(parts[3]!, 'base64url');
  flipped[0] = flipped[0]! ^ 1;
  expect(() => box.decrypt([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'))).toThrow();
  expect(() => SecretBox.fromKey('b'.repeat(64)).decrypt(stored)).toThrow();
  expect(() => box.decrypt('v2.x.y.z')).toThrow(/format/);
  expect(() => SecretBox.fromKey('short')).toThrow(/32 bytes/);
  expect(
    SecretBox.fromKey(Buffer.alloc(32, 7).toString('base64')).decrypt(
      SecretBox.fromKey(Buffer.alloc(32, 7).toString('base64')).encrypt('x'),
    ),
  ).toBe('x');
});
