import * as z from 'zod';
import { END_OF_TIME, END_OF_TIME_MS, MAX_TIME_MS, START_OF_TIME_MS } from './clock.js';
import { deliveryRecord, scheduledRecord } from './later-records.js';
import {
  bulkStatus,
  disputeStatus,
  itemStatus,
  outboxType,
  refundStatus,
  transactionDirection,
  transactionKind,
  transactionStatus,
  virtualAccountKind,
} from './statuses.js';

/**
 * A key of a free-form map in a record: a plain identifier, never one that names a prototype, so an imported
 * state cannot carry `__proto__`, `constructor` or `prototype` into the store.
 */
const plainKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a plain identifier')
  .refine((key) => !['constructor', 'prototype'].includes(key), 'must not name a prototype');

/**
 * Every persisted record, defined once. The zod schemas validate state imports (`PUT /__sandbox/state`) and
 * give the record types; services build records of these types and never mutate them after `put`.
 */
export const clientRecord = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  publicKey: z.string(),
  secretKey: z.string(),
  /** Secrets replaced by a rotation, each valid until `validUntil` (ms since epoch). */
  retiredSecrets: z.array(z.object({ key: z.string(), validUntil: z.number() })),
  webhookUrl: z.string().nullable(),
  webhookAuthKey: z.string(),
  billers: z.array(z.string()),
  createdAt: z.string(),
});

export const userRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  /** Stored lowercase: sign-in matches emails case-insensitively. */
  email: z.string(),
  password: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNo: z.string(),
  roleId: z.string(),
  isOwner: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
});

export const accountRecord = z.object({
  accountNumber: z.string(),
  accountType: z.string(),
  customerId: z.string(),
});

export const businessRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessName: z.string(),
  bvn: z.string(),
  photoIdUrl: z.string(),
  businessDocumentsUrls: z.array(z.string()),
  isApproved: z.boolean(),
  residentialAddress: z.string(),
  stateId: z.string(),
  countryId: z.string(),
  isNewBusiness: z.boolean(),
  createdAt: z.string(),
  /** The payment account; null until the business is approved. */
  account: accountRecord.nullable(),
  /** The balance the business started with (fixtures, import); the ledger explains every change since. */
  openingBalance: z.number().int().nonnegative(),
  /** Available balance in kobo: always `openingBalance` plus the ledger's effect. */
  balance: z.number().int().nonnegative(),
});

export const customerRecord = z.object({
  id: z.string(),
  businessId: z.string(),
  name: z.string(),
  phoneNo: z.string(),
  email: z.string(),
  dateCreated: z.string(),
  nuban: z.string(),
});

export const roleRecord = z.object({ id: z.string(), name: z.string() });

/** One ledger entry. A failed one is kept (a replay of its reference answers the same) but moves no money. */
export const transactionRecord = z.object({
  /** The transaction reference. */
  id: z.string(),
  businessId: z.string(),
  kind: transactionKind,
  direction: transactionDirection,
  status: transactionStatus,
  /** Kobo moved before charges. */
  amount: z.number().int().nonnegative(),
  /** Kobo fee: added to a debit, deducted from a credit. */
  charge: z.number().int().nonnegative(),
  /** Balance right after this entry. */
  balanceAfter: z.number().int().nonnegative(),
  retrievalReference: z.string().nullable(),
  narration: z.string(),
  counterparty: z
    .object({ accountNumber: z.string(), bankCode: z.string(), accountName: z.string() })
    .nullable(),
  errorCode: z.string(),
  errorMessage: z.string(),
  providerReference: z.string().nullable(),
  /** Fingerprint of the request that made it, to tell a replay from a reuse of its reference. */
  fingerprint: z.string().nullable(),
  /**
   * The \`x-request-id\` of the API request that made the entry (the id the sandbox answered with), to find it in
   * the request journal (\`GET /__sandbox/requests?requestId=\`). Null for entries the sandbox made itself (control
   * routes such as balance adjustments and incoming payments, the debits of bulk items made in the background)
   * and in states written before it was kept. A replay keeps the first request's id.
   */
  requestId: z.string().nullable().default(null),
  /**
   * The virtual account an incoming payment arrived on (the suspense account's `recipientAccountNumber`); null for
   * every other entry, and for payments recorded before it was kept.
   */
  virtualAccountNumber: z.string().nullable().default(null),
  createdAt: z.string(),
  /** When a successful transfer (or bulk item) was reversed; absent while it stands. */
  reversedAt: z.string().optional(),
  /** Why it was reversed, as the reversal said. */
  reversalReason: z.string().optional(),
  /** A reversal's entry: the transfer it gives the money of back. */
  reverses: z.object({ retrievalReference: z.string(), transactionReference: z.string() }).optional(),
  /** An incoming payment's refund, where one is due or was made; absent is `none`. */
  refundStatus: refundStatus.optional(),
  /** A refund's entry: the transaction reference of the payment it sends back. */
  refunds: z.string().optional(),
});

