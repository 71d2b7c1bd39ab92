import { dashboardRoutes } from '../dashboard/routes.js';
import type { Route } from '../http/route.js';
import { bulkTransferRoutes } from './bulk-transfers/routes.js';
import { clientRoutes } from './clients/routes.js';
import { clockRoutes } from './clock/routes.js';
import { disputeRoutes } from './disputes/routes.js';
import { incomingPaymentRoutes } from './incoming-payments/routes.js';
import { moneyRoutes } from './money/routes.js';
import { outboxRoutes } from './outbox/routes.js';
import { requestRoutes } from './requests/routes.js';
import { sandboxRoutes } from './sandbox/routes.js';
import { scenarioRoutes } from './scenarios/routes.js';
import { stateRoutes } from './state/routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { virtualAccountRoutes } from './virtual-accounts/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

export type { ControlHooks } from './hooks.js';

/**
 * Everything under `/__sandbox`, in the order the control document lists it: the router, the document, the fuzz
 * model and the `--control-token` tests all read this one list.
 */
export const controlRouteList: Route[] = [
  ...sandboxRoutes,
  ...dashboardRoutes,
  ...clientRoutes,
  ...stateRoutes,
  ...moneyRoutes,
  ...subscriptionRoutes,
  ...incomingPaymentRoutes,
  ...outboxRoutes,
  ...disputeRoutes,
  ...bulkTransferRoutes,
  ...virtualAccountRoutes,
  ...webhookRoutes,
  ...requestRoutes,
  ...clockRoutes,
  ...scenarioRoutes,
];
