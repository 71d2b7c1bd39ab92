// What keeps one isolated sandbox's work inside it: a path is taken as it was sent, so no dot segment under one
// sandbox's prefix reaches the root or another sandbox; a sandbox in use (a request, a drain, a dashboard page, a
// webhook delivery) is never dropped as idle; and a request or drain whose sandbox is deleted under it says so.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/domain/clock.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox.js';
import type { Worlds } from '../../../src/worlds/registry.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { answerCheck } from '../../support/contract.js';

const { later } = closedAfterEachTest();

const TTL_MS = 1000;

/** A memory sandbox with a short idle TTL, and its registry of isolated sandboxes, swept at times the test picks. */
async function withRegistry(
  options: SandboxOptions = {},
): Promise<{ root: Sandbox; worlds: Worlds; sweepLater: () => void }> {
  let registry: Worlds | undefined;
  const root = await createSandbox(
    { inMemory: true, log: () => undefined, sandboxIdleTtl: TTL_MS / 1000, ...options },
    systemClock,
    { checkAnswers: answerCheck, worlds: (w) => (registry = w) },
  );
  later(() => root.close());
  if (!registry) throw new Error('the sandbox handed over no registry');
  const worlds = registry;
  // Each sweep far later than the one before, by more than the TTL: any sandbox not in use then is dropped.
  let ahead = 0;
  const sweepLater = () => {
    ahead += 60 * TTL_MS;
    worlds.sweep(Date.now() + ahead);
  };
  return { root, worlds, sweepLater };
}

/**
 * Calls the app as @hono/node-server does for a request whose target was `target` on the wire: the `Request`'s URL
 * resolved (as the server's URL parser resolves it), the message with the target as sent.
 */
function asSent(root: Sandbox, method: string, target: string) {
  const incoming = new IncomingMessage(new Socket());
  incoming.url = target;
  incoming.method = method;
  incoming.headers = { host: '127.0.0.1' };
  const url = target.startsWith('/') ? new URL(target, 'http://127.0.0.1').href : new URL(target).href;
  const fetchAsServer = root.app.fetch as unknown as (
    request: Request,
    env: { incoming: IncomingMessage },
  ) => Response | Promise<Response>;
  return Promise.resolve(fetchAsServer(new Request(url, { method }), { incoming }));
}

describe('a dot segment under /sandboxes/', () => {
  const targets = [
    '/sandboxes/b-/__sandbox/%2e%2e/%2e%2e/%2e%2e/__sandbox/reset',
    '/sandboxes/b-/__sandbox/../../../__sandbox/reset',
    '/sandboxes/b-/__sandbox/.%2e/%2E./.%2E/__sandbox/reset',
    '/sandboxes/%2e%2e/__sandbox/reset',
    '/sandboxes/b-/%2E%2E/a/__sandbox/reset',
    '/sandboxes/b-/./__sandbox/reset',
    '/./sandboxes/b-/../../__sandbox/reset',
    '/%73andboxes/b-/%2e%2e/%2e%2e/__sandbox/reset',
    'http://127.0.0.1/sandboxes/b-/%2e%2e/%2e%2e/__sandbox/reset',
  ];

  it.each(targets)('%s is 400 with the envelope, and no world is reset', async (target) => {
    const { root } = await withRegistry();
    const a = await root.isolate({ id: 'a' });
    await root.isolate({ id: 'b-' });
    // A client in the root and one in `a`: a reset would take each away.
    const inRoot = await root.newClient();
    const inA = await a.newClient();
    const res = await asSent(root, 'POST', target);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: false, data: null });
    expect(body.message).toMatch(/holds a dot segment/);
    expect(root.store.get('clients', inRoot.clientId)).toBeDefined();
    expect(a.store.get('clients', inA.clientId)).toBeDefined();
    // Nobody's journal holds it.
    expect((await root.requests()).length).toBe(0);
  });

  it('leaves every well-formed path as it was, and a dot segment outside /sandboxes/ too', async () => {
    const { root } = await withRegistry();
    await root.isolate({ id: 'b-' });
    expect((await asSent(root, 'GET', '/sandboxes/b-/__sandbox/health')).status).toBe(200);
    expect((await asSent(root, 'GET', '/sandboxes/b-/__sandbox/requests.har')).status).toBe(200);
    expect((await asSent(root, 'GET', '/__sandbox/../__sandbox/health')).status).toBe(200);
  });
});
