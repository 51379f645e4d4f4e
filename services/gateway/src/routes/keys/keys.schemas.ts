import { KEY_SCOPES } from '@crawl/core';
import { z } from 'zod';
import { displayName } from '../account/account.schemas';

const MAX_KEY_LIFETIME_MS = 5 * 365 * 24 * 3_600_000;

export const CreateKeyBody = z
  .object({
    label: displayName.describe('What the key is for (shown in listings)'),
    scope: z.enum(KEY_SCOPES).default('full').describe('`read`: GET requests only'),
    expiresAt: z
      .string()
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe('When the key stops working (in the future, within 5 years); none by default')
      .transform((v, ctx) => {
        if (v === undefined || v === null) return null;
        const at = new Date(v);
        if (at.getTime() <= Date.now()) ctx.addIssue({ code: 'custom', message: 'must be in the future' });
        if (at.getTime() > Date.now() + MAX_KEY_LIFETIME_MS) ctx.addIssue({ code: 'custom', message: 'must be within 5 years' });
        return at;
      }),
  })
  .strict()
  .openapi('CreateKeyBody');

export const RotateKeyBody = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .default(0)
      .describe('How long the old key keeps working (0 to 86,400 s); 0 revokes it at once'),
  })
  .strict()
  .openapi('RotateKeyBody');
