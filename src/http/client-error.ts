import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import type { ClientRefusal } from '../log-events.js';
import { errorBody } from './envelope.js';
import { newRequestId } from './request-id.js';

/**
 * The refusals Node answers with a status of their own when nobody listens for `clientError` (its
 * `socketOnError`), each with the sandbox's message; every other parser error is a 400.
 */
const REFUSALS: Readonly<Record<string, { status: number; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'Request chunk extensions too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request not received in time' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request' };

/**
 * The response node:http is sending on `socket`, if any: its own `_httpMessage`, which Node's fallback reads for the
 * same question (it is not in Node's types).
 */
const inFlight = (socket: Duplex) =>
  (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * The `clientError` listener of the sandbox's server. A request that Node's parser refuses (headers over its limit,
 * a request line that is not HTTP, one that did not arrive in time) never reaches the app, and Node would answer it
 * a bare `400 Bad Request`; this answers it like every other error: the envelope, an `x-request-id`,
 * `connection: close`. Only where a response can still be written: the socket open and nothing of another response
 * sent on it. Otherwise (a reset, a closed socket, an answer half sent) the socket is destroyed, as Node does.
 * `answered` hears each refusal that was answered, for the log.
 */
export function answerClientError(answered: (refusal: ClientRefusal) => void) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const requestId = newRequestId();
    const body = JSON.stringify(errorBody(message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'content-type: application/json\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        'connection: close\r\n' +
        `x-request-id: ${requestId}\r\n\r\n${body}`,
    );
    // Closed once the answer is written, as Node closes after its own: the parser has given up on the connection,
    // and more bytes from the client (the rest of an oversized header) would only raise this error again, which then
    // finds the socket no longer writable.
    socket.once('finish', () => socket.destroy());
    answered({ status, message, code: error.code ?? 'unknown', requestId });
  };
}

/**
 * The `errorHandler` of the server's request listener. A request Node parsed but whose target @hono/node-server
 * cannot make a URL of (a backslash in the path, a host header no URL takes) never reaches the app, and would get a
 * bare `400` with no body; this answers it like every other error: the envelope, an `x-request-id`, and the reason.
 * Anything else thrown before the app answered is the sandbox's fault: a 500 with the envelope, and in the log.
 */
export function answerUnreadableRequest(
  answered: (refusal: ClientRefusal) => void,
  failed: (error: unknown, requestId: string) => void,
) {
  return (error: unknown): Response => {
    const requestId = newRequestId();
    const unreadable = error instanceof RequestError;
    const status = unreadable ? 400 : 500;
    const message = unreadable ? `Malformed request target: ${error.message}` : 'Internal server error';
    if (unreadable) answered({ status, message, code: 'ERR_REQUEST_TARGET', requestId });
    else failed(error, requestId);
    return new Response(JSON.stringify(errorBody(message)), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    });
  };
}
