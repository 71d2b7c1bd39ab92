import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Config } from '../config.js';
import type { Log } from '../log.js';
import { clientRefused, exposed, requestError } from '../log-events.js';
import { answerClientError, answerUnreadableRequest } from './client-error.js';
import { listensOnLoopback } from './exposure.js';

/** An app served on a port (`serve`). */
export interface Served {
  /** The port it listens on (the one picked, for port 0). */
  port: number;
  /** The address and port it listens on, as the server has them: `127.0.0.1:4010`, `0.0.0.0:4010`, `[::]:4010`. */
  listening: string;
  /** Its base URL, through the loopback address when it listens on every interface. */
  url: string;
  /** Stops accepting, lets the requests in flight finish (briefly), and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Serves `fetch` (an app's) on `config.host:config.port` (port 0 picks a free one). A port in use rejects with the
 * server's error, nothing left open; a request Node's parser refuses, or whose target no URL can be made of, is
 * answered here with the envelope and a request id, and logged.
 */
export async function serve(
  fetch: Parameters<typeof getRequestListener>[0],
  config: Pick<Config, 'host' | 'port' | 'controlToken'>,
  log: Log,
): Promise<Served> {
  // The listener `serve()` of @hono/node-server would make, with an error handler of ours: that `serve()` does not
  // pass one on, and without it a request target no URL can be made of gets a bare 400.
  const listener = getRequestListener(fetch, {
    hostname: config.host,
    errorHandler: answerUnreadableRequest(
      (refusal) => log(clientRefused(refusal)),
      (error, requestId) => log(requestError('-', '-', requestId, error)),
    ),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(listener);
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  // A request Node's parser refuses never reaches the app: answered here, with the envelope and a request id.
  server.on(
    'clientError',
    answerClientError((refusal) => log(clientRefused(refusal))),
  );
  const address = server.address();
  // Listening on a port, not a pipe.
  if (address === null || typeof address === 'string') {
    server.close();
    throw new Error(`the sandbox's server does not listen on a TCP port (${String(address)})`);
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const listening = `${host}:${address.port}`;
  if (config.controlToken === undefined && !listensOnLoopback(address.address)) log(exposed(listening));
  // Every interface is reached from this machine through its loopback address.
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  return {
    port: address.port,
    listening,
    url: `http://${local}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(force);
    },
  };
}
