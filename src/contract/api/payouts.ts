import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { payoutRecord } from '../../domain/records.js';
import { fixture } from '../examples.js';
import { contract, deferred, done, lazy, page } from '../kit.js';
import { isoDate } from '../wire.js';
import { accountNumber, listedBankCode } from './transfers.js';

/** The older docs: "You can add maximum of 3 accounts to receive payments". */
export const MAX_PAYOUT_ACCOUNTS = 3;
export const TOO_MANY_PAYOUT_ACCOUNTS = `A client can have at most ${MAX_PAYOUT_ACCOUNTS} payout accounts`;

export const payoutBody = deferred(() =>
  z.object({
    accountName: text(),
    accountNumber,
    bankName: text(),
    bankCode: listedBankCode,
  }),
);
export type PayoutInput = z.infer<ReturnType<typeof payoutBody>>;

// What the routes answer.

/** The fields of a payout account the API shows, in its order. */
export const payoutAccountFields = {
  id: true,
  accountName: true,
  accountNumber: true,
  bankCode: true,
  bankName: true,
  clientId: true,
  createdAt: true,
} as const;

export const payoutAccount = lazy('PayoutAccount', () =>
  payoutRecord
    .pick(payoutAccountFields)
    .extend({
      clientId: z
        .string()
        .describe('the client the account belongs to: every business of the client sees it'),
      createdAt: isoDate(),
    })
    .strict(),
);
export type PayoutAccountView = z.infer<ReturnType<typeof payoutAccount>>;

const PAYOUTS = '/clients/business/payouts';

const TAG = 'Payout accounts';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

const payoutAccountId = {
  description:
    'the `id` of the payout account (`GET /clients/business/payouts`; the example is the fixtures’ one of client A)',
  example: fixture.payout,
};

const NOT_FOUND = '`Payout account not found` (unknown, or another client’s)';

const DUPLICATE = '`This payout account already exists` (the same number and bank code, in the client)';

const ACCOUNT_WARNING =
  'an `accountNumber` whose NUBAN check digit is wrong for `bankCode`: production would refuse the payout account';

export const listPayoutAccountsContract = contract({
  operationId: 'listPayoutAccounts',
  method: 'get',
  path: PAYOUTS,
  summary: 'List payout accounts',
  description: 'The client’s payout accounts: the same list whichever of its businesses `businessId` names.',
  tag: TAG,
  auth: withBusiness,
  source: {
    docs: ['/api-reference/payouts/list'],
    sandbox: '`pagination`, as on every list (the docs’ example shows none)',
  },
  query: pageQuery,
  responses: {
    200: page('Payout accounts retrieved successfully', payoutAccount, 'A page of payout accounts'),
  },
});

export const createPayoutAccountContract = contract({
  operationId: 'createPayoutAccount',
  method: 'post',
  path: PAYOUTS,
  summary: 'Create a payout account',
  description: 'For the client: every business of the client sees it. At most three per client.',
  tag: TAG,
  auth: withBusiness,
  source: {
    spec: 'Create payout account',
    docs: [
      '/api-reference/payouts/create',
      'https://interstellas-api-doc-v1.stellasbank.com/api-docs/reference/api-reference/clients/business/payouts',
    ],
    sandbox: 'the same account twice: 409',
  },
  body: payoutBody,
  warns: [ACCOUNT_WARNING],
  // Another account than the one the fixtures give client A (the same one again is 409).
  example: {
    accountName: 'Adebayo Foods Ltd',
    accountNumber: '0123456784',
    bankName: 'Access Bank',
    bankCode: '044',
  },
  responses: {
    201: done('Payout account created successfully'),
    400: ['`Invalid bank code`', `\`${TOO_MANY_PAYOUT_ACCOUNTS}\` (the older docs)`],
    409: DUPLICATE,
  },
});

export const updatePayoutAccountContract = contract({
  operationId: 'updatePayoutAccount',
  method: 'put',
  path: `${PAYOUTS}/{payoutAccountId}`,
  summary: 'Update a payout account',
  tag: TAG,
  auth: withBusiness,
  source: { spec: 'Update payout account', docs: ['/api-reference/payouts/update'] },
  params: { payoutAccountId },
  body: payoutBody,
  // The fixtures' account renamed, its number and bank kept.
  example: {
    accountName: 'Adebayo Ventures Payroll',
    accountNumber: '0123456785',
    bankName: 'Guaranty Trust Bank',
    bankCode: '058',
  },
  warns: [ACCOUNT_WARNING],
  responses: {
    200: done('Payout account updated successfully'),
    400: '`Invalid bank code`',
    404: NOT_FOUND,
    409: DUPLICATE,
  },
});

export const deletePayoutAccountContract = contract({
  operationId: 'deletePayoutAccount',
  method: 'delete',
  path: `${PAYOUTS}/{payoutAccountId}`,
  summary: 'Delete a payout account',
  tag: TAG,
  auth: withBusiness,
  source: { docs: ['/api-reference/payouts/delete'] },
  params: { payoutAccountId },
  responses: { 200: done('Payout account deleted successfully'), 404: NOT_FOUND },
});
