import { SecretBox } from './secrets';
import { webhookSecretRotation } from './webhook-secret-rotation';

const box = SecretBox.fromKey('a'.repeat(64));
const now = new Date('2026-12-01T10:00:00.000Z');
const DAY_MS = 24 * 3_600_000;

/** What the gateway's webhooks service stores for `secret`: sealed, with the comparison only it can make. */
const sending = (secret: string) => ({
  secretEncrypted: box.encrypt(secret),
  sameSecretAs: (sealed: string) => box.decrypt(sealed) === secret,
});

it('a changed secret starts a rotation: the replaced one signs too until the grace ends', () => {
  const stored = box.encrypt('whsec_old');
  expect(webhookSecretRotation(DAY_MS)(stored, sending('whsec_new'), now)).toEqual({
    sealed: stored,
    expiresAt: new Date(now.getTime() + DAY_MS),
  });
});

it('the same secret sent back (sealed anew) keeps a rotation in progress', () => {
  const stored = box.encrypt('whsec_same');
  const again = sending('whsec_same');
  expect(again.secretEncrypted).not.toBe(stored);
  expect(webhookSecretRotation(DAY_MS)(stored, again, now)).toBeUndefined();
  expect(webhookSecretRotation(DAY_MS)(stored, { secretEncrypted: stored }, now)).toBeUndefined();
});

it('starts no rotation when the caller cannot tell the secrets apart (no sameSecretAs)', () => {
  expect(webhookSecretRotation(DAY_MS)(box.encrypt('whsec_old'), { secretEncrypted: box.encrypt('whsec_new') }, now)).toBeUndefined();
});

it('without a grace a changed secret ends any rotation in progress', () => {
  expect(webhookSecretRotation(0)(box.encrypt('whsec_old'), sending('whsec_new'), now)).toEqual({ sealed: null, expiresAt: null });
});

it('a rotation during a rotation keeps only the secret being replaced: two signatures at most', () => {
  const rotate = webhookSecretRotation(DAY_MS);
  const first = box.encrypt('whsec_first');
  const second = box.encrypt('whsec_second');
  expect(rotate(first, sending('whsec_second'), now)?.sealed).toBe(first);
  // the stored secret is now the second; the first, still the previous one, is dropped
  expect(rotate(second, sending('whsec_third'), now)?.sealed).toBe(second);
});
