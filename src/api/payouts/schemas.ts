import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';
import { accountNumber, listedBankCode } from '../transfers/schemas.js';

export const payoutBody = z.object({
  accountName: text(),
  accountNumber,
  bankName: text(),
  bankCode: listedBankCode,
});
export type PayoutInput = z.infer<typeof payoutBody>;

// What the routes answer.

export const payoutAccount = lazy('PayoutAccount', () =>
  z.strictObject({
    id: z.string(),
    accountName: z.string(),
    accountNumber: z.string(),
    bankCode: z.string(),
    bankName: z.string(),
    clientId: z.string().describe('the client the account belongs to: every business of the client sees it'),
    createdAt: isoDate(),
  }),
);
export type PayoutAccountView = z.infer<ReturnType<typeof payoutAccount>>;
