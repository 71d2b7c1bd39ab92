import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * A request header by its lowercase name. Under @hono/node-server it reads Node's already parsed headers:
 * going through the fetch request's `Headers` builds one for every request, a noticeable share of a cheap read. In
 * process (`app.request()`) there is no Node request, and it reads the fetch request.
 */
export function requestHeader(
  incoming: IncomingMessage | undefined,
  request: Request,
  name: string,
): string | undefined {
  if (incoming) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return request.headers.get(name) ?? undefined;
}

/** A request header of a route's request by its lowercase name (see `requestHeader`). */
export function header(c: Context<AppEnv>, name: string): string | undefined {
  return requestHeader(c.env.incoming, c.req.raw, name);
}
