import type { Route } from '../../http/route.js';
import { defineRoute, done, page, reply } from '../../http/route.js';
import { dispute, disputeBody, disputeQuery } from './schemas.js';
import { createDispute, getDispute, listDisputes } from './service.js';

const DISPUTES = '/clients/business/disputes';
const TAG = 'Disputes';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

/** `/clients/business/disputes`. */
export const disputeRoutes: Route[] = [
  defineRoute({
    operationId: 'createDispute',
    method: 'post',
    path: DISPUTES,
    summary: 'Create a dispute',
    description:
      'On a transaction of the business: `transactionId` is its `transactionReference`, which the ledger shows (`GET /__sandbox/businesses/{id}/ledger?retrievalReference=…`). One open dispute per transaction. The answer carries no data, as the docs show: the dispute is in the list.',
    tag: TAG,
    auth: withBusiness,
    source: {
      spec: 'Create dispute',
      docs: ['/api-reference/disputes/create'],
      sandbox: 'the transaction must be the business’s (404); one open dispute per transaction (409)',
    },
    body: disputeBody,
    example: {
      transactionId: 'SBX261121115230361389007249',
      description: 'The receiver says nothing arrived.',
    },
    responses: {
      201: done('Dispute created successfully'),
      404: '`Transaction not found`',
      409: '`An open dispute already exists for this transaction`',
    },
    handle: async ({ deps, actor, business, body }) => {
      await createDispute(deps, actor(), business, body);
      return { status: 201 };
    },
  }),
  defineRoute({
    operationId: 'listDisputes',
    method: 'get',
    path: DISPUTES,
    summary: 'List disputes',
    description:
      'Newest first; filter by `transactionId`, `status` and a `keyword` of the description or the transaction id.',
    tag: TAG,
    auth: withBusiness,
    source: { docs: ['/api-reference/disputes/list'] },
    query: disputeQuery,
    responses: { 200: page('Disputes retrieved successfully', dispute, 'A page of disputes') },
    handle: ({ deps, business, query }) => ({ page: listDisputes(deps, business, query) }),
  }),
  defineRoute({
    operationId: 'getDispute',
    method: 'get',
    path: `${DISPUTES}/{disputeId}`,
    summary: 'Get a dispute',
    tag: TAG,
    auth: withBusiness,
    source: { docs: ['/api-reference/disputes/get'] },
    params: { disputeId: { description: 'the `id` of the dispute' } },
    responses: {
      200: reply('Dispute retrieved successfully', dispute),
      404: '`Dispute not found`',
    },
    handle: ({ deps, business, params }) => ({ data: getDispute(deps, business, params.disputeId) }),
  }),
];
