import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@crawl/core';
import { z } from 'zod';
import { passwordProblem } from '../../access/password-rules';

/** Request bodies of the account API (docs/accounts.md). Strict: an unknown field is a 400. */

export const email = z
  .string()
  .trim()
  .max(254)
  .email()
  .transform((v) => v.toLowerCase())
  .openapi({ example: 'ada@example.com' });

/** A new password (sign-up, reset, change, a new user's invitation): the rules of access/password-rules.ts. */
export const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH ? passwordProblem(value) : undefined;
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/** A display name: trimmed, one line, no control characters (it reaches mails, tables and spreadsheets). */
export const displayName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100)
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must be one line without control characters');

export const token = z.string().min(1).max(200);

export const SignupBody = z.object({ email, password, organizationName: displayName }).strict().openapi('SignupBody');
export const VerifyEmailBody = z.object({ token }).strict().openapi('VerifyEmailBody');
export const EmailBody = z.object({ email }).strict().openapi('EmailBody');
export const SignInBody = z
  .object({ email, password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })
  .strict()
  .openapi('SignInBody');
export const ResetPasswordBody = z.object({ token, password }).strict().openapi('ResetPasswordBody');
export const ChangePasswordBody = z
  .object({ currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH), newPassword: password })
  .strict()
  .openapi('ChangePasswordBody');

/** A verification's answer: the address is verified either way; `alreadyVerified` says it was before this link. */
export const VerifyEmailResult = z
  .object({
    verified: z.literal(true),
    alreadyVerified: z
      .boolean()
      .describe(
        'The address was verified before this request: the link was opened again, or another link or a password reset verified it first. Only a link of that address answers so.',
      ),
  })
  .strict();

/** One of the signed-in user's live sessions (never its token or the token's hash). */
export const AccountSessionItem = z
  .object({
    id: z.string(),
    createdAt: z.string().datetime().describe('Sign-in time'),
    lastSeenAt: z.string().datetime().describe('Last request made with it (kept to within a minute or so)'),
    expiresAt: z.string().datetime().describe('Absolute expiry; an idle session ends earlier'),
    device: z.string().describe('A short description of the browser, from its User-Agent: `Firefox on Linux`'),
    current: z.boolean().describe('The session making this request'),
  })
  .strict()
  .openapi('AccountSessionItem');
