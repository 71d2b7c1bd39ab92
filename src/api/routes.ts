import type { Route } from '../http/route.js';
import { auditRoutes } from './audits/routes.js';
import { authRoutes } from './auth/routes.js';
import { bulkRoutes } from './bulk/routes.js';
import { businessRoutes } from './business/routes.js';
import { disputeRoutes } from './disputes/routes.js';
import { memberRoutes } from './members/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import type { ApiRuntime } from './runtime.js';
import { settingsRoutes } from './settings/routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { transferRoutes } from './transfers/routes.js';
import { virtualAccountRoutes } from './virtual-accounts/routes.js';

/** Every operation of the bank's API (`apiContracts`), implemented: mounted under `/api/v1`. */
export const apiRouteList: readonly Route<ApiRuntime>[] = [
  ...authRoutes,
  ...settingsRoutes,
  ...businessRoutes,
  ...transferRoutes,
  ...bulkRoutes,
  ...payoutRoutes,
  ...disputeRoutes,
  ...auditRoutes,
  ...virtualAccountRoutes,
  ...subscriptionRoutes,
  ...memberRoutes,
];
