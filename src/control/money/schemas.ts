import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';
import { kobo } from '../../http/wire.js';
import { transactionRecord } from '../../store/records.js';

// A business's money: its balance, its approval (which opens its payment account), its ledger.

export const balanceBody = z.object({ balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

/** The ledger's filter: the entry of one transfer, by the `retrievalReference` it was sent with. */
export const ledgerQuery = z.object({
  retrievalReference: text()
    .optional()
    .describe(
      'only the entry a transfer with this reference made: its `id` is the `transactionId` of a dispute',
    ),
});
export type LedgerQuery = z.infer<typeof ledgerQuery>;

// What the routes answer.

export const balanceSet = lazy('BalanceSet', () =>
  z.strictObject({ businessId: z.string(), accountBalance: kobo() }),
);
export type BalanceSetView = z.infer<ReturnType<typeof balanceSet>>;

export const approvedBusiness = lazy('ApprovedBusiness', () =>
  z.strictObject({
    businessId: z.string(),
    isApproved: z.literal(true),
    accountNumber: z.string().describe('the payment account, a fresh NUBAN'),
    accountType: z.string(),
    customerId: z.string(),
  }),
);
export type ApprovedBusinessView = z.infer<ReturnType<typeof approvedBusiness>>;

/** Kobo as a number: the ledger shows the records as they are kept. */
export const ledger = lazy('Ledger', () =>
  z.strictObject({
    businessId: z.string(),
    openingBalance: z.number().int(),
    balance: z.number().int().describe('kobo, as kept'),
    ledgerBalance: z.number().int().describe('kobo: the opening balance plus every successful entry'),
    transactions: z
      .array(
        z.strictObject({
          ...transactionRecord.shape,
          requestId: z
            .string()
            .nullable()
            .describe(
              'the `x-request-id` of the API request that made the entry; null for entries the sandbox made itself and in states written before it was kept',
            ),
        }),
      )
      .describe('newest first, as kept'),
  }),
);
export type LedgerView = z.infer<ReturnType<typeof ledger>>;
