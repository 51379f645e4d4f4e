import { z } from './openapi-zod';

export const moneySchema = z
  .object({
    amount: z.number().describe('In major units (19.99)'),
    currency: z.string().describe('ISO 4217 code'),
  })
  .strict()
  .openapi('Money');
export type Money = z.infer<typeof moneySchema>;
