import { csrfTokenFor, hashToken, isWellFormedToken, newToken, sameSecret } from './secrets';

it('tokens are 256-bit base64url, hashed one-way, and a CSRF token is bound to its session', () => {
  const a = newToken();
  const b = newToken();
  expect(isWellFormedToken(a)).toBe(true);
  expect(a).not.toBe(b);
  expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
  expect(hashToken(a)).not.toContain(a);
  expect(csrfTokenFor(a)).toBe(csrfTokenFor(a));
  expect(csrfTokenFor(a)).not.toBe(csrfTokenFor(b));
  expect(sameSecret(csrfTokenFor(a), csrfTokenFor(a))).toBe(true);
  expect(sameSecret(csrfTokenFor(a), csrfTokenFor(b))).toBe(false);
  expect(sameSecret('short', csrfTokenFor(a))).toBe(false);
  for (const bad of ['', 'x'.repeat(42), 'x'.repeat(44), `${'x'.repeat(42)}=`, 42, undefined]) expect(isWellFormedToken(bad)).toBe(false);
});
