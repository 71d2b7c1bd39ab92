import * as z from 'zod';

// Every status and kind the API names, defined once: the records, the request and response schemas, the
// control API's filters and the engines all use these.

export const bulkStatus = z.enum(['pending', 'processing', 'completed', 'failed', 'partially_completed']);
export type BulkStatus = z.infer<typeof bulkStatus>;

export const itemStatus = z.enum(['pending', 'processing', 'completed', 'failed']);
export type ItemStatus = z.infer<typeof itemStatus>;

export const disputeStatus = z.enum(['open', 'resolved', 'rejected']);
export type DisputeStatus = z.infer<typeof disputeStatus>;

/** `dropped`: a scenario made the service lose the delivery; it is never sent. */
export const deliveryStatus = z.enum(['pending', 'delivered', 'failed', 'skipped', 'dropped']);
export type DeliveryStatus = z.infer<typeof deliveryStatus>;

export const transactionStatus = z.enum(['successful', 'failed']);
export const transactionDirection = z.enum(['debit', 'credit']);
export const transactionKind = z.enum([
  'transfer',
  'anonymous_transfer',
  'bulk_transfer',
  'incoming_payment',
  'balance_adjustment',
]);

export const virtualAccountType = z.enum(['temporal', 'permanent']);
export const outboxType = z.enum(['member_invitation', 'bvn_otp']);
