import { defineRoute, type Route, reply } from '../../http/route.js';
import { incomingPaymentBody, paymentReceived } from './schemas.js';
import { receivePayment } from './service.js';

/** `/incoming-payments`: money arrives on a virtual account, and its webhook goes out. */
export const incomingPaymentRoutes: Route[] = [
  defineRoute({
    operationId: 'incomingPayment',
    method: 'post',
    path: '/incoming-payments',
    summary: 'Receive a payment on a virtual account',
    description:
      'Money arrives on a virtual account (`accountNumber` from `POST /api/v1/clients/business/virtual-accounts` or `…/virtual-accounts/single-use`): the business is credited `amount` less the incoming charge, and one webhook delivery is queued. A single-use account takes exactly its `reservedAmount`, once, before it expires; anything else is 409 and credits nothing.',
    tag: 'Money',
    auth: { scheme: 'none' },
    body: incomingPaymentBody,
    example: {
      accountNumber: '1234567890',
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
    handle: async ({ deps, engines, body }) => ({
      status: 201,
      data: await receivePayment(deps, engines.webhooks, body),
    }),
  }),
];
