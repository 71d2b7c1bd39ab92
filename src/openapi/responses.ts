import * as z from 'zod';

// What the routes answer, for the OpenAPI document. The request side is the routes' own zod schemas; these
// describe the `data` of success responses, where no schema existed. They are strict, so the API tests that
// parse real answers with them fail on a field the document does not show.

const isoDate = z.iso.datetime();
const kobo = z.string().regex(/^\d+$/).describe('kobo');

export const pagination = z.strictObject({
  totalCount: z.number().int(),
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  nextPage: z.number().int().describe('0 when there is no next page'),
  previousPage: z.number().int().describe('0 when there is no previous page'),
  limit: z.number().int(),
  lastPage: z.number().int().describe('max(1, ceil(totalCount / limit))'),
});

export const errorEnvelope = z.strictObject({
  status: z.literal(false),
  message: z.string(),
  data: z.null(),
  errors: z
    .array(z.strictObject({ field: z.string(), message: z.string() }))
    .optional()
    .describe('on a validation failure: each bad field'),
  errorCode: z
    .string()
    .optional()
    .describe("on a failed transfer: the provider's response code (`51`, `07`…)"),
  waiting: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'on a drain that gave up (408): `clock`, `backlog`, `batches` with their open `items`, `deliveries` with `nextAttemptAt` and `dueInMs`',
    ),
});

const batchFields = {
  id: z.uuid(),
  bulkReference: z.string(),
  businessId: z.string(),
  batchName: z.string(),
  totalItems: z.number().int(),
  completedItems: z.number().int(),
  failedItems: z.number().int(),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'partially_completed']),
  failureReason: z.string().nullable(),
  createdAt: isoDate,
};

export const bulkItem = z.strictObject({
  id: z.string(),
  itemIndex: z.number().int(),
  amount: kobo,
  receiverAccountNumber: z.string(),
  receiverBankCode: z.string(),
  retrievalReference: z.string(),
  transactionReference: z.string(),
  originalTransactionReference: z.string().optional().describe('present once the item was reprocessed'),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  errorMessage: z.string(),
  errorCode: z.string(),
  providerReference: z.string().nullable(),
  reprocessCount: z.number().int(),
  processedAt: isoDate.nullable(),
});

export const bulkTransfer = z.strictObject(batchFields);
export const bulkTransferWithItems = z.strictObject({ ...batchFields, items: z.array(bulkItem) });

export const bulkClaim = z.strictObject({
  bulkTransferId: z.uuid(),
  jobId: z.string().optional().describe('on 202 only'),
});

export const health = z.strictObject({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().int(),
});

/** `GET /__sandbox/health` while the state cannot be written: reads work, every write answers 503. */
export const healthDegraded = z.strictObject({
  status: z.literal('degraded'),
  version: z.string(),
  uptimeSeconds: z.number().int(),
  reason: z.string(),
  since: z.string(),
});

const count = z.number().int().min(0);
export const metrics = z.strictObject({
  memory: z.strictObject({
    rssBytes: count,
    heapUsedBytes: count,
    heapTotalBytes: count,
    externalBytes: count,
  }),
  records: z.record(z.string(), count).describe('records per collection'),
  requestJournal: z.strictObject({ entries: count, capacity: count }),
  queues: z.strictObject({ bulkItems: count, webhookDeliveries: count }),
  store: z.strictObject({ journalBytes: count, journalFlushes: count, seq: count }),
});

export const clientCredentials = z.strictObject({
  clientId: z.string(),
  name: z.string(),
  email: z.string(),
  password: z.string(),
  publicKey: z.string(),
  secretKey: z.string(),
  webhookAuthKey: z.string(),
  businesses: z.array(
    z.strictObject({
      id: z.string(),
      businessName: z.string(),
      isApproved: z.boolean(),
      accountNumber: z.string().nullable(),
      accountBalance: kobo,
    }),
  ),
  members: z.array(z.strictObject({ email: z.string(), password: z.string(), role: z.string() })),
});

export const credentials = z.strictObject({ clients: z.array(clientCredentials) });

export const clock = z.strictObject({ now: isoDate, frozen: z.boolean(), offsetMs: z.number() });
