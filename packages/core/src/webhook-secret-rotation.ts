/** A webhook's replaced secret (sealed by SecretBox) that still signs, as a second `v1=`, until `expiresAt`; both null: none. */
export interface PreviousWebhookSecret {
  sealed: string | null;
  expiresAt: Date | null;
}

/**
 * What a kept webhook configuration's previous secret becomes when `next` is stored over its
 * secret `stored` (both sealed); undefined: it stays as it is.
 */
export type WebhookSecretRotation = (
  stored: string,
  next: { secretEncrypted: string; sameSecretAs?: (sealed: string) => boolean },
  now: Date,
) => PreviousWebhookSecret | undefined;

/**
 * The rotation rule of webhook signing secrets (docs/events-and-webhooks.md, "Secret rotation"):
 * a changed secret starts a rotation, the replaced one signing too for `graceMs` (0: no rotation,
 * and one in progress ends); the same secret keeps a rotation in progress; a rotation during a
 * rotation drops the oldest secret, so a delivery carries two signatures at most.
 *
 * Secrets are compared sealed. Equal ciphertexts are the same secret, but one secret sealed twice
 * gives two ciphertexts (a fresh IV each time), so only `sameSecretAs`, from a caller holding the
 * key, can tell a new secret from the same one sent back: without it no rotation starts.
 */
export function webhookSecretRotation(graceMs: number): WebhookSecretRotation {
  return (stored, next, now) => {
    const unchanged = stored === next.secretEncrypted || !next.sameSecretAs || next.sameSecretAs(stored);
    if (unchanged) return undefined;
    if (graceMs <= 0) return { sealed: null, expiresAt: null };
    return { sealed: stored, expiresAt: new Date(now.getTime() + graceMs) };
  };
}
