import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one request to the receiver carried. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Requests to this receiver still unanswered (and not given up by the sender) when it arrived, itself included. */
  openAtArrival: number;
}

/** How the receiver answers one request: a status code, or `hang` (no answer until `answer()` or `close()`). */
export type Reply = number | 'hang';

/** How the receiver picks its replies: in order of arrival, or from each request and its 0-based arrival index. */
export type Replies = Reply[] | ((got: Received, index: number) => Reply);

/**
 * A real local webhook receiver on a free port. It answers with `replies` in order (or as the function picks),
 * then with `then` for every further request, and remembers what it got. A request it hangs on stays open until
 * the sender gives up, `answer()` answers it or `close()` ends it: tests use that to see which attempts are in
 * flight at once, and `arrived(n)` to wait for the nth request without sleeping.
 */
export async function startReceiver(replies: Replies = [], then: Reply = 200) {
  const received: Received[] = [];
  const held = new Map<number, http.ServerResponse>();
  const open = new Set<http.ServerResponse>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
      open.add(res);
      res.on('close', () => open.delete(res));
      const got: Received = {
        headers: req.headers,
        body: JSON.parse(body || '{}') as Record<string, unknown>,
        openAtArrival: open.size,
      };
      const index = received.push(got) - 1;
      const reply = (typeof replies === 'function' ? replies(got, index) : replies[index]) ?? then;
      if (reply === 'hang') held.set(index, res);
      else {
        res.statusCode = reply;
        res.end();
      }
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/bank`,
    received,
    /** Resolves once `n` requests have arrived. */
    arrived(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    /** Requests unanswered now (and not given up by the sender). */
    openCount: () => open.size,
    /** Answers the request that arrived `index`th (0-based), which the receiver hung on, with `status`. */
    answer(index: number, status: number): void {
      const res = held.get(index);
      if (!res) throw new Error(`request ${index} is not held`);
      held.delete(index);
      res.statusCode = status;
      res.end();
    },
    close: async () => {
      for (const res of held.values()) res.destroy();
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
