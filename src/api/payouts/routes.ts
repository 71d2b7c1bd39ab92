import { pageQuery } from '../../domain/pagination.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, page, reply } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type PayoutInput, payoutAccount, payoutBody } from './schemas.js';
import { createPayout, deletePayout, listPayouts, updatePayout } from './service.js';

const PAYOUTS = '/clients/business/payouts';
const TAG = 'Payout accounts';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;
const payoutAccountId = { description: 'the `id` of the payout account' };
const NOT_FOUND = '`Payout account not found`';
const DUPLICATE = '`This payout account already exists for the business`';

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

/** `/clients/business/payouts`: up to three payout accounts per business. */
export const payoutRoutes: Route[] = [
  defineRoute({
    operationId: 'listPayoutAccounts',
    method: 'get',
    path: PAYOUTS,
    summary: 'List payout accounts',
    tag: TAG,
    auth: withBusiness,
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
    tag: TAG,
    auth: withBusiness,
    body: payoutBody,
    warns: [ACCOUNT_WARNING],
    example: {
      accountName: 'Adebayo Foods Ltd',
      accountNumber: '0123456785',
      bankName: 'Guaranty Trust Bank',
      bankCode: '058',
    },
    responses: {
      201: reply('Payout account created successfully', payoutAccount),
      400: ['`Invalid bank code`', '`A business can have at most 3 payout accounts`'],
      409: DUPLICATE,
    },
    handle: async ({ deps, c, actor, business, body }) => {
      warnOfAccount(c, body);
      return { status: 201, data: await createPayout(deps, actor(), business, body) };
    },
  }),
  defineRoute({
    operationId: 'updatePayoutAccount',
    method: 'put',
    path: `${PAYOUTS}/{payoutAccountId}`,
    summary: 'Update a payout account',
    tag: TAG,
    auth: withBusiness,
    params: { payoutAccountId },
    body: payoutBody,
    warns: [ACCOUNT_WARNING],
    responses: {
      200: reply('Payout account updated successfully', payoutAccount),
      400: '`Invalid bank code`',
      404: NOT_FOUND,
      409: DUPLICATE,
    },
    handle: async ({ deps, c, actor, business, params, body }) => {
      warnOfAccount(c, body);
      return { data: await updatePayout(deps, actor(), business, params.payoutAccountId, body) };
    },
  }),
  defineRoute({
    operationId: 'deletePayoutAccount',
    method: 'delete',
    path: `${PAYOUTS}/{payoutAccountId}`,
    summary: 'Delete a payout account',
    tag: TAG,
    auth: withBusiness,
    params: { payoutAccountId },
    responses: { 200: done('Account has been deleted'), 404: NOT_FOUND },
    handle: async ({ deps, actor, business, params }) => {
      await deletePayout(deps, actor(), business, params.payoutAccountId);
      return DONE;
    },
  }),
];