/** A payout account: the client's, whichever business it was added through (docs). */
export const payoutRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  bankName: z.string(),
  bankCode: z.string(),
  createdAt: z.string(),
});

export const disputeRecord = z.object({
  id: z.string(),
  businessId: z.string(),
  transactionId: z.string(),
  description: z.string(),
  status: disputeStatus,
  /** When it was opened (docs: `dateCreated`). */
  dateCreated: z.string(),
  /** When the operator resolved or rejected it; null while open. The API does not show it. */
  resolvedAt: z.string().nullable(),
});

export const auditRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  /** The business the action concerned; null for client-wide actions (sign-in, settings). */
  businessId: z.string().nullable(),
  email: z.string(),
  user: z.string(),
  action: z.string(),
  type: z.string(),
  date: z.string(),
  role: z.string(),
  ipAddress: z.string(),
});

export const invitationRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  userId: z.string(),
  /** The `authorizationToken` sent by email. */
  token: z.string(),
  expiresAt: z.number(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
});

/** A message the service "sent" (invitation, OTP), readable at `GET /__sandbox/outbox`. */
export const outboxRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  type: outboxType,
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  data: z.record(plainKey, z.string().max(10_000)),
  createdAt: z.string(),
});

export const virtualAccountRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: virtualAccountKind,
  /** The client's reference: a multi-use account's `reference`, a single-use one's `refCode`. */
  clientRef: z.string(),
  systemRef: z.string(),
  createdAt: z.string(),
  /** Ms since the epoch; null for permanent accounts. */
  expiresAt: z.number().nullable(),
  /** A single-use account's one amount, in kobo; null for the others. */
  reservedAmount: z.number().int().positive().nullable(),
  /** The transaction reference of the payment a single-use account took; null until it took one. */
  usedBy: z.string().nullable(),
});

/** A subscription plan of a business (docs: `GET /clients/business/subscriptions`). */
export const subscriptionRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  packageName: z.string(),
  /** Kobo. */
  amount: z.number().int().nonnegative(),
  interval: z.string(),
  createdAt: z.string(),
});

/**
 * A distance in ms that a `Date` can hold. A running clock's offset is not bounded by the clock's range: real time
 * moves on while a state is kept, and the clock reads an offset that carries it past the end as the end.
 */
const distanceMs = z.number().int().min(-MAX_TIME_MS).max(MAX_TIME_MS);

/** A moment in the clock's range (ms since the epoch): years 0000 to 9999. */
const clockMoment = z
  .number()
  .int()
  .min(START_OF_TIME_MS, "must not be before 0000-01-01T00:00:00.000Z, the start of the clock's range")
  .max(END_OF_TIME_MS, `must not be past ${END_OF_TIME}, the end of the clock's range`);

/** The virtual clock, kept in the state so that time never runs backwards across a restart or an import. */
export const clockState = z.object({
  /** Virtual time minus real time, while the clock runs. */
  offsetMs: distanceMs,
  /** Where the clock stands (ms since the epoch) while frozen; null while it runs. */
  frozenAt: clockMoment.nullable(),
});

export const metaRecord = z.object({
  id: z.literal('meta'),
  /** Seed of the fixtures and of every mutation's generator. */
  seed: z.number().int(),
  /** HS256 key of the access tokens; kept in the state so tokens survive a restart. */
  jwtSecret: z.string(),
  /** The clock; absent in states written before it was kept, which means real time, running. */
  clock: clockState.optional(),
});

