import { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { createAuth } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { authRoutes } from './auth/routes.js';
import { businessRoutes } from './business/routes.js';
import { memberRoutes } from './members/routes.js';
import { settingsRoutes } from './settings/routes.js';

/** Everything under `/api/v1`. */
export function apiRoutes(deps: Deps) {
  const auth = createAuth(deps);
  return new Hono<AppEnv>()
    .route('/auth', authRoutes(deps))
    .route('/clients/settings', settingsRoutes(deps, auth))
    .route('/clients/business', businessRoutes(deps, auth))
    .route('/clients/members', memberRoutes(deps, auth));
}
