import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The most of an unread body read and thrown away to keep the connection: the largest body a route takes (a state
 * import, 64 MiB by default), and the bound @hono/node-server's own drain uses.
 */
export const DISCARD_MAX_BYTES = 64 * 1_048_576;
/** How long the rest of a body may pause before the connection is given up: a client that stalls mid-body. */
export const DISCARD_IDLE_MS = 2_000;

/**
 * Reads and throws away the rest of a request body, up to `maxBytes`, giving up after `idleMs` without data.
 * Answers true once the body has ended (the connection can carry another request), false when it gave up.
 */
export function discardRest(incoming: IncomingMessage, maxBytes: number, idleMs: number): Promise<boolean> {
  if (incoming.readableEnded) return Promise.resolve(true);
  if (incoming.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      incoming.off('error', onClose);
      resolve(ended);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(incoming.readableEnded);
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
      else timer.refresh();
    };
    const timer = setTimeout(() => finish(false), idleMs);
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('close', onClose);
    incoming.once('error', onClose);
    incoming.resume();
  });
}

/**
 * Keeps a keep-alive client off a connection about to close, after an answer given before the request body was all
 * received (a 401, 404 or 413 that never read it). Left alone, @hono/node-server drains such a body for half a
 * second at most and then destroys the socket, which the client, told `keep-alive`, would reuse. So the rest is
 * read and thrown away before the answer goes out (bounded in size and idle time); where that is not possible the
 * answer says `Connection: close`. A request without a body is `complete` at once and pays nothing.
 */
export async function settleUnreadBody(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Response,
): Promise<void> {
  if (incoming.complete || incoming.destroyed) return;
  if (answer.headers.get('connection')?.toLowerCase() === 'close') return;
  const declared = Number(incoming.headers['content-length'] ?? 0);
  const ended =
    declared <= DISCARD_MAX_BYTES && (await discardRest(incoming, DISCARD_MAX_BYTES, DISCARD_IDLE_MS));
  if (!ended && !outgoing.headersSent) outgoing.setHeader('connection', 'close');
}
