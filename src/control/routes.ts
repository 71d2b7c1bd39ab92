import type { Route } from '../http/route.js';
import { accountNumberRoutes } from './account-numbers/routes.js';
import { bulkTransferRoutes } from './bulk-transfers/routes.js';
import { clientRoutes } from './clients/routes.js';
import { clockRoutes } from './clock/routes.js';
import { disputeRoutes } from './disputes/routes.js';
import { driftRoutes } from './drift/routes.js';
import { incomingPaymentRoutes } from './incoming-payments/routes.js';
import { moneyRoutes } from './money/routes.js';
import { outboxRoutes } from './outbox/routes.js';
import { requestRoutes } from './requests/routes.js';
import { reversalRoutes } from './reversals/routes.js';
import type { ControlRuntime } from './runtime.js';
import { sandboxRoutes } from './sandbox/routes.js';
import { sandboxesRoutes } from './sandboxes/routes.js';
import { scenarioRoutes } from './scenarios/routes.js';
import { stateRoutes } from './state/routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { virtualAccountRoutes } from './virtual-accounts/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

export type { ControlHooks } from './hooks.js';

/**
 * The control API's routes: every contract of `controlContracts` but the dashboard's (`src/dashboard/`) and the
 * control document (`src/openapi/`), whose doors implement them.
 */
export const controlRouteList: readonly Route<ControlRuntime>[] = [
  ...sandboxRoutes,
  ...sandboxesRoutes,
  ...clientRoutes,
  ...stateRoutes,
  ...moneyRoutes,
  ...accountNumberRoutes,
  ...subscriptionRoutes,
  ...incomingPaymentRoutes,
  ...reversalRoutes,
  ...outboxRoutes,
  ...disputeRoutes,
  ...bulkTransferRoutes,
  ...virtualAccountRoutes,
  ...webhookRoutes,
  ...requestRoutes,
  ...driftRoutes,
  ...clockRoutes,
  ...scenarioRoutes,
];
