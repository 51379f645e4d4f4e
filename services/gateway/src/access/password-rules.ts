import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@crawl/core';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * What a new password must be (docs/accounts.md, "Passwords"): length, no control characters,
 * not only whitespace, more than a few distinct characters, and not one of the most common
 * passwords. The list is zxcvbn's (about 49,000 passwords from public breaches), read offline;
 * only its entries long enough to pass the length rule are kept.
 */

/** Fewer distinct characters than this is a pattern (`aaaaaaaaaa`, `ababababab`), not a password. */
const MIN_DISTINCT_CHARACTERS = 4;

let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN_LENGTH).map((p) => p.toLowerCase()));
  return common;
}

/** Why `password` is refused as a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  // C0 and C1 controls (NUL, tab, newline, DEL, ...): invisible, and they break the fields they reach
  if (/[\u0000-\u001f\u007f-\u009f]/.test(password)) return 'must not contain control characters';
  if (!password.trim()) return 'must not be only spaces';
  if (new Set(password).size < MIN_DISTINCT_CHARACTERS) return `must use at least ${MIN_DISTINCT_CHARACTERS} different characters`;
  if (commonPasswords().has(password.trim().toLowerCase())) return 'is one of the most common passwords; choose another';
  return undefined;
}
