import { fixture } from '../../api/examples.js';
import { defineRoute, type Route, reply } from '../../http/route.js';
import { approvedBusiness, balanceBody, balanceSet, ledger, ledgerQuery } from './schemas.js';
import { approve, ledgerOf, setBalance } from './service.js';

const TAG = 'Money';
const businessId = { description: 'the `id` of the business', example: fixture.a1 };

/** `/businesses/{id}/…`: a business's balance, approval and ledger. */
export const moneyRoutes: Route[] = [
  defineRoute({
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
    handle: async ({ deps, params, body }) => ({ data: await setBalance(deps, params.id, body.balance) }),
  }),
  defineRoute({
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
    handle: async ({ deps, params }) => ({ data: await approve(deps, params.id) }),
  }),
  defineRoute({
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
    handle: ({ deps, params, query }) => ({ data: ledgerOf(deps, params.id, query) }),
  }),
];
