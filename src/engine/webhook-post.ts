import http from 'node:http';
import { lazyHttps } from '../http/lazy-modules.js';

/** How long a connection to a receiver stays open unused, ms: as fetch's pool keeps one (4 s). */
const IDLE_CONNECTION_MS = 4000;

// One keep-alive agent per scheme, shared by every delivery: a receiver gets its deliveries over a few reused
// connections, as it did from fetch's pool. An idle connection is unreferenced, so it never keeps the process up.
// The https one is made with the first https delivery, which is when node:https is loaded.
const httpAgent = new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
let httpsAgent: http.Agent | undefined;

/** The agent of a URL's scheme; undefined for a scheme other than http and https. */
function agentFor(protocol: string): http.Agent | undefined {
  if (protocol === 'http:') return httpAgent;
  if (protocol !== 'https:') return undefined;
  httpsAgent ??= new (lazyHttps().Agent)({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  return httpsAgent;
}

/** The error of a POST that got no answer in time; its name is the one fetch's timeout signal gives. */
function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
}

/**
 * POSTs `body` to `url` and resolves with the status once the answer's head arrives (the body is read and
 * thrown away). Rejects with a `TimeoutError` when no head came within `timeoutMs`, and otherwise with an error
 * whose `cause` is the socket's (its `code` says what happened: ECONNREFUSED, ECONNRESET...). Redirects are not
 * followed.
 *
 * It is node:http rather than fetch because of what fetch keeps: `AbortSignal.timeout` holds its signal, and
 * through the abort listener fetch adds, the whole request and response, until the timer fires, even when the
 * answer came at once. With deliveries at hundreds a second and a 5 s timeout that is thousands of dead requests
 * alive at a time, promoted to the old generation; the soak benchmark saw the heap grow by hundreds of MB while
 * a backlog of deliveries went out. Here the timer is cleared as soon as the exchange is over, and nothing
 * outlives it.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  /** Ends the exchange at once (its sandbox was deleted): the connection is closed, and the promise rejects. */
  signal?: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      reject(error);
      return;
    }
    const agent = agentFor(target.protocol);
    if (!agent) {
      reject(new Error(`cannot POST to a ${target.protocol} URL: only http and https`));
      return;
    }
    const payload = Buffer.from(body);
    const request = (target.protocol === 'https:' ? lazyHttps() : http).request(target, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-length': String(payload.length) },
    });
    let answered = false;
    const abort = () => {
      clearTimeout(deadline);
      if (!answered) reject(new Error(`POST ${target.origin} was abandoned: its sandbox is gone`));
      request.destroy();
    };
    if (signal?.aborted) {
      request.destroy();
      reject(new Error(`POST ${target.origin} was abandoned: its sandbox is gone`));
      return;
    }
    signal?.addEventListener('abort', abort, { once: true });
    // Whatever ends the exchange lets go of the signal: a long-lived one must hold no request.
    request.on('close', () => signal?.removeEventListener('abort', abort));
    // The deadline covers the whole exchange: past it, before the head, the attempt has failed; after the head
    // (a body that never ends) the connection is closed, as fetch does when its body is cancelled unread.
    const deadline = setTimeout(() => {
      if (!answered) reject(timeoutError(timeoutMs));
      request.destroy();
    }, timeoutMs);
    request.on('response', (response) => {
      answered = true;
      resolve(response.statusCode ?? 0);
      // Cleared before the connection goes back to the pool: it must never cut the next exchange on it.
      response.on('end', () => clearTimeout(deadline));
      response.on('close', () => clearTimeout(deadline));
      response.on('error', () => undefined);
      response.resume();
    });
    request.on('error', (error) => {
      clearTimeout(deadline);
      if (!answered) reject(new Error(`POST ${target.origin} failed`, { cause: error }));
    });
    request.end(payload);
  });
}
