import { Hono } from 'hono';
import type { Deps } from '../deps.js';
import type { BulkProcessor } from '../engine/bulk-processor.js';
import { createAuth } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import type { Route } from '../http/route.js';
import { auditRoutes } from './audits/routes.js';
import { authRoutes } from './auth/routes.js';
import { bulkRoutes } from './bulk/routes.js';
import { businessRoutes } from './business/routes.js';
import { disputeRoutes } from './disputes/routes.js';
import { memberRoutes } from './members/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { settingsRoutes } from './settings/routes.js';
import { transferRoutes } from './transfers/routes.js';
import { virtualAccountRoutes } from './virtual-accounts/routes.js';

/** Everything under `/api/v1`. */
export function apiRoutes(deps: Deps, engines: { bulk: BulkProcessor }) {
  const auth = createAuth(deps);
  return new Hono<AppEnv>().route('/clients/members', memberRoutes(deps, auth));
}

/** Every operation of the bank's API, defined once; mounted under `/api/v1`. */
export const apiRouteList: readonly Route[] = [
  ...authRoutes,
  ...settingsRoutes,
  ...businessRoutes,
  ...transferRoutes,
  ...bulkRoutes,
  ...payoutRoutes,
  ...disputeRoutes,
  ...auditRoutes,
  ...virtualAccountRoutes,
];
