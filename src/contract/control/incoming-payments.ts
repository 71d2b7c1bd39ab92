import * as z from 'zod';
import { deliveryStatus } from '../../domain/statuses.js';
import { accountNumber, bankCode, koboAmount } from '../api/transfers.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';

// Money arriving on a virtual account.

export const incomingPaymentBody = deferred(() =>
  z.object({
    accountNumber,
    amount: koboAmount(1),
    accountName: z.string().trim().min(1).max(100).optional(),
    payerAccountNumber: accountNumber.optional(),
    payerBankCode: bankCode.optional(),
    narration: z.string().trim().min(1).max(200).optional(),
    mispaid: z
      .enum(['refuse', 'refund'])
      .optional()
      .describe(
        'a payment the account should not take (a wrong amount, a second or late payment to a single-use account, a payment to an expired temporal account): `refuse` (the default) answers 409 and credits nothing; `refund` credits it like any other, lists it with `refundStatus: "pending"`, and refunds it `--refund-delay` later on the sandbox clock',
      ),
  }),
);

/** A payment as code sends it (`incomingPayment()`): the account, kobo, and who paid, each optional but the first two. */
export interface IncomingPayment {
  accountNumber: string;
  amount: number;
  accountName?: string | undefined;
  payerAccountNumber?: string | undefined;
  payerBankCode?: string | undefined;
  narration?: string | undefined;
  /** A payment the account should not take: `refuse` (the default, 409) or `refund` (credited, refunded later). */
  mispaid?: 'refuse' | 'refund' | undefined;
}

// What the route answers.

export const paymentReceived = lazy('PaymentReceived', () =>
  z.strictObject({
    transactionReference: z.string(),
    deliveryId: z.string().describe('the webhook delivery: `GET /webhooks/deliveries/{id}`'),
    deliveryStatus: deliveryStatus.describe('`skipped` when the client has no webhook URL'),
  }),
);
export type PaymentReceivedView = z.infer<ReturnType<typeof paymentReceived>>;

export const incomingPaymentContract = contract({
  operationId: 'incomingPayment',
  method: 'post',
  path: '/incoming-payments',
  summary: 'Receive a payment on a virtual account',
  description:
    'Money arrives on a virtual account (`accountNumber` from `POST /api/v1/clients/business/virtual-accounts` or `…/virtual-accounts/single-use`): the business is credited `amount` less the incoming charge, and one webhook delivery is queued. A single-use account takes exactly its `reservedAmount`, once, before it expires; anything else is 409 and credits nothing, unless `mispaid: "refund"`: then it is credited, and refunded `--refund-delay` later.',
  tag: 'Money',
  auth: { scheme: 'none' },
  body: incomingPaymentBody,
  // The virtual account the fixtures give A1.
  example: {
    accountNumber: fixture.virtualAccount,
    amount: 500000,
    accountName: 'Tunde Bakare',
    narration: 'Order 42',
  },
  responses: {
    201: reply(
      'Payment received',
      paymentReceived,
      '`Payment received`: `transactionReference`, `deliveryId`, `deliveryStatus`',
    ),
    404: '`Virtual account not found`',
    409: [
      '`This temporal virtual account has expired`',
      '`This single-use virtual account has expired`',
      '`This single-use virtual account has already received its payment`',
      '`This single-use virtual account takes exactly N kobo, not M`',
    ],
  },
});
