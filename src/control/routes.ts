import { Hono } from 'hono';
import * as z from 'zod';
import type { Deps } from '../deps.js';
import { secureEqual } from '../domain/secure-compare.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, done, ok } from '../http/envelope.js';
import { jsonBody } from '../http/validate.js';
import { credentials } from './credentials.js';
import { importState } from './state.js';

/** What the control API needs from the running sandbox beyond the shared deps. */
export interface ControlHooks {
  version: string;
  startedAt: number;
  reset: () => Promise<void>;
}

/** `/__sandbox`: the control API for tests and people. */
export function controlRoutes(deps: Deps, hooks: ControlHooks) {
  const app = new Hono<AppEnv>();
  const token = deps.config.controlToken;
  if (token) {
    app.use(async (c, next) => {
      const given = c.req.header('x-sandbox-token');
      if (!given || !secureEqual(given, token))
        throw new ApiError(401, 'x-sandbox-token is missing or wrong');
      await next();
    });
  }
  return app
    .get('/health', (c) =>
      c.json({
        status: 'ok',
        version: hooks.version,
        uptimeSeconds: Math.floor((Date.now() - hooks.startedAt) / 1000),
      }),
    )
    .get('/credentials', (c) => ok(c, 'Sandbox credentials', { clients: credentials(deps.store) }))
    .post('/reset', async (c) => {
      await hooks.reset();
      return done(c, 'Sandbox reset to the fixtures');
    })
    .get('/state', (c) => c.json(deps.store.exportState()))
    .put('/state', async (c) => {
      await importState(deps, await jsonBody(c, z.unknown()));
      return done(c, 'State imported');
    });
}
