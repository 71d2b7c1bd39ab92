import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { longPageQuery } from '../../domain/pagination.js';
import { transactionRecord } from '../../domain/records.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';
import { kobo, pagination } from '../wire.js';

// A business's money: its balance, its approval (which opens its payment account), its ledger.

export const balanceBody = deferred(() =>
  z.object({ balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
);

/** A page of the ledger (100 entries by default), and its filter: one transfer's entry, by its reference. */
export const ledgerQuery = deferred(() =>
  longPageQuery.extend({
    retrievalReference: text()
      .optional()
      .describe(
        'only the entry a transfer with this reference made: its `id` is the `transactionId` of a dispute',
      ),
  }),
);
export type LedgerQuery = z.infer<ReturnType<typeof ledgerQuery>>;
/** What a caller asks of the ledger: a page (`page`, `limit`) and the filter, each optional. */
export type LedgerFilter = z.input<ReturnType<typeof ledgerQuery>>;

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
      .describe('a page of the entries, newest first, as kept'),
    pagination: pagination().describe('of `transactions`: `page` and `limit` (100 by default, at most 1000)'),
  }),
);
export type LedgerView = z.infer<ReturnType<typeof ledger>>;

const TAG = 'Money';

export const businessId = { description: 'the `id` of the business', example: fixture.a1 };

export const setBalanceContract = contract({
  operationId: 'setBalance',
  method: 'put',
  path: '/businesses/{id}/balance',
  summary: 'Set a business’s balance',
  description: 'In kobo; the difference is a `balance_adjustment` ledger entry.',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: businessId },
  body: balanceBody,
  example: { balance: 100000000 },
  responses: { 200: reply('Balance updated', balanceSet), 404: '`Business not found`' },
});

export const approveBusinessContract = contract({
  operationId: 'approveBusiness',
  method: 'post',
  path: '/businesses/{id}/approve',
  summary: 'Approve a business',
  description: 'Opens its payment account (a fresh NUBAN).',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: { description: 'the `id` of the business', example: fixture.a2 } },
  responses: {
    200: reply('Business approved; payment account open', approvedBusiness),
    404: '`Business not found`',
  },
});

export const ledgerContract = contract({
  operationId: 'ledger',
  method: 'get',
  path: '/businesses/{id}/ledger',
  summary: 'A business’s ledger',
  description:
    'Newest first, with `balance` and the `ledgerBalance` it explains. Each entry as kept: its `id` is the transaction reference (a dispute’s `transactionId`), a failed transfer keeps its `errorCode` and `errorMessage`, and `requestId` is the API request that made it (`GET /__sandbox/requests?requestId=`; null for entries the sandbox made itself: balance adjustments, incoming payments, bulk items debited in the background, and in states written before it was kept). `?retrievalReference=` finds a transfer’s entry. A page of 100 entries by default (`page`, `limit` up to 1000), with `pagination` in `data`: one call stays small however long the ledger grows.',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: businessId },
  query: ledgerQuery,
  responses: { 200: reply('Ledger', ledger), 404: '`Business not found`' },
});
