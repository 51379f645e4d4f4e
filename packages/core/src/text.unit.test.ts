import { isSafeText, sanitizeDeep } from './text';

it('accepts ordinary text in any script and refuses control characters and lone surrogates', () => {
  for (const ok of ['plain', 'tab\tand\nnewline', '🛒 emoji', 'مرحبا', 'e\u0301', '\u200bzw']) expect(isSafeText(ok)).toBe(true);
  for (const bad of ['\u0000', 'a\u0007', '\u001b[31m', '\u0085', '\ud800', '\udc00x']) expect(isSafeText(bad)).toBe(false);
});

it('sanitizes every string of a nested value', () => {
  expect(sanitizeDeep({ a: 'x\u0000y', b: ['\ud800ok', 1, null], c: { d: 'fine 🛒' } })).toEqual({
    a: 'xy',
    b: ['ok', 1, null],
    c: { d: 'fine 🛒' },
  });
});
