import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { carriesControlToken, missingControlToken, refuseForeignCall } from '../http/control-access.js';
import type { AppEnv } from '../http/env.js';

/**
 * What stands before every `/__sandbox` path the dashboard does not answer (its routes, the control document, a path
 * no route takes): a call that may never drive the sandbox is refused (`refuseForeignCall`), then with
 * `--control-token` one without the token (401). The dashboard applies the same rules with its token flow in front.
 */
export function controlGuard(config: Pick<Config, 'controlToken'>): MiddlewareHandler<AppEnv> {
  const token = config.controlToken;
  return async (c, next) => {
    refuseForeignCall(c, config);
    if (token && !carriesControlToken(c, token)) throw missingControlToken();
    await next();
  };
}
