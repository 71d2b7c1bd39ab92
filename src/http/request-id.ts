import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestHeader } from './headers.js';

/** What an `x-request-id` the sandbox echoes may hold: word characters, `.:-`, up to 128. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request ids this process makes: a UUID's first four groups drawn once per process (74 random bits), and a
 * counter for the last, from a random start. Still UUID-shaped, unique in the journal and across restarts as a
 * random one was, for less than drawing 122 random bits a request costs.
 */
const PREFIX = randomUUID().slice(0, 24);
let counter = Number.parseInt(randomUUID().slice(24, 32), 16) * 0x1000;
const LAST_GROUP = 0x1_0000_0000_0000;

/** A request id the sandbox makes: for a request that brings none it can echo, or that never reached the app. */
export function newRequestId(): string {
  // A comparison, not `% LAST_GROUP`: past 2^31 that is a floating-point remainder, a libm call per request.
  counter = counter + 1 === LAST_GROUP ? 0 : counter + 1;
  return PREFIX + counter.toString(16).padStart(12, '0');
}

/** The request's `x-request-id` if it is one the sandbox can echo, else a new one. */
export function requestIdOf(request: Request, incoming: IncomingMessage | undefined): string {
  const given = requestHeader(incoming, request, 'x-request-id');
  return given !== undefined && REQUEST_ID.test(given) ? given : newRequestId();
}
