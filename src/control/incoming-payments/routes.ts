import { receivePayment } from '../../bank/incoming-payments/service.js';
import { incomingPaymentContract } from '../../contract/control/incoming-payments.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/incoming-payments`: money arrives on a virtual account, and its webhook goes out. */
export const incomingPaymentRoutes: Route<ControlRuntime>[] = [
  route(incomingPaymentContract, async ({ deps, engines, body }) => ({
    status: 201,
    data: await receivePayment(deps, engines.webhooks, body, engines.later),
  })),
];
