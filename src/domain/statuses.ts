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
  /** Money of a successful transfer given back to the business (`reverses` names the transfer). */
  'reversal',
  /** Money of an incoming payment sent back to the payer (`refunds` names the payment). */
  'refund',
]);

/**
 * Where the refund of an incoming payment stands, as the suspense account lists it: `none` (no refund needed),
 * `pending` (a mispaid payment, refunded at `--refund-delay`), `refunded`, or `failed` (the balance could not cover
 * it). The bank's docs show the field, not its values: these are the sandbox's reading.
 */
export const refundStatus = z.enum(['none', 'pending', 'refunded', 'failed']);
export type RefundStatus = z.infer<typeof refundStatus>;

/** What the sandbox does later, on its clock: reverse a transfer, refund a payment, deliver a webhook again. */
export const scheduledKind = z.enum(['reversal', 'refund', 'duplicate']);
export type ScheduledKind = z.infer<typeof scheduledKind>;

/** What `POST /clients/business/virtual-accounts` takes as `type`. */
export const virtualAccountType = z.enum(['temporal', 'permanent']);
/** A virtual account as kept: a multi-use one's `type`, or `single_use` (one payment of one amount, then expired). */
export const virtualAccountKind = z.enum([...virtualAccountType.options, 'single_use']);
export type VirtualAccountKind = z.infer<typeof virtualAccountKind>;
/** Whether a virtual account takes a payment: `used` is a single-use account that took its one payment. */
export const virtualAccountState = z.enum(['open', 'used', 'expired']);
export type VirtualAccountState = z.infer<typeof virtualAccountState>;
export const outboxType = z.enum(['member_invitation', 'bvn_otp']);

/**
 * An audit entry's category (`type`): lower case, as the bank's docs show it (`transaction`). The audit log's
 * `type` filter takes any text; these are the values the sandbox writes.
 */
export const auditType = z.enum([
  'auth',
  'settings',
  'business',
  'transaction',
  'payout',
  'dispute',
  'member',
  'virtual_account',
  'subscription',
]);
export type AuditType = z.infer<typeof auditType>;

/** What an audit entry records was done (`action`): a short lower-case verb, as the docs' filter examples. */
export const auditAction = z.enum([
  'login',
  'transfer',
  'create',
  'update',
  'delete',
  'register',
  'invite',
  'process',
  'reprocess',
  'validate',
  'reversal',
  'refund',
]);
export type AuditAction = z.infer<typeof auditAction>;
