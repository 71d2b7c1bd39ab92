import * as z from 'zod';
import { idText, text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { disputeRecord } from '../../domain/records.js';
import { disputeStatus } from '../../domain/statuses.js';
import { fixture } from '../examples.js';
import { contract, deferred, done, lazy, page, reply } from '../kit.js';
import { isoDate } from '../wire.js';

export const disputeBody = deferred(() =>
  z.object({
    transactionId: idText(),
    description: text(),
  }),
);

export const disputeQuery = deferred(() =>
  pageQuery.extend({
    transactionId: idText().optional(),
    // Any text, as the audit log's filters: one that is no status matches nothing (the docs give no other rule).
    status: text()
      .optional()
      .describe(
        `${disputeStatus.options.map((s) => `\`${s}\``).join(', ')} (case-insensitive; another value matches nothing)`,
      ),
    keyword: text().optional(),
  }),
);
export type DisputeQuery = z.infer<ReturnType<typeof disputeQuery>>;

// What the routes answer (the control API's resolve and reject too: a decided dispute looks the same).

/** The fields of a dispute the API shows, in its order: not its business, nor when the operator decided it. */
export const disputeFields = {
  id: true,
  transactionId: true,
  description: true,
  status: true,
  dateCreated: true,
} as const;

export const dispute = lazy('Dispute', () =>
  disputeRecord
    .pick(disputeFields)
    .extend({ dateCreated: isoDate().describe('when it was opened') })
    .strict(),
);
export type DisputeView = z.infer<ReturnType<typeof dispute>>;

const DISPUTES = '/clients/business/disputes';

const TAG = 'Disputes';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

export const createDisputeContract = contract({
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
  // A payment A1 received in the fixtures that no dispute names yet.
  example: { transactionId: fixture.payment, description: 'The payer asks for a refund.' },
  responses: {
    201: done('Dispute created successfully'),
    404: '`Transaction not found`',
    409: '`An open dispute already exists for this transaction`',
  },
});

export const listDisputesContract = contract({
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
});

export const getDisputeContract = contract({
  operationId: 'getDispute',
  method: 'get',
  path: `${DISPUTES}/{disputeId}`,
  summary: 'Get a dispute',
  tag: TAG,
  auth: withBusiness,
  source: { docs: ['/api-reference/disputes/get'] },
  params: {
    disputeId: {
      description: 'the `id` of the dispute (the example is the fixtures’ open dispute of A1)',
      example: fixture.dispute,
    },
  },
  responses: {
    200: reply('Dispute retrieved successfully', dispute),
    404: '`Dispute not found`',
  },
});
