import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The most of an unread body read and thrown away to keep the connection: the largest body a route takes (a state
 * import, 64 MiB by default), and the bound @hono/node-server's own drain uses.
 */
export const DISCARD_MAX_BYTES = 64 * 1_048_576;
/** How long the rest of a body may pause before the connection is given up: a client that stalls mid-body. */
export const DISCARD_IDLE_MS = 2_000;

/** What was drained of an unread body: whether it ended, and its first bytes, kept for the request journal. */
export interface Drained {
  ended: boolean;
  /** The body's first bytes, up to the bound asked for; all of it when `bytes` is at most that bound. */
  kept: Buffer[];
  /** How many bytes were read. */
  bytes: number;
}

/**
 * Reads and throws away the rest of a request body, up to `maxBytes`, giving up after `idleMs` without data; the
 * first `keep` bytes are kept. `ended` is true once the body has ended (the connection can carry another
 * request), false when it gave up.
 */
export function discardRest(
  incoming: IncomingMessage,
  maxBytes: number,
  idleMs: number,
  keep = 0,
): Promise<Drained> {
  const kept: Buffer[] = [];
  if (incoming.readableEnded) return Promise.resolve({ ended: true, kept, bytes: 0 });
  if (incoming.destroyed) return Promise.resolve({ ended: false, kept, bytes: 0 });
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      incoming.off('error', onClose);
      resolve({ ended, kept, bytes: read });
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(incoming.readableEnded);
    const onData = (chunk: Buffer) => {
      if (read < keep) kept.push(read + chunk.length <= keep ? chunk : chunk.subarray(0, keep - read));
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

/** Whether the request has a body, by its headers: one with neither Content-Length nor Transfer-Encoding has none. */
function hasBody(incoming: IncomingMessage): boolean {
  const { headers } = incoming;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) !== 0;
}

/**
 * Keeps a keep-alive client off a connection about to close, after an answer given before the request body was all
 * received (a 401, 404 or 413 that never read it). Left alone, @hono/node-server drains such a body for half a
 * second at most and then destroys the socket, which the client, told `keep-alive`, would reuse. So the rest is
 * read and thrown away before the answer goes out (bounded in size and idle time); where that is not possible the
 * answer says `Connection: close`.
 *
 * Answers the body's first `keep` bytes (for the request journal) when it was read to its end and no longer than
 * that; undefined otherwise.
 */
async function settleUnreadBody(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Response,
  keep = 0,
): Promise<Buffer | undefined> {
  if (incoming.complete || incoming.destroyed) return undefined;
  if (answer.headers.get('connection')?.toLowerCase() === 'close') return undefined;
  const declared = Number(incoming.headers['content-length'] ?? 0);
  const drained =
    declared <= DISCARD_MAX_BYTES
      ? await discardRest(incoming, DISCARD_MAX_BYTES, DISCARD_IDLE_MS, keep)
      : null;
  if (!drained?.ended && !outgoing.headersSent) outgoing.setHeader('connection', 'close');
  if (!drained?.ended || drained.bytes > keep) return undefined;
  return Buffer.concat(drained.kept);
}

/**
 * The body a route never read although it had all arrived (a small body in the packets of its headers, answered
 * 401 before it was read): what Node buffered, taken as it is (@hono/node-server would drain it anyway). Undefined
 * when the route read its body or there was none.
 */
function bufferedUnreadBody(incoming: IncomingMessage): Buffer | undefined {
  if (incoming.readableDidRead || incoming.readableLength === 0 || !incoming.complete) return undefined;
  const buffered: unknown = incoming.read();
  // A copy: the chunk may be a view into a larger buffer of the socket's, which the journal would keep alive.
  return Buffer.isBuffer(buffered) ? Buffer.from(buffered) : undefined;
}

/**
 * What a request answered without reading its body left of it, for the journal: the rest read first, so that the
 * connection stays usable (`settleUnreadBody`), when it was still arriving; what Node buffered when it had all
 * arrived (`bufferedUnreadBody`). At once, without a promise, when there is nothing to wait for: a request without a
 * body (`hasBody`) is not yet `complete` when it is answered within the turn that parsed its headers.
 */
export function unreadBody(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  answer: Response,
  keep: number,
): Buffer | undefined | Promise<Buffer | undefined> {
  if (!incoming.complete && hasBody(incoming)) return settleUnreadBody(incoming, outgoing, answer, keep);
  return bufferedUnreadBody(incoming);
}
