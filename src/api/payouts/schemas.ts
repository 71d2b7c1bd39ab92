import * as z from 'zod';
import { accountNumber, bankCode } from '../transfers/schemas.js';

export const payoutBody = z.object({
  accountName: z.string().trim().min(2).max(100),
  accountNumber,
  bankName: z.string().trim().min(2).max(100),
  bankCode,
});
export type PayoutInput = z.infer<typeof payoutBody>;
