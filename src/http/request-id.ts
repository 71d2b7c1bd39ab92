import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestHeader } from './headers.js';

/** What an `x-request-id` the sandbox echoes may hold: word characters, `.:-`, up to 128. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Half of the last group, 24 bits: each half is a small integer, which prints with no floating-point remainder. */
const HALF = 0x100_0000;

/**
 * Request ids of `prefix` (a UUID's first four groups and their dashes) and a 48-bit counter for the last group,
 * starting after `start` and wrapping to 0. The counter is kept as two 24-bit halves: a number past 2^31 prints in
 * hex through a floating-point remainder per digit, a libm call a request.
 */
export function requestIds(prefix: string, start: number): () => string {
  let high = Math.floor(start / HALF) % HALF;
  let low = start % HALF;
  return () => {
    low += 1;
    if (low === HALF) {
      low = 0;
      high = high + 1 === HALF ? 0 : high + 1;
    }
    return prefix + high.toString(16).padStart(6, '0') + low.toString(16).padStart(6, '0');
  };
}

/**
 * A request id the sandbox makes: for a request that brings none it can echo, or that never reached the app. A
 * UUID's first four groups drawn once per process (74 random bits), and a counter for the last, from a random start.
 * Still UUID-shaped, unique in the journal and across restarts as a random one was, for less than drawing 122 random
 * bits a request costs.
 */
export const newRequestId = requestIds(
  randomUUID().slice(0, 24),
  Number.parseInt(randomUUID().slice(24, 32), 16) * 0x1000,
);

/** The request's `x-request-id` if it is one the sandbox can echo, else a new one. */
export function requestIdOf(request: Request, incoming: IncomingMessage | undefined): string {
  const given = requestHeader(incoming, request, 'x-request-id');
  return given !== undefined && REQUEST_ID.test(given) ? given : newRequestId();
}
