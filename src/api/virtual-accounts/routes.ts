import type { Route } from '../../http/route.js';
import { defineRoute, reply } from '../../http/route.js';
import { NO_PAYMENT_ACCOUNT_CAUSE } from '../examples.js';
import { virtualAccount, virtualAccountBody } from './schemas.js';
import { createVirtualAccount } from './service.js';

/** `/clients/business/virtual-accounts`. */
export const virtualAccountRoutes: Route[] = [
  defineRoute({
    operationId: 'createVirtualAccount',
    method: 'post',
    path: '/clients/business/virtual-accounts',
    summary: 'Create a virtual account',
    description:
      'A NUBAN that receives payments for the business (`POST /__sandbox/incoming-payments`); a `temporal` one expires after `--virtual-account-ttl` seconds.',
    tag: 'Virtual accounts',
    auth: { scheme: 'A', business: 'header', area: 'business' },
    body: virtualAccountBody,
    example: { firstName: 'Chidi', lastName: 'Eze', type: 'permanent', reference: 'va-ref-1' },
    responses: {
      201: reply('Virtual account created successfully', virtualAccount),
      400: NO_PAYMENT_ACCOUNT_CAUSE,
      409: '`A virtual account with this reference already exists`',
    },
    handle: async ({ deps, actor, business, body }) => ({
      status: 201,
      data: await createVirtualAccount(deps, actor(), business, body),
    }),
  }),
];
