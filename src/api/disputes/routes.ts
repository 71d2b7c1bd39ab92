import type { Route } from '../../http/route.js';
import { defineRoute, page, reply } from '../../http/route.js';
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
      'On a transaction of the business (its `transactionReference`); one open dispute per transaction.',
    tag: TAG,
    auth: withBusiness,
    body: disputeBody,
    example: {
      transactionId: 'SBX261121115230361389007249',
      description: 'The receiver says nothing arrived.',
    },
    responses: {
      201: reply('Dispute created successfully', dispute),
      404: '`Transaction not found`',
      409: '`An open dispute already exists for this transaction`',
    },
    handle: async ({ deps, actor, business, body }) => ({
      status: 201,
      data: await createDispute(deps, actor(), business, body),
    }),
  }),
  defineRoute({
    operationId: 'listDisputes',
    method: 'get',
    path: DISPUTES,
    summary: 'List disputes',
    description: 'Newest first; filter by `transactionId`, `status` and a `keyword` of the description.',
    tag: TAG,
    auth: withBusiness,
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
    params: { disputeId: { description: 'the `id` of the dispute' } },
    responses: {
      200: reply('Dispute retrieved successfully', dispute),
      404: '`Dispute not found`',
    },
    handle: ({ deps, business, params }) => ({ data: getDispute(deps, business, params.disputeId) }),
  }),
];
