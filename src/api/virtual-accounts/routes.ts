import type { Route } from '../../http/route.js';
import { defineRoute, reply } from '../../http/route.js';
import { NO_PAYMENT_ACCOUNT_CAUSE } from '../examples.js';
import { singleUseAccount, singleUseBody, virtualAccount, virtualAccountBody } from './schemas.js';
import { createSingleUseAccount, createVirtualAccount } from './service.js';

const VIRTUAL_ACCOUNTS = '/clients/business/virtual-accounts';
const TAG = 'Virtual accounts';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;
const DUPLICATE = '`A virtual account with this reference already exists` (in the business, of either kind)';

/** `/clients/business/virtual-accounts`: accounts that receive payments for the business. */
export const virtualAccountRoutes: Route[] = [
  defineRoute({
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
    handle: async ({ deps, actor, business, body }) => ({
      status: 201,
      data: await createVirtualAccount(deps, actor(), business, body),
    }),
  }),
  defineRoute({
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
    handle: async ({ deps, actor, business, body }) => ({
      status: 201,
      data: await createSingleUseAccount(deps, actor(), business, body),
    }),
  }),
];
