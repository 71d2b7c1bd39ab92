import * as z from 'zod';
import { bulkTransfer, bulkTransferWithItems } from '../../api/bulk/schemas.js';
import { idText } from '../../domain/fields.js';
import { controlPageQuery } from '../../domain/pagination.js';
import { bulkStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';

// Every client's bulk transfers, as the bank's API shows them, with the client they belong to.

export const batchesQuery = controlPageQuery.extend({
  status: bulkStatus.optional(),
  clientId: idText().optional(),
});
export type BatchesQuery = z.infer<typeof batchesQuery>;

export const reprocessItemBody = z.object({
  itemId: idText().optional().describe('one failed item; all failed items when left out'),
});

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
  bulkTransferWithItems().extend({ clientId: clientId(), requestId: requestId() }),
);
export type ClientBulkTransferWithItemsView = z.infer<ReturnType<typeof clientBulkTransferWithItems>>;