/** A batch of transfers; its counters always equal its items' states. */
export const bulkTransferRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  bulkReference: z.string(),
  batchName: z.string(),
  /**
   * The batch's ordinal among its business's batches since the scenario rules in force were chosen: with the
   * item's `itemIndex` and `reprocessCount`, what a scenario's probability draw for an item is keyed on. Kept, so
   * an item resumed after a restart draws as it would have. 0 in states written before it was kept.
   */
  ordinal: z.number().int().nonnegative().default(0),
  totalItems: z.number().int().nonnegative(),
  completedItems: z.number().int().nonnegative(),
  failedItems: z.number().int().nonnegative(),
  status: bulkStatus,
  /** Why the batch as a whole failed to start; null otherwise. */
  failureReason: z.string().nullable(),
  /** The job of the last claim that queued items. */
  jobId: z.string().nullable(),
  /**
   * The \`x-request-id\` of the API request that made the batch (the id the sandbox answered with), to find it in
   * the request journal (\`GET /__sandbox/requests?requestId=\`). Null in states written before it was kept. Processing and
   * reprocessing are other requests: the journal has those, by the batch's id in their body.
   */
  requestId: z.string().nullable().default(null),
  createdAt: z.string(),
});

export const bulkItemRecord = z.object({
  id: z.string(),
  bulkTransferId: z.string(),
  itemIndex: z.number().int().nonnegative(),
  amount: z.number().int().positive(),
  receiverAccountNumber: z.string(),
  receiverBankCode: z.string(),
  retrievalReference: z.string(),
  narration: z.string(),
  /** The current attempt's reference; also the id of its ledger entry when it went through. */
  transactionReference: z.string(),
  /** The first attempt's reference, once the item has been reprocessed. */
  originalTransactionReference: z.string().nullable(),
  status: itemStatus,
  errorMessage: z.string(),
  errorCode: z.string(),
  providerReference: z.string(),
  reprocessCount: z.number().int().nonnegative(),
  processedAt: z.string().nullable(),
});

export {
  type DeliveryAttempt,
  type DeliveryRecord,
  deliveryAttempt,
  deliveryRecord,
  type ScheduledRecord,
  scheduledRecord,
  type WebhookPayload,
  webhookPayload,
} from './later-records.js';

export const collectionSchemas = {
  meta: metaRecord,
  roles: roleRecord,
  clients: clientRecord,
  users: userRecord,
  businesses: businessRecord,
  customers: customerRecord,
  transactions: transactionRecord,
  payouts: payoutRecord,
  disputes: disputeRecord,
  audits: auditRecord,
  invitations: invitationRecord,
  outbox: outboxRecord,
  virtualAccounts: virtualAccountRecord,
  subscriptions: subscriptionRecord,
  bulkTransfers: bulkTransferRecord,
  bulkItems: bulkItemRecord,
  deliveries: deliveryRecord,
  scheduled: scheduledRecord,
} as const;

export type ClientRecord = z.infer<typeof clientRecord>;
export type UserRecord = z.infer<typeof userRecord>;
export type AccountRecord = z.infer<typeof accountRecord>;
export type BusinessRecord = z.infer<typeof businessRecord>;
export type CustomerRecord = z.infer<typeof customerRecord>;
export type RoleRecord = z.infer<typeof roleRecord>;
export type MetaRecord = z.infer<typeof metaRecord>;
export type TransactionRecord = z.infer<typeof transactionRecord>;
export type PayoutRecord = z.infer<typeof payoutRecord>;
export type DisputeRecord = z.infer<typeof disputeRecord>;
export type AuditRecord = z.infer<typeof auditRecord>;
export type InvitationRecord = z.infer<typeof invitationRecord>;
export type OutboxRecord = z.infer<typeof outboxRecord>;
export type VirtualAccountRecord = z.infer<typeof virtualAccountRecord>;
export type SubscriptionRecord = z.infer<typeof subscriptionRecord>;
export type BulkTransferRecord = z.infer<typeof bulkTransferRecord>;
export type BulkItemRecord = z.infer<typeof bulkItemRecord>;

export type Collections = { [K in keyof typeof collectionSchemas]: z.infer<(typeof collectionSchemas)[K]> };
export type CollectionName = keyof Collections;
export const collectionNames = Object.keys(collectionSchemas) as CollectionName[];

