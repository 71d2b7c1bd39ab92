import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake upstream received, as it arrived. */
export interface UpstreamRequest {
  method: string;
  /** The path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How the fake upstream answers one request: a status, headers and a body (an object is sent as JSON), or `hang`. */
export type UpstreamAnswer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

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
      const json = typeof reply.body === 'object' && reply.body !== null;
      const text = json ? JSON.stringify(reply.body) : ((reply.body as string | undefined) ?? '');
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
