import * as z from 'zod';
import { idText, MAX_TEXT, text } from '../../domain/fields.js';
import { canonicalId } from '../../domain/ids.js';
import { pageQuery } from '../../domain/pagination.js';
import { bulkStatus, itemStatus } from '../../domain/statuses.js';
import { fixture, PROVIDER_OUTAGE_CAUSE, transferExample } from '../examples.js';
import { contract, deferred, lazy, page, reply } from '../kit.js';
import { isoDate, kobo } from '../wire.js';
import { transferBody } from './transfers.js';

export const MAX_BATCH_ITEMS = 10_000;

export const createBulkBody = deferred(() =>
  z.object({
    batchName: text(),
    transfers: z.array(transferBody()).min(1).max(MAX_BATCH_ITEMS),
  }),
);

/**
 * The bound on a batch's body: 10 000 transfers whose every field is as long as it may be (the amount as a string of
 * the largest safe integer, a 6-digit bank code, references and narrations of `MAX_TEXT` characters), as compact
 * JSON, and a mebibyte for spaces between them. Every batch that may be accepted fits (contract, section 4), so a
 * body past it holds more than any batch may: it is answered 400 naming the limit of 10 000, as a batch of 10 001
 * transfers is, not 413.
 */
export const BULK_BODY_BYTES = (() => {
  const longest = JSON.stringify({
    amount: String(Number.MAX_SAFE_INTEGER),
    receiverAccountNumber: '0'.repeat(10),
    receiverBankCode: '0'.repeat(6),
    retrievalReference: 'x'.repeat(MAX_TEXT),
    narration: 'x'.repeat(MAX_TEXT),
  });
  const frame = JSON.stringify({ batchName: 'x'.repeat(MAX_TEXT), transfers: [] });
  // ASCII: a character is a byte.
  return MAX_BATCH_ITEMS * (longest.length + 1) + frame.length + 1_048_576;
})();

export const TOO_MANY_TRANSFERS = `A bulk transfer takes at most ${MAX_BATCH_ITEMS} transfers: this body is larger than ${MAX_BATCH_ITEMS} transfers of the longest fields can be (${BULK_BODY_BYTES} bytes)`;
export type CreateBulkInput = z.infer<ReturnType<typeof createBulkBody>>;

const bulkTransferId = z.uuid().overwrite(canonicalId);

export const processBody = deferred(() => z.object({ bulkTransferId }));
export const reprocessBody = deferred(() =>
  z.object({
    bulkTransferId,
    itemId: idText().optional(),
  }),
);

export const bulkListQuery = pageQuery;

export const QUEUED = 'Bulk transfer queued for processing';
export const ALREADY_PROCESSING = 'Bulk transfer is already being processed';

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

const BULK = '/clients/business/customers/funds/bulk-transfer';

const TAG = 'Bulk transfers';

/** The batch endpoints use the API key pair; the spec gives 400 for a missing `businessId`, but 401 on get. */
const keyPair = { scheme: 'B', missingBusiness: 400 } as const;

/** The fixtures' batch of A1 (`failed`): the examples of a batch id name it. */
const exampleId = fixture.batch;

/** The answers of a process or reprocess claim: 202 queued, or 200 already processing (nothing queued). */
export const claimReplies = {
  202: reply(QUEUED, bulkClaim, '`Bulk transfer queued for processing`, with `jobId`'),
  200: reply(
    ALREADY_PROCESSING,
    bulkClaim,
    '`Bulk transfer is already being processed`: nothing queued, no `jobId`',
  ),
} as const;

export const createBulkTransferContract = contract({
  operationId: 'createBulkTransfer',
  method: 'post',
  path: BULK,
  summary: 'Create a bulk transfer',
  description: 'A batch of 1 to 10 000 transfers, every item `pending`, in the order given (`itemIndex`).',
  tag: TAG,
  auth: keyPair,
  source: {
    spec: 'Bulk transfer creation and reprocess',
    sandbox: 'the method, path and payload (the spec shows none; no docs page)',
  },
  body: createBulkBody,
  bodyLimit: () => ({
    bytes: BULK_BODY_BYTES,
    message: TOO_MANY_TRANSFERS,
    status: 400,
    field: { field: 'transfers', message: `must have at most ${MAX_BATCH_ITEMS} items` },
  }),
  example: { batchName: 'Payroll November', transfers: [transferExample] },
  warns: [
    'items whose `receiverAccountNumber` has a NUBAN check digit wrong for its `receiverBankCode` (one warning for the batch, naming the first): production would fail those items',
  ],
  responses: {
    201: reply('Bulk transfer created successfully', bulkTransferWithItems),
    400: [
      'More than 10 000 transfers (`transfers must have at most 10000 items`), or a body larger than 10 000 transfers of the longest fields can be, whatever it holds',
      'An item with a malformed field (`transfers[N].receiverAccountNumber`…), an unknown bank code (`transfers[N].receiverBankCode: Invalid bank code`) or a `retrievalReference` twice in the batch: nothing is created',
    ],
    503: PROVIDER_OUTAGE_CAUSE,
  },
});

