import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { virtualAccountType } from '../../domain/statuses.js';
import { NO_PAYMENT_ACCOUNT_CAUSE } from '../examples.js';
import { contract, deferred, lazy, page, reply } from '../kit.js';
import { isoDate, kobo } from '../wire.js';
import { koboAmount } from './transfers.js';

export const virtualAccountBody = deferred(() =>
  z.object({
    firstName: text(),
    lastName: text(),
    type: virtualAccountType,
    reference: text(),
  }),
);
export type VirtualAccountInput = z.infer<ReturnType<typeof virtualAccountBody>>;

/** The longest a single-use account may stay open: what the clock can hold, about 285 000 years. */
export const MAX_DURATION_SECONDS = 9_000_000_000_000;

/** All five required (docs): `amount` in kobo, `duration` in seconds. */
export const singleUseBody = deferred(() =>
  z.object({
    firstName: text(),
    lastName: text(),
    refCode: text(),
    amount: koboAmount(1),
    duration: z
      .number()
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1 second')
      .max(MAX_DURATION_SECONDS, `must be at most ${MAX_DURATION_SECONDS} seconds`)
      .describe('seconds until the account expires, on the sandbox clock'),
  }),
);
export type SingleUseInput = z.infer<ReturnType<typeof singleUseBody>>;

// What the routes answer.

/** A multi-use account, exactly as the docs show it. */
export const virtualAccount = lazy('VirtualAccount', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountName: z.string().describe('`firstName lastName` as given'),
    clientRef: z.string().describe('the `reference` given'),
    systemRef: z.string().describe('`STL|` and 14 letters and digits'),
  }),
);
export type VirtualAccountView = z.infer<ReturnType<typeof virtualAccount>>;

/** A single-use account, exactly as the docs show it (their names differ from the multi-use account's). */
export const singleUseAccount = lazy('SingleUseVirtualAccount', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountName: z.string().describe('`firstName lastName` as given'),
    clientReference: z.string().describe('the `refCode` given'),
    systemReference: z.string().describe('`STL|` and 14 letters and digits'),
    reservedAmount: z.number().int().describe('kobo: the one amount the account takes'),
    expiresAt: isoDate().describe(
      'when it expires unless paid first: now plus `duration`, on the sandbox clock',
    ),
  }),
);
export type SingleUseAccountView = z.infer<ReturnType<typeof singleUseAccount>>;

/** A payment received on one of the business's virtual accounts, exactly as the docs' page shows it: all text. */
export const suspenseTransaction = lazy('SuspenseTransaction', () =>
  z.strictObject({
    recipientAccountNumber: z.string().describe('the virtual account the payment arrived on'),
    transactionId: z
      .string()
      .describe(
        'the payment’s transaction reference (the webhook’s `transactionReference`): a dispute takes it',
      ),
    amount: kobo().describe('kobo: what the payer sent'),
    transactionCharge: kobo().describe('kobo: the incoming charge (0.5%, capped; `fixtures/fees.json`)'),
    totalAmount: kobo().describe('kobo: `amount` plus `transactionCharge`, as the docs’ example adds them'),
    payerAccountNumber: z.string().describe('the payer’s account number; `""` when the payment did not say'),
    reason: z.string().describe('the payment’s narration'),
    date: isoDate().describe('when the business was credited, on the sandbox clock'),
    refundStatus: z
      .string()
      .describe(
        '`none` (no refund needed), `pending` (a mispaid payment to be refunded), `refunded` or `failed` (the balance could not cover it): the docs show the field, not its values, so these words are the sandbox’s reading',
      ),
  }),
);
export type SuspenseTransactionView = z.infer<ReturnType<typeof suspenseTransaction>>;

const VIRTUAL_ACCOUNTS = '/clients/business/virtual-accounts';

const TAG = 'Virtual accounts';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

const DUPLICATE = '`A virtual account with this reference already exists` (in the business, of either kind)';

export const createVirtualAccountContract = contract({
  operationId: 'createVirtualAccount',
  method: 'post',
  path: VIRTUAL_ACCOUNTS,
  summary: 'Create a virtual account',
  description:
    'A multi-use NUBAN that receives payments for the business (`POST /__sandbox/incoming-payments`), named `firstName lastName`; a `temporal` one expires after `--virtual-account-ttl` seconds.',
  tag: TAG,
  auth: withBusiness,
  source: {
    spec: 'Other operations named (virtual account creation)',
    docs: ['/api-reference/virtual-accounts/create'],
    sandbox: 'a temporal account’s lifetime; a `reference` used twice in the business: 409',
  },
  body: virtualAccountBody,
  example: { firstName: 'Chidi', lastName: 'Eze', type: 'permanent', reference: 'va-ref-1' },
  responses: {
    201: reply('Account generated successfully', virtualAccount),
    400: NO_PAYMENT_ACCOUNT_CAUSE,
    409: DUPLICATE,
  },
});

export const createSingleUseVirtualAccountContract = contract({
  operationId: 'createSingleUseVirtualAccount',
  method: 'post',
  path: `${VIRTUAL_ACCOUNTS}/single-use`,
  summary: 'Create a single-use virtual account',
  description:
    'Takes one payment of exactly `amount` kobo and then expires, or expires `duration` seconds from now on the sandbox clock (advance it with `POST /__sandbox/clock/advance`). `POST /__sandbox/incoming-payments` refuses another amount, a second payment or a late one with 409 and credits nothing.',
  tag: TAG,
  auth: withBusiness,
  source: {
    docs: ['/api-reference/virtual-accounts/create-single-use'],
    sandbox: 'a `refCode` used twice in the business: 409',
  },
  body: singleUseBody,
  example: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    refCode: 'order_12345',
    amount: 500000,
    duration: 36000,
  },
  responses: {
    201: reply('Account generated successfully', singleUseAccount),
    400: NO_PAYMENT_ACCOUNT_CAUSE,
    409: DUPLICATE,
  },
});

export const listSuspenseTransactionsContract = contract({
  operationId: 'listSuspenseTransactions',
  method: 'get',
  path: '/clients/business/virtual-account',
  summary: 'List suspense account transactions',
  description:
    'Every payment received on the business’s virtual accounts (single-use ones included), newest first: what a payroll or shop app reconciles, and where it finds the `transactionId` a dispute takes. Make one arrive with `POST /__sandbox/incoming-payments`.',
  tag: TAG,
  auth: withBusiness,
  source: {
    docs: ['/api-reference/virtual-accounts/transactions'],
    sandbox: 'the order (newest first); `payerAccountNumber` `""` when the payment named no payer account',
  },
  query: pageQuery,
  responses: {
    200: page('Transactions retrieved successfully', suspenseTransaction, 'A page of received payments'),
  },
});
