import { pathPattern, type RouteContract } from '../contract/kit.js';

/**
 * Finds the route of `method` and `path` among `routes`, as the router would: each `{param}` one segment, and of
 * two templates that both fit, the one with fewer parameters (`/bulk-transfer/process` before `/bulk-transfer/{id}`).
 */
export function routeMatcher(routes: readonly RouteContract[]) {
  const compiled = routes
    .map((route) => ({
      route,
      method: route.method.toUpperCase(),
      pattern: pathPattern(route.path),
      params: route.path.split('{').length - 1,
    }))
    .sort((a, b) => a.params - b.params);
  return (method: string, path: string): RouteContract | undefined =>
    compiled.find((c) => c.method === method.toUpperCase() && c.pattern.test(path))?.route;
}
