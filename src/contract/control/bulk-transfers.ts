import * as z from 'zod';
import { idText } from '../../domain/fields.js';
import { controlPageQuery } from '../../domain/pagination.js';
import { bulkStatus } from '../../domain/statuses.js';
import { bulkItem, bulkTransfer, bulkTransferWithItems, claimReplies } from '../api/bulk.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, page, reply } from '../kit.js';

// Every client's bulk transfers, as the bank's API shows them, with the client they belong to.

export const batchesQuery = deferred(() =>
  controlPageQuery.extend({
    status: bulkStatus.optional(),
    clientId: idText().optional(),
  }),
);
export type BatchesQuery = z.infer<ReturnType<typeof batchesQuery>>;

export const reprocessItemBody = deferred(() =>
  z.object({
    itemId: idText().optional().describe('one failed item; all failed items when left out'),
  }),
);

// What the routes answer.

const clientId = () => z.string().describe('the client the batch belongs to');
const requestId = () =>
  z
    .string()
    .nullable()
    .describe(
      'the `x-request-id` of the request that created the batch (`GET /__sandbox/requests?requestId=`); null in states written before it was kept',
    );

export const clientBulkTransfer = lazy('ClientBulkTransfer', () =>
  bulkTransfer().extend({ clientId: clientId(), requestId: requestId() }),
);
export type ClientBulkTransferView = z.infer<ReturnType<typeof clientBulkTransfer>>;

export const clientBulkTransferWithItems = lazy('ClientBulkTransferWithItems', () =>
  bulkTransferWithItems().extend({
    clientId: clientId(),
    requestId: requestId(),
    items: z.array(
      bulkItem().extend({
        reversedAt: z
          .string()
          .optional()
          .describe('a `completed` item reversed since (the bank’s views still show it `completed`)'),
        reversalReason: z.string().optional(),
      }),
    ),
  }),
);
export type ClientBulkTransferWithItemsView = z.infer<ReturnType<typeof clientBulkTransferWithItems>>;

const TAG = 'Bulk';

export const batchId = {
  description: 'the `id` of the bulk transfer (the example is the fixtures’ batch of A1)',
  example: fixture.batch,
};

export const listBatchesContract = contract({
  operationId: 'listBatches',
  method: 'get',
  path: '/bulk-transfers',
  summary: 'Bulk transfers of every client',
  description:
    'Newest first, with their counters, `clientId` and the `requestId` of the request that created each (`GET /__sandbox/requests?requestId=`).',
  tag: TAG,
  auth: { scheme: 'none' },
  query: batchesQuery,
  responses: { 200: page('Bulk transfers', clientBulkTransfer) },
});

export const getBatchContract = contract({
  operationId: 'getBatch',
  method: 'get',
  path: '/bulk-transfers/{id}',
  summary: 'A bulk transfer with its items',
  description:
    "Any client's bulk transfer, with every item, its status and its failure reason: what the bank's back office sees.",
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: batchId },
  responses: {
    200: reply('Bulk transfer', clientBulkTransferWithItems),
    404: '`Bulk transfer not found`',
  },
});

export const reprocessBatchContract = contract({
  operationId: 'reprocessBatch',
  method: 'post',
  path: '/bulk-transfers/{id}/reprocess',
  summary: 'Reprocess failed items',
  description:
    'As the API’s reprocess, without the client’s keys: every failed item, or the one `itemId`. The audit log names the sandbox operator. A batch-level reprocess refused after the claim (`No payment account for this business`, `Insufficient Funds`) leaves the batch `failed` with that `failureReason` and no item changed; any other refusal changes nothing.',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: batchId },
  body: reprocessItemBody,
  example: {},
  responses: {
    ...claimReplies,
    400: [
      '`Bulk transfer is already completed`',
      '`There are no failed items to reprocess`',
      '`Only failed items can be reprocessed; this one is …`: the `itemId` is not `failed`',
      '`No payment account for this business`, `Insufficient Funds`: a batch-level reprocess leaves the batch `failed` with that `failureReason`; one item’s changes nothing',
    ],
    404: '`Bulk transfer not found`, or `Bulk transfer item not found`',
  },
});
