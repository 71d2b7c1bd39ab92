import * as z from 'zod';
import { deliveryStatus, scheduledKind } from './statuses.js';

// The records of what happens after a call: the webhook deliveries of incoming payments, and the work the sandbox
// does later on its clock. Part of every persisted state (`records.ts` lists them among its collections).

/** The incoming-payment notification, exactly the spec's fields (`recpientAccountName` spelled as the bank does). */
export const webhookPayload = z.object({
  transactionReference: z.string(),
  virtualAccountRef: z.string(),
  transactionDate: z.string(),
  amount: z.number().int(),
  charge: z.number().int(),
  availableBalance: z.number().int(),
  ledgerBalance: z.number().int(),
  accountName: z.string(),
  accountNumber: z.string(),
  recipientAccountNumber: z.string(),
  recpientAccountName: z.string(),
  description: z.string(),
  narration: z.string(),
  depositorDetails: z.object({
    accountName: z.string(),
    accountNumber: z.string(),
    bankCode: z.string(),
    bankName: z.string(),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

export const deliveryAttempt = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when there was no answer (timeout, refused connection). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nonnegative(),
});

/** One incoming-payment notification to a client's webhook URL, with every attempt made. */
export const deliveryRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  transactionReference: z.string(),
  /**
   * The delivery's ordinal among its business's deliveries since the scenario rules in force were chosen: with
   * the attempt's number, what a scenario's probability draw for an attempt is keyed on. 0 in states written
   * before it was kept.
   */
  ordinal: z.number().int().nonnegative().default(0),
  /** The URL at the time of the payment; null when none was set (the delivery is skipped). */
  url: z.string().nullable(),
  payload: webhookPayload,
  status: deliveryStatus,
  attempts: z.array(deliveryAttempt),
  /** Attempts left in the current round (a redelivery starts a new round). */
  attemptsLeft: z.number().int().nonnegative(),
  /** When the next attempt is due (ms since the epoch); null unless pending. */
  nextAttemptAt: z.number().nullable(),
  createdAt: z.string(),
  /** A late duplicate of another delivery (a scenario's `duplicate` with `afterMs`): the id of the first one. */
  duplicateOf: z.string().optional(),
});

/**
 * Something the sandbox does later on its clock, kept in the state so that it survives a restart and runs once: it
 * is removed in the same mutation that does it. `target` is the ledger entry of the transfer to reverse or of the
 * payment to refund, or the delivery to send again.
 */
export const scheduledRecord = z.object({
  id: z.string(),
  kind: scheduledKind,
  /** When it is due (ms since the epoch, sandbox clock). */
  dueAt: z.number().int(),
  businessId: z.string(),
  target: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});

export type DeliveryRecord = z.infer<typeof deliveryRecord>;
export type DeliveryAttempt = z.infer<typeof deliveryAttempt>;
export type ScheduledRecord = z.infer<typeof scheduledRecord>;
