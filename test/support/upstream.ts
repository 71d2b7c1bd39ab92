import http, { type IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo } from 'node:net';

/** One request the fake upstream received, as it arrived. */
export interface UpstreamRequest {
  method: string;
  /** The path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * How the fake upstream answers one request: a status, headers and a body (an object is sent as JSON; a Buffer as
 * its bytes), `hang`, or `send`, which writes the answer itself (an endless one, one that breaks off).
 */
export type UpstreamAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { send: (res: http.ServerResponse) => void }
  | 'hang';

/**
 * A real local server standing in for the bank: `answer` picks the reply to each request from its method and path
 * (the default: 404 JSON), and every request is kept as it arrived. A request it hangs on stays open until
 * `close()`.
 */
export async function startFakeUpstream(answer: (req: UpstreamRequest) => UpstreamAnswer) {
  const received: UpstreamRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const got: UpstreamRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(got);
      const reply = answer(got);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      if ('send' in reply) return reply.send(res);
      const bytes = Buffer.isBuffer(reply.body);
      const json = !bytes && typeof reply.body === 'object' && reply.body !== null;
      const text =
        bytes || !json ? ((reply.body as Buffer | string | undefined) ?? '') : JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        ...(json ? { 'content-type': 'application/json; charset=utf-8' } : {}),
        ...reply.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** The upstream's base URL, with a path before `/api/v1` as a bank's may have. */
    base: `http://127.0.0.1:${port}/bank/api/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How an endless answer ended: never by itself; `finished` says whether it did all the same. */
export interface Endless {
  /** Bytes the upstream had handed to its socket when the connection closed. */
  bytes: number;
  /** The answer ended as sent (it never should): false when the connection was closed under it. */
  finished: boolean;
}

/**
 * Writes `chunk` again and again as the body of `res` (headers first), as fast as the connection takes it and for
 * as long as it stays open: an upstream whose answer never ends. Resolves once the connection closes.
 */
export function sendForever(
  res: http.ServerResponse,
  headers: Record<string, string>,
  chunk: Buffer,
): Promise<Endless> {
  return new Promise((resolve) => {
    let bytes = 0;
    res.writeHead(200, headers);
    const more = () => {
      while (!res.destroyed) {
        bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
    };
    res.on('close', () => resolve({ bytes, finished: res.writableFinished }));
    more();
  });
}

/**
 * A stand-in for the bank below HTTP: a plain TCP server that keeps the head of each request as its bytes arrived
 * (the request line and the headers, exactly as sent) and answers it with `reply`'s bytes, then closes.
 */
export async function startRawUpstream(reply: (head: string) => Buffer | string) {
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let got = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const head = got.subarray(0, end).toString('latin1');
      heads.push(head);
      socket.end(reply(head));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/bank/api/v1`,
    /** The head of each request received: its request line, then its header lines, as sent. */
    heads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
