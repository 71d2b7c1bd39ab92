// What keeps one isolated sandbox's work inside it: a path is taken as it was sent, so no dot segment under one
// sandbox's prefix reaches the root or another sandbox; a sandbox in use (a request, a drain, a dashboard page, a
// webhook delivery) is never dropped as idle; and a request or drain whose sandbox is deleted under it says so.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../../src/contract/scenarios.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox.js';
import type { Worlds } from '../../../src/worlds/registry.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { answerCheck } from '../../support/contract.js';
import { call, nextSleepOn } from '../../support/sandbox.js';

const { later, receiver } = closedAfterEachTest();

const DETAILS = '/api/v1/clients/business/account-details';
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

/** A scenario whose one rule answers the account details after `delayMs` on the sandbox clock. */
const slowAnswer = (delayMs: number): Scenario => ({
  name: 'slow-answer',
  extends: 'default',
  description: 'The account details, late',
  rules: [
    {
      on: 'http',
      match: { method: 'GET', path: 'account-details$' },
      effect: { http: { status: 200, body: { late: true }, delayMs } },
    },
  ],
});

const FROZEN = '2030-01-01T00:00:00.000Z';

/** Resolves once the sandbox's one webhook delivery has `n` attempts recorded: a store event, no polling. */
function attempted(world: Sandbox, n: number): Promise<void> {
  const done = () => (world.store.all('deliveries')[0]?.attempts.length ?? 0) >= n;
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = world.store.subscribe(() => {
      if (!done()) return;
      stop();
      resolve();
    });
  });
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

describe('an isolated sandbox in use is not idle', () => {
  it('a request waiting on a 9 s answer keeps it; its idle time counts from the answer', async () => {
    const { root, worlds, sweepLater } = await withRegistry();
    const world = await root.isolate({ id: 'slow', scenario: slowAnswer(9000), clock: FROZEN });
    const asleep = nextSleepOn(world.clock);
    const pending = call(world, 'GET', DETAILS);
    expect(await asleep).toBe(9000);
    sweepLater();
    expect(worlds.find('slow')).toBeDefined();
    await world.clock.advance(9000);
    expect((await pending).status).toBe(200);
    // Answered just now: not idle for the TTL yet, then dropped once it is.
    worlds.sweep(Date.now() + TTL_MS / 2);
    expect(worlds.find('slow')).toBeDefined();
    sweepLater();
    expect(worlds.find('slow')).toBeUndefined();
  });

  it('a drain waiting keeps it', async () => {
    // A retry on a frozen clock keeps nothing busy by itself: only the drain waiting for it does.
    const hook = await receiver([500], 200);
    const { root, worlds, sweepLater } = await withRegistry();
    const world = await root.isolate({ id: 'draining', clock: FROZEN });
    const me = await world.newClient({ webhookUrl: hook.url });
    await world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 });
    await attempted(world, 1);
    // An advance waits for the attempt's task, which schedules the retry as it ends.
    await world.clock.advance(1);
    const drained = world.drain({ timeoutMs: 600_000 });
    sweepLater();
    expect(worlds.find('draining')).toBeDefined();
    await world.clock.advance(3_600_000);
    await drained;
    sweepLater();
    expect(worlds.find('draining')).toBeUndefined();
  });

  it('a webhook attempt in flight keeps it, and so does a retry due on real time; one on a frozen clock does not', async () => {
    const hook = await receiver(['hang'], 500);
    const { root, worlds, sweepLater } = await withRegistry({
      webhookTimeout: 600_000,
      webhookRetryBase: 600_000,
    });
    const world = await root.isolate({ id: 'sending' });
    const me = await world.newClient({ webhookUrl: hook.url });
    await world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 });
    await hook.arrived(1);
    sweepLater();
    expect(worlds.find('sending')).toBeDefined();
    // The first attempt fails: a retry is due on the running clock.
    hook.answer(0, 500);
    await attempted(world, 1);
    expect(world.store.all('deliveries')[0]?.status).toBe('pending');
    sweepLater();
    expect(worlds.find('sending')).toBeDefined();
    // Frozen, the retry waits for an advance, which would be a request: nothing of it is in flight. The sweep that
    // first sees it over counts its idle time from then; the next, the TTL later, drops it.
    await world.clock.freeze(true);
    sweepLater();
    expect(worlds.find('sending')).toBeDefined();
    sweepLater();
    expect(worlds.find('sending')).toBeUndefined();
  });

  it('a dashboard page streaming its events keeps it', async () => {
    const { root, worlds, sweepLater } = await withRegistry();
    const world = await root.isolate({ id: 'watched' });
    const res = await world.app.request('/__sandbox/ui/events');
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    await reader?.read();
    sweepLater();
    expect(worlds.find('watched')).toBeDefined();
    await reader?.cancel();
    // Idle from when the page left, which the sweep that first sees it gone takes for then.
    sweepLater();
    expect(worlds.find('watched')).toBeDefined();
    sweepLater();
    expect(worlds.find('watched')).toBeUndefined();
  });
});

describe('a sandbox deleted under a request or a drain', () => {
  it('the request answers 410, not what the dropped world would have said', async () => {
    const { root } = await withRegistry();
    const world = await root.isolate({ id: 'cut', scenario: slowAnswer(9000), clock: FROZEN });
    const asleep = nextSleepOn(world.clock);
    const pending = call(world, 'GET', DETAILS);
    await asleep;
    expect((await call(root, 'DELETE', '/__sandbox/sandboxes/cut')).status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ status: false, message: 'Sandbox "cut" was deleted', data: null });
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('a drain over HTTP and one of the handle answer 410 at once, never that the work ran', async () => {
    const hook = await receiver([], 'hang');
    const { root } = await withRegistry({ webhookTimeout: 600_000 });
    const world = await root.isolate({ id: 'undrained' });
    const me = await world.newClient({ webhookUrl: hook.url });
    await world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 });
    await hook.arrived(1);
    const overHttp = call(world, 'POST', '/__sandbox/drain?timeoutMs=600000');
    const ofHandle = world.drain({ timeoutMs: 600_000 });
    ofHandle.catch(() => undefined);
    await world.dispose();
    const res = await overHttp;
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ status: false, message: 'Sandbox "undrained" was deleted', data: null });
    await expect(ofHandle).rejects.toMatchObject({ status: 410, message: 'Sandbox "undrained" was deleted' });
  });
});
