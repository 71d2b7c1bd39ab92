import { claimAnswer, claimReplies } from '../../api/bulk/routes.js';
import { defineRoute, page, type Route, reply } from '../../http/route.js';
import {
  batchesQuery,
  clientBulkTransfer,
  clientBulkTransferWithItems,
  reprocessItemBody,
} from './schemas.js';
import { getBatch, listBatches, reprocessBatch } from './service.js';

const TAG = 'Bulk';
const batchId = { description: 'the `id` of the bulk transfer' };

/** `/bulk-transfers`: every client's batches, read and reprocessed without the client's keys. */
export const bulkTransferRoutes: Route[] = [
  defineRoute({
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
    handle: ({ deps, query }) => ({ page: listBatches(deps, query) }),
  }),
  defineRoute({
    operationId: 'getBatch',
    method: 'get',
    path: '/bulk-transfers/{id}',
    summary: 'A bulk transfer with its items',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: batchId },
    responses: {
      200: reply('Bulk transfer', clientBulkTransferWithItems),
      404: '`Bulk transfer not found`',
    },
    handle: ({ deps, params }) => ({ data: getBatch(deps, params.id) }),
  }),
  defineRoute({
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
    handle: async ({ deps, engines, params, body }) =>
      claimAnswer(params.id, await reprocessBatch(deps, engines.bulk, params.id, body.itemId)),
  }),
];
