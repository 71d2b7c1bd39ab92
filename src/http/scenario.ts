import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Deps } from '../deps.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from './env.js';
import { header } from './headers.js';

/** The ready scenario a request picked for itself with `x-sandbox-scenario`; 400 if there is no such one. */
export function chosenScenario(c: Context<AppEnv>, deps: Pick<Deps, 'scenarios'>): string | undefined {
  const name = header(c, 'x-sandbox-scenario');
  if (name === undefined || name === '') return undefined;
  if (!deps.scenarios.library.get(name))
    throw new ApiError(400, `x-sandbox-scenario: no ready scenario named "${name}"`);
  return name;
}

/**
 * The route a request was matched to, as registered (`/api/v1/.../bulk-transfer/:id`), so that requests to one
 * route count together whatever ids their paths hold; a request no route answers counts as `(no route)`.
 */
export function routeOf(c: Context<AppEnv>): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i];
    // Middleware is registered for every method; the handler that answers is the last route with its own.
    if (route && route.method !== 'ALL') return route.path;
  }
  return '(no route)';
}
