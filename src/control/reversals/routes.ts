import { refundPayment } from '../../bank/incoming-payments/refunds.js';
import { reverseTransfer } from '../../bank/reversals/service.js';
import { refundPaymentContract, reverseTransferContract } from '../../contract/control/reversals.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** Money after the answer, at once: a transfer reversed, a payment refunded. */
export const reversalRoutes: Route<ControlRuntime>[] = [
  // The reference as the client wrote it: the path's ids are canonical, and a client's own reference that looks like
  // a UUID in capitals is still its own.
  route(reverseTransferContract, async ({ deps, c, params, body }) => ({
    data: await reverseTransfer(deps, params.id, c.req.param('retrievalReference') ?? '', body),
  })),
  route(refundPaymentContract, async ({ deps, params, body }) => ({
    data: await refundPayment(deps, params.transactionReference, body.reason),
  })),
];
