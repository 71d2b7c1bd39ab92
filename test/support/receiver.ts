import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one request to the receiver carried. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** How the receiver answers one request: a status code, or `hang` (never answer). */
export type Reply = number | 'hang';

/**
 * A real local webhook receiver on a free port. It answers with `replies` in order, then with `then` for every
 * further request, and remembers what it got.
 */
export async function startReceiver(replies: Reply[] = [], then: Reply = 200) {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(body || '{}') as Record<string, unknown> });
      const reply = replies[received.length - 1] ?? then;
      if (reply === 'hang') hanging.add(res);
      else {
        res.statusCode = reply;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/bank`,
    received,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL on which nothing listens: a port that was just free. */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
