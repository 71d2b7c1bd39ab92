import * as z from 'zod';
import { accountNumber, bankCode, koboAmount } from '../../api/transfers/schemas.js';
import { deliveryStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';

// Money arriving on a virtual account.

export const incomingPaymentBody = z.object({
  accountNumber,
  amount: koboAmount(1),
  accountName: z.string().trim().min(1).max(100).optional(),
  payerAccountNumber: accountNumber.optional(),
  payerBankCode: bankCode.optional(),
  narration: z.string().trim().min(1).max(200).optional(),
});

// What the route answers.

export const paymentReceived = lazy('PaymentReceived', () =>
  z.strictObject({
    transactionReference: z.string(),
    deliveryId: z.string().describe('the webhook delivery: `GET /webhooks/deliveries/{id}`'),
    deliveryStatus: deliveryStatus.describe('`skipped` when the client has no webhook URL'),
  }),
);
export type PaymentReceivedView = z.infer<ReturnType<typeof paymentReceived>>;
