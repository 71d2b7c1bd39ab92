import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * A request header by its lowercase name. Under @hono/node-server it reads Node's already parsed headers:
 * going through `c.req.header()` builds a fetch `Headers` object for every request, a noticeable share of a
 * cheap read. In process (`app.request()`) it falls back to the fetch request.
 */
export function header(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = c.env.incoming;
  if (incoming) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return c.req.header(name);
}
