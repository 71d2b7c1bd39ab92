import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { apiRoutes } from './api/routes.js';
import { type ControlHooks, controlRoutes } from './control/routes.js';
import type { Deps } from './deps.js';
import type { AppEnv } from './http/env.js';
import { ApiError, errorBody } from './http/envelope.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** A state import (`PUT /__sandbox/state`) may be far larger than any API body. */
const STATE_IMPORT_LIMIT_BYTES = 512 * 1_048_576;
const STATE_PATH = '/__sandbox/state';

function limit(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, 'Request body too large');
    },
  });
}

/** The whole HTTP surface: `/api/v1` (the emulated bank) and `/__sandbox` (control). No port is opened here. */
export function createApp(deps: Deps, hooks: ControlHooks) {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    await next();
    c.res.headers.set('x-request-id', id);
  });

  const bodyLimitFor = {
    normal: limit(deps.config.bodyLimitBytes),
    stateImport: limit(STATE_IMPORT_LIMIT_BYTES),
  };
  app.use((c, next) => (c.req.path === STATE_PATH ? bodyLimitFor.stateImport : bodyLimitFor.normal)(c, next));
  app.route('/api/v1', apiRoutes(deps));
  app.route('/__sandbox', controlRoutes(deps, hooks));

  app.notFound((c) => c.json(errorBody(`Route not found: ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(errorBody(error.message, error.errors), error.status);
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody(error.message || 'Bad request'), error.status);
    }
    deps.log(
      `error ${c.req.method} ${c.req.path} request=${c.get('requestId')}: ${(error as Error).stack ?? error}`,
    );
    return c.json(errorBody('Internal server error'), 500);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