export const listBulkTransfersContract = contract({
  operationId: 'listBulkTransfers',
  method: 'get',
  path: BULK,
  summary: 'List bulk transfers',
  description: 'The business’s batches, newest first, without items.',
  tag: TAG,
  auth: keyPair,
  source: { spec: 'Bulk transfer (batch)', sandbox: 'the operation (the spec names none; no docs page)' },
  query: bulkListQuery,
  responses: {
    200: page('Bulk transfers retrieved successfully', bulkTransfer, 'A page of batches'),
    503: PROVIDER_OUTAGE_CAUSE,
  },
});

export const processBulkTransferContract = contract({
  operationId: 'processBulkTransfer',
  method: 'post',
  path: `${BULK}/process`,
  summary: 'Process a bulk transfer',
  description:
    'Claims the batch atomically (of concurrent calls exactly one gets 202), checks the payment account and that the balance covers every `pending` item, and queues them. Wait for the items with `POST /__sandbox/drain`. A batch with nothing `pending` answers 202 too, queues nothing and settles at once to the status its items give (`completed`, `failed` or `partially_completed`).',
  tag: TAG,
  auth: keyPair,
  source: { spec: 'Process a bulk transfer' },
  body: processBody,
  example: { bulkTransferId: exampleId },
  responses: {
    ...claimReplies,
    400: [
      '`bulkTransferId` missing or not a valid UUID',
      '`Bulk transfer is already completed`',
      '`No payment account for this business` (the batch becomes `failed` with `failureReason`)',
      '`Insufficient Funds`: the balance is below the sum of the pending items (the batch becomes `failed`)',
    ],
    404: 'No batch with this id for this client and business (another business’s batch too)',
    503: PROVIDER_OUTAGE_CAUSE,
  },
});

export const reprocessBulkTransferContract = contract({
  operationId: 'reprocessBulkTransfer',
  method: 'post',
  path: `${BULK}/reprocess`,
  summary: 'Reprocess failed items',
  description:
    'Every `failed` item, or the one `itemId`, back to `pending` with `reprocessCount + 1` and a new `transactionReference` (the first kept in `originalTransactionReference`); then the same claim and answers as process, the balance checked against every item that would be pending. A batch-level reprocess refused after the claim (`No payment account for this business`, `Insufficient Funds`) leaves the batch `failed` with that `failureReason`, as the spec says, and touches no item; any other refusal, and any refusal of a single item’s reprocess, changes nothing.',
  tag: TAG,
  auth: keyPair,
  source: {
    spec: 'Bulk transfer creation and reprocess',
    sandbox: 'the method, path and payload (the spec shows none; no docs page)',
  },
  body: reprocessBody,
  example: { bulkTransferId: exampleId },
  responses: {
    ...claimReplies,
    400: [
      '`bulkTransferId` missing or not a valid UUID',
      '`Bulk transfer is already completed`',
      '`There are no failed items to reprocess`, or the `itemId` is not `failed`',
      '`No payment account for this business`, `Insufficient Funds`: the batch becomes `failed` with that `failureReason` (a batch-level reprocess; an `itemId` one changes nothing), no item changes',
    ],
    404: '`Bulk transfer not found`, `Bulk transfer item not found`',
    503: PROVIDER_OUTAGE_CAUSE,
  },
});

export const getBulkTransferContract = contract({
  operationId: 'getBulkTransfer',
  method: 'get',
  path: `${BULK}/{bulkTransferId}`,
  summary: 'Get a bulk transfer',
  description: 'The batch with its items in submission order. Poll it, or wait with `POST /__sandbox/drain`.',
  tag: TAG,
  auth: { scheme: 'B', missingBusiness: 401 },
  source: { spec: 'Get a bulk transfer' },
  params: { bulkTransferId: { description: 'the `id` of the batch', example: exampleId } },
  responses: {
    200: reply('Bulk transfer retrieved successfully', bulkTransferWithItems),
    404: 'No batch with this id for this client and business',
    503: PROVIDER_OUTAGE_CAUSE,
  },
});
