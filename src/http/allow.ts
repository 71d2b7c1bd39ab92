import type { Context } from 'hono';
import { pathPattern, type RouteContract } from '../contract/kit.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * The refusal of a request no route took, thrown for the app's error handler to answer like every other error:
 * 405 with `Allow` (RFC 9110, 15.5.6) when its path is one the routes know under another method, else 404. `HEAD`
 * is allowed wherever `GET` is, as Hono answers it.
 */
export function unmatchedRoute(
  mounted: readonly (readonly [prefix: string, routes: readonly RouteContract[]])[],
) {
  const paths = new Map<string, { match: RegExp; methods: Set<string> }>();
  for (const [prefix, routes] of mounted) {
    for (const route of routes) {
      const path = `${prefix}${route.path}`;
      let entry = paths.get(path);
      if (!entry) {
        entry = { match: pathPattern(path), methods: new Set() };
        paths.set(path, entry);
      }
      const method = route.method.toUpperCase();
      entry.methods.add(method);
      if (method === 'GET') entry.methods.add('HEAD');
    }
  }
  const entries = [...paths.values()];
  /** The methods `path` answers to, in a fixed order; none for a path no route has. */
  const allowed = (path: string): string[] => {
    const methods = new Set<string>();
    for (const entry of entries) if (entry.match.test(path)) for (const m of entry.methods) methods.add(m);
    return [...methods].sort();
  };
  return (c: Context<AppEnv>): never => {
    const { method, path } = c.req;
    const allow = allowed(path);
    if (allow.length === 0 || allow.includes(method))
      throw new ApiError(404, `Route not found: ${method} ${path}`);
    c.header('Allow', allow.join(', '));
    throw new ApiError(405, `Method ${method} is not allowed on ${path}; it allows ${allow.join(', ')}`);
  };
}
