import * as z from 'zod';
import { idText, text } from '../../domain/fields.js';
import { refundStatus } from '../../domain/statuses.js';
import { fixture, transferExample } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';
import { businessId } from './money.js';

// Money after the answer: a successful transfer reversed, an incoming payment refunded, at once.

const reason = text().max(200).optional().describe('why, as the ledger and the control views show it');

export const reverseBody = deferred(() =>
  z
    .object({
      reason,
      bulkTransferId: idText()
        .optional()
        .describe(
          'the batch, where the reference names items of more than one batch of the business (without it: 409 naming them)',
        ),
    })
    .strict(),
);

export const refundBody = deferred(() => z.object({ reason }).strict());

// What the routes answer.

export const reversal = lazy('Reversal', () =>
  z.strictObject({
    retrievalReference: z.string(),
    transactionReference: z
      .string()
      .describe('the reversed transfer’s ledger entry (the reversal’s own is in the ledger)'),
    amount: z.string().describe('kobo, as on the wire'),
    transactionCharge: z.string(),
    totalAmount: z.string().describe('amount + charge: what the reversal credits back'),
    reason: z.string(),
    reversedAt: z.string(),
  }),
);
export type ReversalView = z.infer<ReturnType<typeof reversal>>;

export const refund = lazy('Refund', () =>
  z.strictObject({
    transactionReference: z.string().describe('the refunded payment'),
    refundReference: z.string().describe('the refund’s own ledger entry'),
    amount: z.string().describe('kobo debited back: what the payment credited (amount − charge)'),
    refundStatus: refundStatus.describe('`refunded`'),
    reason: z.string(),
    refundedAt: z.string(),
  }),
);
export type RefundView = z.infer<ReturnType<typeof refund>>;

export const reverseTransferContract = contract({
  operationId: 'reverseTransfer',
  method: 'post',
  path: '/businesses/{id}/transfers/{retrievalReference}/reverse',
  summary: 'Reverse a successful transfer',
  description:
    'A successful single transfer, or a `completed` bulk item, is reversed now: its `totalAmount` (amount + charge) is credited back as one ledger entry of kind `reversal` (`reverses` names the original), the original’s entry shows `reversedAt` and `reversalReason`, and one audit entry is written (`action: "reversal"`). The bank’s own answers do not change: a replay of the reference still answers `Transfer successful`, and the item stays `completed`. What the app sees: the balance and the audit entry.',
  tag: 'Money',
  auth: { scheme: 'none' },
  params: {
    id: businessId,
    retrievalReference: {
      description: 'the transfer’s `retrievalReference`',
      example: transferExample.retrievalReference,
    },
  },
  body: reverseBody,
  example: { reason: 'Beneficiary account closed' },
  responses: {
    200: reply('Transfer reversed', reversal),
    400: 'a field that is not valid, named',
    404: ['`Business not found`', '`Transfer not found`'],
    409: [
      '`Transfer already reversed`',
      '`Only a successful transfer can be reversed` (failed, or an item not `completed`)',
      '`retrievalReference names more than one transfer of this business (…): give bulkTransferId`',
    ],
  },
});

export const refundPaymentContract = contract({
  operationId: 'refundPayment',
  method: 'post',
  path: '/incoming-payments/{transactionReference}/refund',
  summary: 'Refund an incoming payment',
  description:
    'What the payment credited (amount − charge) is debited back now, as one ledger entry of kind `refund` naming it, and the suspense account lists the payment with `refundStatus: "refunded"`. A balance that cannot cover it: 409, and nothing changes (a scheduled refund of a mispaid payment becomes `failed` instead).',
  tag: 'Money',
  auth: { scheme: 'none' },
  params: {
    transactionReference: {
      description: 'the payment’s `transactionReference` (the webhook’s)',
      example: fixture.payment,
    },
  },
  body: refundBody,
  example: { reason: 'Paid to the wrong account' },
  responses: {
    200: reply('Payment refunded', refund),
    400: 'a field that is not valid, named',
    404: '`Payment not found`',
    409: ['`Payment already refunded`', '`The available balance cannot cover the refund of N kobo`'],
  },
});
