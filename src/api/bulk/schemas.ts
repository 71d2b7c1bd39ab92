import * as z from 'zod';
import { idText, text } from '../../domain/fields.js';
import { canonicalId } from '../../domain/ids.js';
import { pageQuery } from '../../domain/pagination.js';
import { bulkStatus, itemStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate, kobo } from '../../http/wire.js';
import { transferBody } from '../transfers/schemas.js';

export const MAX_BATCH_ITEMS = 10_000;

export const createBulkBody = z.object({
  batchName: text(),
  transfers: z.array(transferBody).min(1).max(MAX_BATCH_ITEMS),
});
export type CreateBulkInput = z.infer<typeof createBulkBody>;

const bulkTransferId = z.uuid().overwrite(canonicalId);

export const processBody = z.object({ bulkTransferId });
export const reprocessBody = z.object({
  bulkTransferId,
  itemId: idText().optional(),
});

export const bulkListQuery = pageQuery;

// What the routes answer.

const batchFields = () => ({
  id: z.uuid(),
  bulkReference: z.string(),
  businessId: z.string(),
  batchName: z.string(),
  totalItems: z.number().int(),
  completedItems: z.number().int(),
  failedItems: z.number().int(),
  status: bulkStatus,
  failureReason: z.string().nullable(),
  createdAt: isoDate(),
});

export const bulkItem = lazy('BulkItem', () =>
  z.strictObject({
    id: z.string(),
    itemIndex: z.number().int(),
    amount: kobo(),
    receiverAccountNumber: z.string(),
    receiverBankCode: z.string(),
    retrievalReference: z.string(),
    transactionReference: z.string(),
    originalTransactionReference: z.string().optional().describe('present once the item was reprocessed'),
    status: itemStatus,
    errorMessage: z.string(),
    errorCode: z.string(),
    providerReference: z.string().nullable(),
    reprocessCount: z.number().int(),
    processedAt: isoDate().nullable(),
  }),
);
export type BulkItemView = z.infer<ReturnType<typeof bulkItem>>;

export const bulkTransfer = lazy('BulkTransfer', () => z.strictObject(batchFields()));
export type BulkTransferView = z.infer<ReturnType<typeof bulkTransfer>>;

export const bulkTransferWithItems = lazy('BulkTransferWithItems', () =>
  z.strictObject({ ...batchFields(), items: z.array(bulkItem()) }),
);
export type BulkTransferWithItemsView = z.infer<ReturnType<typeof bulkTransferWithItems>>;

export const bulkClaim = lazy('BulkClaim', () =>
  z.strictObject({
    bulkTransferId: z.uuid(),
    jobId: z.string().optional().describe('on 202 only'),
  }),
);
export type BulkClaimView = z.infer<ReturnType<typeof bulkClaim>>;
