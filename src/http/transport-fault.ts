import { type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { BODYLESS_STATUSES, type TransportFault } from '../contract/scenarios.js';

// A scenario's transport fault played out on the connection of one request, under @hono/node-server: the socket
// reset or closed with no answer, bytes that are not HTTP, an answer cut off half way, or one sent slowly. Only
// that request's connection is touched: other connections, the route and the sandbox go on as before, and a client's
// keep-alive pool, which sees that one connection fail, opens another for its next request.

/** The header a faulted answer carries, where one is sent: which fault it was. */
export const FAULT_HEADER = 'x-sandbox-fault';

/** What a `garbage` fault sends: no HTTP status line starts so, and no parser takes it for one. */
const GARBAGE = Buffer.from('\u0000\u00ff\u0013\u0007 these bytes are not HTTP \u00fe\r\n\r\n', 'latin1');

/** How often a slow body sends its next bytes, ms (a slower rate sends one byte at a time, less often). */
const SLOW_TICK_MS = 100;

/**
 * What @hono/node-server is handed for a request whose connection the fault took care of: a response that says it
 * was sent, which the server then leaves alone. Made by @hono/node-server itself, from the fetch `Response` of
 * before it installs its own, so that it is never taken for one of its cached responses (which it would write).
 */
const SENT_ALREADY: Response = RESPONSE_ALREADY_SENT;

/**
 * `SENT_ALREADY`, made sure of: had the constant been made after the server installed its own responses (another
 * server of @hono/node-server started first in the process), it would hold a cache that the server writes as it is;
 * reading its body drops that cache for good, and costs nothing otherwise.
 */
function sentAlready(): Response {
  if (SENT_ALREADY.body !== null) throw new Error('@hono/node-server: RESPONSE_ALREADY_SENT has a body');
  return SENT_ALREADY;
}

/** The headers an answer goes out with: those already set on Node's response (the request id, warnings) and its own. */
function headersOf(outgoing: ServerResponse, res: Response): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...outgoing.getHeaders() };
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  headers[FAULT_HEADER] = 'truncated';
  return headers;
}

/** An HTTP/1.1 head as its bytes: the status line and the header lines. */
function headBytes(status: number, headers: OutgoingHttpHeaders): Buffer {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * `truncated`: the status and headers, the body's length as it is, half the body, then the connection closed. The
 * bytes are written to the socket as they are, past Node's response, which would otherwise finish the answer. An
 * answer that has no body (its status's, or a HEAD request's) loses half its head instead; an empty body is
 * announced as one byte and not sent.
 */
function truncate(socket: Socket, outgoing: ServerResponse, res: Response, body: Buffer): void {
  const headers = headersOf(outgoing, res);
  // The answer to a HEAD request has no body either, whatever its headers say.
  const bodyless = BODYLESS_STATUSES.has(res.status) || outgoing.req.method === 'HEAD';
  if (!bodyless) headers['content-length'] = String(Math.max(1, body.length));
  const head = headBytes(res.status, headers);
  const sent = bodyless
    ? head.subarray(0, Math.floor(head.length / 2))
    : Buffer.concat([head, body.subarray(0, Math.floor(body.length / 2))]);
  socket.write(sent);
  socket.destroySoon();
}

/**
 * `slowBody`: the answer as it is, its length announced, its body sent at `bytesPerSecond` (one tick's share every
 * 100 ms; below 10 bytes a second, a byte at a time). Node's response sends it, so the connection stays one a
 * keep-alive client can use again once the body is whole. A client that goes away stops the timer.
 */
function dribble(outgoing: ServerResponse, res: Response, body: Buffer, bytesPerSecond: number): void {
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') outgoing.setHeader(name, value);
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  outgoing.setHeader(FAULT_HEADER, 'slowBody');
  if (BODYLESS_STATUSES.has(res.status) || body.length === 0) {
    outgoing.writeHead(res.status);
    outgoing.end();
    return;
  }
  outgoing.setHeader('content-length', body.length);
  outgoing.writeHead(res.status);
  outgoing.flushHeaders();
  const everyMs = bytesPerSecond >= 10 ? SLOW_TICK_MS : Math.ceil(1000 / bytesPerSecond);
  const perTick = bytesPerSecond >= 10 ? Math.ceil((bytesPerSecond * SLOW_TICK_MS) / 1000) : 1;
  let sent = 0;
  const timer = setInterval(() => {
    const chunk = body.subarray(sent, sent + perTick);
    sent += chunk.length;
    if (sent < body.length) outgoing.write(chunk);
    else {
      clearInterval(timer);
      outgoing.end(chunk);
    }
  }, everyMs);
  outgoing.once('close', () => clearInterval(timer));
}

/**
 * Plays `fault` out on the connection `outgoing` answers on. `res` is the answer the app made and `body` its bytes
 * (what `truncated` cuts and `slowBody` paces; unused by the faults that send no answer). Answers what the server
 * is handed instead of `res`: nothing more is to be written.
 */
export function playFault(
  fault: TransportFault,
  outgoing: ServerResponse,
  res: Response,
  body: Buffer,
): Response {
  const socket = outgoing.socket;
  // Gone already (the client closed it): nothing to break.
  if (socket === null || socket.destroyed) return sentAlready();
  switch (fault.kind) {
    case 'reset':
      socket.resetAndDestroy();
      break;
    case 'empty':
      socket.destroySoon();
      break;
    case 'garbage':
      socket.write(GARBAGE);
      socket.destroySoon();
      break;
    case 'truncated':
      truncate(socket, outgoing, res, body);
      break;
    case 'slowBody':
      dribble(outgoing, res, body, fault.bytesPerSecond ?? 1);
      break;
  }
  return sentAlready();
}
