import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestHeader } from './headers.js';

/** What an `x-request-id` the sandbox echoes may hold: word characters, `.:-`, up to 128. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A request id the sandbox makes: for a request that brings none it can echo, or that never reached the app. */
export const newRequestId = (): string => randomUUID();

/** The request's `x-request-id` if it is one the sandbox can echo, else a new one. */
export function requestIdOf(request: Request, incoming: IncomingMessage | undefined): string {
  const given = requestHeader(incoming, request, 'x-request-id');
  return given !== undefined && REQUEST_ID.test(given) ? given : newRequestId();
}
