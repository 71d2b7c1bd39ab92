import type { Context, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, type FieldError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * A bound on the request body. Under @hono/node-server a body of known length is judged by the Content-Length
 * that Node has parsed already, and one with neither that nor Transfer-Encoding has no body. Only a chunked body
 * goes through Hono's `bodyLimit`, which counts it as it streams in: that middleware looks at `c.req.raw.body`,
 * which makes @hono/node-server build a whole fetch Request (an AbortController, a web stream over the socket,
 * an entry in undici's FinalizationRegistry) where it would otherwise read the body straight from Node. A write
 * then holds all of that until its change is on disk, long enough to be promoted to the old generation, where it
 * dies: some 7 KB a write, which under load grew the heap to several times what it held live.
 */
export function limit(
  maxSize: number,
  message = 'Request body too large',
  status: 400 | 413 = 413,
  field?: FieldError,
) {
  const refuse = (c: Context<AppEnv>): never => {
    // Answered before the body was read (by its Content-Length, or part way through a chunked one): the rest
    // is drained only so far, then the socket is closed, so a keep-alive client must not reuse it.
    c.header('connection', 'close');
    throw new ApiError(status, message, field ? [field] : undefined);
  };
  const streamed = bodyLimit({ maxSize, onError: refuse });
  return (c: Context<AppEnv>, next: Next) => {
    const headers = c.env.incoming?.headers;
    if (!headers || headers['transfer-encoding'] !== undefined) return streamed(c, next);
    const length = headers['content-length'];
    if (length === undefined) return next();
    return Number.parseInt(length, 10) > maxSize ? refuse(c) : next();
  };
}
