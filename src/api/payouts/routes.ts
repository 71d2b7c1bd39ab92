import { pageQuery } from '../../domain/pagination.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, page } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type PayoutInput, payoutAccount, payoutBody } from './schemas.js';
import {
  createPayout,
  deletePayout,
  listPayouts,
  TOO_MANY_PAYOUT_ACCOUNTS,
  updatePayout,
} from './service.js';

const PAYOUTS = '/clients/business/payouts';
const TAG = 'Payout accounts';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;
const payoutAccountId = { description: 'the `id` of the payout account' };
const NOT_FOUND = '`Payout account not found` (unknown, or another client’s)';
const DUPLICATE = '`This payout account already exists` (the same number and bank code, in the client)';

const ACCOUNT_WARNING =
  'an `accountNumber` whose NUBAN check digit is wrong for `bankCode`: production would refuse the payout account';

/** Warns of a payout account that cannot exist. */
const warnOfAccount = (c: Parameters<typeof warn>[0], body: PayoutInput) =>
  warn(
    c,
    nubanWarning(
      'accountNumber',
      body.accountNumber,
      body.bankCode,
      'production would refuse this payout account (no such account)',
    ),
  );

/**
 * `/clients/business/payouts`: up to three payout accounts per client. They belong to the client (the docs' records
 * carry `clientId`): every business of the client lists, changes and deletes the same ones.
 */
export const payoutRoutes: Route[] = [
  defineRoute({
    operationId: 'listPayoutAccounts',
    method: 'get',
    path: PAYOUTS,
    summary: 'List payout accounts',
    description:
      'The client’s payout accounts: the same list whichever of its businesses `businessId` names.',
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
    handle: ({ deps, business, query }) => ({ page: listPayouts(deps, business, query) }),
  }),
  defineRoute({
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
    example: {
      accountName: 'Adebayo Foods Ltd',
      accountNumber: '0123456785',
      bankName: 'Guaranty Trust Bank',
      bankCode: '058',
    },
    responses: {
      201: done('Payout account created successfully'),
      400: ['`Invalid bank code`', `\`${TOO_MANY_PAYOUT_ACCOUNTS}\` (the older docs)`],
      409: DUPLICATE,
    },
    handle: async ({ deps, c, actor, business, body }) => {
      warnOfAccount(c, body);
      await createPayout(deps, actor(), business, body);
      return { status: 201 };
    },
  }),
  defineRoute({
    operationId: 'updatePayoutAccount',
    method: 'put',
    path: `${PAYOUTS}/{payoutAccountId}`,
    summary: 'Update a payout account',
    tag: TAG,
    auth: withBusiness,
    source: { spec: 'Update payout account', docs: ['/api-reference/payouts/update'] },
    params: { payoutAccountId },
    body: payoutBody,
    warns: [ACCOUNT_WARNING],
    responses: {
      200: done('Payout account updated successfully'),
      400: '`Invalid bank code`',
      404: NOT_FOUND,
      409: DUPLICATE,
    },
    handle: async ({ deps, c, actor, business, params, body }) => {
      warnOfAccount(c, body);
      await updatePayout(deps, actor(), business, params.payoutAccountId, body);
      return DONE;
    },
  }),
  defineRoute({
    operationId: 'deletePayoutAccount',
    method: 'delete',
    path: `${PAYOUTS}/{payoutAccountId}`,
    summary: 'Delete a payout account',
    tag: TAG,
    auth: withBusiness,
    source: { docs: ['/api-reference/payouts/delete'] },
    params: { payoutAccountId },
    responses: { 200: done('Payout account deleted successfully'), 404: NOT_FOUND },
    handle: async ({ deps, actor, business, params }) => {
      await deletePayout(deps, actor(), business, params.payoutAccountId);
      return DONE;
    },
  }),
];
