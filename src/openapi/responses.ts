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

export const business = z.strictObject({
  id: z.string(),
  businessName: z.string(),
  bvn: z.string(),
  photoIdUrl: z.string(),
  businessDocumentsUrls: z.array(z.string()),
  isApproved: z.boolean(),
  residentialAddress: z.string(),
  stateId: z.string(),
  state: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  clientId: z.string(),
});

export const signIn = z.strictObject({ accessToken: z.string(), businesses: z.array(business) });

export const apiKeys = z.strictObject({ publicKey: z.string(), secretKey: z.string() });

export const billers = z.strictObject({ billers: z.array(z.string()) });

export const accountDetails = z.strictObject({
  accountNumber: z.string(),
  accountType: z.string(),
  customerId: z.string(),
  businessId: z.string(),
  accountBalance: kobo,
});

export const createdBusiness = z.strictObject({
  business: z.strictObject({ id: z.string(), businessName: z.string() }),
});

export const customer = z.strictObject({
  id: z.string(),
  name: z.string(),
  phoneNo: z.string(),
  email: z.string(),
  dateCreated: isoDate,
  nuban: z.string(),
});

export const memberRole = z.strictObject({ id: z.string(), name: z.string() });

export const member = z.strictObject({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNo: z.string(),
  isActive: z.boolean(),
  clientMemberRoleId: z.string(),
  clientMemberRole: memberRole,
});

export const transferResult = z.strictObject({
  amount: kobo,
  transactionCharge: kobo,
  totalAmount: kobo.describe('kobo: amount plus charge, the amount debited'),
  transactionReference: z.string(),
  retrievalReference: z.string(),
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

export const payoutAccount = z.strictObject({
  id: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  businessId: z.string(),
  createdAt: isoDate,
});

export const dispute = z.strictObject({
  id: z.string(),
  transactionId: z.string(),
  description: z.string(),
  status: z.enum(['open', 'resolved', 'rejected']),
  createdAt: isoDate,
  resolvedAt: isoDate.nullable(),
});

export const auditEntry = z.strictObject({
  id: z.string(),
  email: z.string(),
  user: z.string(),
  action: z.string(),
  type: z.string(),
  date: isoDate,
  role: z.string(),
  ipAddress: z.string(),
});

export const virtualAccount = z.strictObject({
  accountNumber: z.string(),
  accountName: z.string(),
  clientRef: z.string(),
  systemRef: z.string(),
  type: z.enum(['temporal', 'permanent']),
  expiresAt: isoDate.nullable().describe('temporal accounts only'),
});