/** Fields looked up by value; the store keeps an index for each, in memory only. */
export const indexedFields: { [K in CollectionName]?: readonly (keyof Collections[K] & string)[] } = {
  clients: ['publicKey'],
  roles: ['name'],
  users: ['email', 'clientId'],
  businesses: ['clientId'],
  customers: ['businessId'],
  transactions: ['businessId', 'retrievalReference'],
  payouts: ['clientId'],
  disputes: ['businessId', 'transactionId'],
  audits: ['clientId'],
  invitations: ['token'],
  outbox: ['clientId'],
  virtualAccounts: ['businessId', 'accountNumber'],
  subscriptions: ['businessId'],
  bulkTransfers: ['businessId'],
  bulkItems: ['bulkTransferId', 'transactionReference'],
  deliveries: ['clientId'],
};

/**
 * Values inside a record looked up by value, each under a name of its own; the store keeps an index for each as it
 * does for `indexedFields`. A record without the value (`undefined`) is in no entry of that index.
 */
export const indexedValues = {
  /** A business's payment account number, once it has one: a new account number must be unused by any. */
  businesses: { accountNumber: (business: BusinessRecord) => business.account?.accountNumber },
} satisfies { [K in CollectionName]?: Record<string, (record: Collections[K]) => string | undefined> };

/** What records of a collection can be looked up by: an indexed field, or an indexed value's name. */
export type IndexName<K extends CollectionName> =
  | (keyof Collections[K] & string)
  | (K extends keyof typeof indexedValues ? keyof (typeof indexedValues)[K] & string : never);

/**
 * Records as earlier versions wrote them, which a state file, its journal or an import may still hold: each is
 * read as the current shape or its earlier one, and brought up to date as it is loaded (`upgrade.ts`).
 */
const earlierShapes: { [K in CollectionName]?: z.ZodType } = {
  /** Before payout accounts belonged to the client. */
  payouts: payoutRecord.omit({ clientId: true }).extend({ businessId: z.string() }),
  /** Before the bank's `dateCreated`. */
  disputes: disputeRecord.omit({ dateCreated: true }).extend({ createdAt: z.string() }),
  /** Before single-use accounts. */
  virtualAccounts: virtualAccountRecord.omit({ reservedAmount: true, usedBy: true }),
};

/** Collections a state written before them does not hold: read as empty. */
const addedLater: ReadonlySet<CollectionName> = new Set(['subscriptions', 'scheduled']);

/** Whether a state may lack `collection` (it came later than the state). */
export const mayBeMissing = (collection: CollectionName) => addedLater.has(collection);

/** What a stored record of `collection` may be: its current shape, or the one an earlier version wrote. */
export const storedRecordSchemas = {} as Record<CollectionName, z.ZodType>;
for (const name of collectionNames) {
  const earlier = earlierShapes[name];
  storedRecordSchemas[name] = earlier ? z.union([collectionSchemas[name], earlier]) : collectionSchemas[name];
}

/** Each collection's schema in a stored state: its records, any of which may be in an earlier shape. */
const storedCollections = {} as Record<CollectionName, z.ZodType<unknown[]>>;
for (const name of collectionNames) {
  const records = z.array(storedRecordSchemas[name]);
  storedCollections[name] = mayBeMissing(name) ? records.default([]) : records;
}

/**
 * The whole state as imported and written to the snapshot file: every collection must be there (those added since
 * a state was written excepted), each record in its current shape or an earlier one. Its records are typed loosely:
 * `upgradeState` (or the store, as it loads) makes a `StateDocument` of them.
 */
export const stateDocument = z.object({
  version: z.literal(1),
  collections: z.object(storedCollections),
});

/** The whole state in the current shapes, every collection there: what the store holds and an export answers. */
export const currentStateDocument = z.object({
  version: z.literal(1),
  collections: z.object(
    Object.fromEntries(collectionNames.map((name) => [name, z.array(collectionSchemas[name])])) as {
      [K in CollectionName]: z.ZodArray<(typeof collectionSchemas)[K]>;
    },
  ),
});
export type StateDocument = z.infer<typeof currentStateDocument>;
