import { describe, expect, it } from 'vitest';
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { accountDetails } from '../../../src/contract/api/business.js';
import { newClientCredentials } from '../../../src/contract/control/clients.js';
import { clock } from '../../../src/contract/control/clock.js';
import { createdSandbox, sandboxSummary } from '../../../src/contract/control/sandboxes.js';
import { activeScenario } from '../../../src/contract/control/scenarios.js';
import { lazy } from '../../../src/contract/kit.js';
import { ControlApiError } from '../../../src/errors.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { bulkHelpers, processBatch, RECEIVER } from '../../support/bulk.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { A, B, call, ownerHeaders, schemeA, schemeB, tokenFor } from '../../support/sandbox.js';
import { attemptsRecorded, delivery, incomingPayment, webhookSetup } from '../../support/webhooks.js';

const { open, receiver, later } = closedAfterEachTest();

const DETAILS = '/api/v1/clients/business/account-details';
const VIEWER_ROLE = roles.find((r) => r.name === 'Viewer')?.id ?? '';
const bulk = bulkHelpers({ label: 'world', narration: 'World', batchName: 'World' });

/** Creates an isolated sandbox through the root's control API; it must answer 201. */
async function create(root: Sandbox, body: Record<string, unknown> = {}) {
  const res = await call(root, 'POST', '/__sandbox/sandboxes', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return dataOf(res, createdSandbox);
}

const summaries = lazy('SandboxList', () => sandboxSummary().array());

async function listed(root: Sandbox) {
  const res = await call(root, 'GET', '/__sandbox/sandboxes');
  expect(res.status).toBe(200);
  return dataOf(res, summaries);
}

/** Calls a path of an isolated sandbox through the process's app, as a client of it would. */
const inWorld = (
  root: Sandbox,
  id: string,
  method: string,
  path: string,
  options?: Parameters<typeof call>[3],
) => call(root, method, `/sandboxes/${id}${path}`, options);

describe('POST /__sandbox/sandboxes', () => {
  it('makes an isolated sandbox from the fixtures, with its URLs, listed at the root', async () => {
    const root = await open();
    const made = await create(root);
    expect(made.id).toMatch(/^s-[0-9a-f]{10}$/);
    expect(made.apiUrl).toBe(`http://localhost/sandboxes/${made.id}/api/v1`);
    expect(made.controlUrl).toBe(`http://localhost/sandboxes/${made.id}/__sandbox`);
    expect(made.persistent).toBe(false);
    // The README's logins and keys work in it.
    const token = await inWorld(root, made.id, 'POST', '/api/v1/auth/signin', { body: A.owner });
    expect(token.status).toBe(200);
    const headers = schemeA(
      String((token.body.data as { accessToken: string }).accessToken),
      A.secretKey,
      A.a1.id,
    );
    const details = await inWorld(root, made.id, 'GET', DETAILS, { headers });
    expect(dataOf(details, accountDetails).accountBalance).toBe(String(A.a1.balance));
    const [entry] = await listed(root);
    expect(entry).toMatchObject({ id: made.id, createdAt: made.createdAt, requests: 2 });
  });

  it('takes an id, a seed, a ready scenario and a frozen start time, each its own', async () => {
    const root = await open();
    await create(root, {
      id: 'worker-1',
      seed: 7,
      scenario: 'happy-path',
      clock: '2026-01-15T09:00:00.000Z',
    });
    const now = dataOf(await inWorld(root, 'worker-1', 'GET', '/__sandbox/clock'), clock);
    expect(now).toMatchObject({ now: '2026-01-15T09:00:00.000Z', frozen: true });
    const scenario = dataOf(await inWorld(root, 'worker-1', 'GET', '/__sandbox/scenario'), activeScenario);
    expect(scenario).toMatchObject({ startup: 'happy-path', name: 'happy-path', seed: 7 });
    // The seed draws the generated fixtures: the customers differ from the root's (seed 1).
    const headers = await ownerHeaders(root);
    const customers = async (prefix: string, h: Record<string, string>) =>
      JSON.stringify(
        (await call(root, 'GET', `${prefix}/api/v1/clients/business/customers`, { headers: h })).body,
      );
    const worldHeaders = schemeA(await worldToken(root, 'worker-1'), A.secretKey, A.a1.id);
    expect(await customers('/sandboxes/worker-1', worldHeaders)).not.toBe(await customers('', headers));
    // The root keeps its own.
    expect(dataOf(await call(root, 'GET', '/__sandbox/clock'), clock).frozen).toBe(false);
  });

  it('takes a scenario object, extends resolved', async () => {
    const root = await open();
    const scenario = {
      name: 'mine',
      description: 'one rule in front of the magic values',
      extends: 'default',
      rules: [{ on: 'transfer', match: { amount: { min: 1 } }, effect: { delayMs: 1 } }],
    };
    await create(root, { id: 'custom', scenario });
    const active = dataOf(await inWorld(root, 'custom', 'GET', '/__sandbox/scenario'), activeScenario);
    expect(active.name).toBe('mine');
    expect(active.rules.length).toBeGreaterThan(1);
  });

  it.each([
    ['an id with capitals', { id: 'Worker' }, 'id'],
    ['an id that starts with a dash', { id: '-w' }, 'id'],
    ['an id of 64 characters', { id: 'a'.repeat(64) }, 'id'],
    ['an id that is a number', { id: 7 }, 'id'],
    ['a negative seed', { seed: -1 }, 'seed'],
    ['a seed that is not whole', { seed: 1.5 }, 'seed'],
    ['a seed past 2^32 - 1', { seed: 2 ** 32 }, 'seed'],
    ['a scenario no ready one is named', { scenario: 'no-such' }, 'scenario'],
    [
      'a scenario object with a bad rule',
      { scenario: { name: 'x', description: 'x', rules: [{ on: 'nope' }] } },
      'scenario',
    ],
    ['a clock that is no time', { clock: 'yesterday' }, 'clock'],
    ['a clock without a zone', { clock: '2026-01-15T09:00:00' }, 'clock'],
    ['a field it does not take', { region: 'eu' }, ''],
  ])('refuses %s with 400 naming the field, and makes nothing', async (_name, body, field) => {
    const root = await open();
    const res = await call(root, 'POST', '/__sandbox/sandboxes', { body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    const errors = res.body.errors as { field: string }[];
    if (field) expect(errors.map((e) => e.field)).toContain(field);
    // One it does not take is named in the message.
    else expect(res.body.message).toContain(Object.keys(body)[0]);
    expect(await listed(root)).toEqual([]);
  });

  it('names the ready scenarios when one asked for is not', async () => {
    const root = await open();
    const res = await call(root, 'POST', '/__sandbox/sandboxes', { body: { scenario: 'flakey-bank' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('flaky-bank');
  });

  it('refuses an id in use with 409, and keeps the one there', async () => {
    const root = await open();
    await create(root, { id: 'taken' });
    await inWorld(root, 'taken', 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance: 5 } });
    const res = await call(root, 'POST', '/__sandbox/sandboxes', { body: { id: 'taken' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A sandbox named "taken" exists already');
    expect((await listed(root)).map((s) => s.id)).toEqual(['taken']);
    const headers = schemeA(await worldToken(root, 'taken'), A.secretKey, A.a1.id);
    expect(
      dataOf(await inWorld(root, 'taken', 'GET', DETAILS, { headers }), accountDetails).accountBalance,
    ).toBe('5');
  });

  it('replaces one of that id with replace: true, a fresh one from the fixtures (a rerun after a killed run)', async () => {
    const root = await open();
    await create(root, { id: 'run-7-worker-3' });
    await inWorld(root, 'run-7-worker-3', 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 5 },
    });
    const made = await create(root, { id: 'run-7-worker-3', replace: true });
    expect(made.id).toBe('run-7-worker-3');
    expect((await listed(root)).map((s) => s.id)).toEqual(['run-7-worker-3']);
    const headers = schemeA(await worldToken(root, 'run-7-worker-3'), A.secretKey, A.a1.id);
    const balance = dataOf(
      await inWorld(root, 'run-7-worker-3', 'GET', DETAILS, { headers }),
      accountDetails,
    );
    expect(balance.accountBalance).not.toBe('5');
    // With no sandbox of that id, replace only makes one; false is as if absent.
    expect((await create(root, { id: 'fresh', replace: true })).id).toBe('fresh');
    const again = await call(root, 'POST', '/__sandbox/sandboxes', { body: { id: 'fresh', replace: false } });
    expect(again.status).toBe(409);
    // The handle takes it too.
    const world = await root.isolate({ id: 'fresh', replace: true });
    expect(world.id).toBe('fresh');
    // Anything but a boolean is a bad field, named.
    const bad = await call(root, 'POST', '/__sandbox/sandboxes', { body: { id: 'fresh', replace: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: false, data: null });
    expect(bad.body.message).toMatch(/^replace/);
  });

  it('makes 20 at once, all distinct and each usable', async () => {
    const root = await open();
    const made = await Promise.all(Array.from({ length: 20 }, () => create(root)));
    expect(new Set(made.map((m) => m.id)).size).toBe(20);
    const statuses = await Promise.all(
      made.map((m) =>
        inWorld(root, m.id, 'POST', '/api/v1/auth/signin', { body: A.owner }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(await listed(root)).toHaveLength(20);
  });

  it('refuses one more than --max-sandboxes with 429 naming the limit and the setting; a delete makes room', async () => {
    const root = await open({ maxSandboxes: 2 });
    await create(root, { id: 'one' });
    await create(root, { id: 'two' });
    // Concurrent asks count the ones being made.
    const burst = await Promise.all(
      [1, 2, 3].map(() => call(root, 'POST', '/__sandbox/sandboxes', { body: {} })),
    );
    for (const res of burst) {
      expect(res.status).toBe(429);
      expect(res.body.message).toContain('At most 2 isolated sandboxes');
      expect(res.body.message).toContain('--max-sandboxes');
    }
    expect(await listed(root)).toHaveLength(2);
    expect((await call(root, 'DELETE', '/__sandbox/sandboxes/one')).status).toBe(200);
    await create(root, { id: 'three' });
  });

  it('is refused inside an isolated sandbox: they are made, listed and deleted at the root', async () => {
    const root = await open();
    await create(root, { id: 'outer' });
    for (const [method, path] of [
      ['POST', '/__sandbox/sandboxes'],
      ['GET', '/__sandbox/sandboxes'],
      ['DELETE', '/__sandbox/sandboxes/outer'],
    ] as const) {
      const res = await inWorld(root, 'outer', method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toContain('at the root');
    }
    expect((await listed(root)).map((s) => s.id)).toEqual(['outer']);
  });
});

/** An access token of client A's owner, signed in inside the isolated sandbox `id`. */
async function worldToken(root: Sandbox, id: string): Promise<string> {
  const res = await inWorld(root, id, 'POST', '/api/v1/auth/signin', { body: A.owner });
  expect(res.status).toBe(200);
  return (res.body.data as { accessToken: string }).accessToken;
}

describe('isolation: nothing shared but the process', () => {
  it('a token of one sandbox is unknown in every other, the same seed or not', async () => {
    const root = await open();
    await create(root, { id: 'a' });
    await create(root, { id: 'b' });
    const rootToken = await tokenFor(root, A.owner);
    const tokenA = await worldToken(root, 'a');
    for (const [where, token] of [
      ['/sandboxes/b', tokenA],
      ['/sandboxes/a', rootToken],
      ['', tokenA],
    ] as const) {
      const res = await call(root, 'GET', `${where}${DETAILS}`, {
        headers: schemeA(token, A.secretKey, A.a1.id),
      });
      expect(res.status, where).toBe(401);
      expect(res.body.message).toBe('Invalid access token');
    }
    const own = await inWorld(root, 'a', 'GET', DETAILS, { headers: schemeA(tokenA, A.secretKey, A.a1.id) });
    expect(own.status).toBe(200);
  });

  it('a client, a balance, a journal, an outbox and a clock of one are nowhere else', async () => {
    const root = await open();
    const a = await root.isolate({ id: 'a' });
    const b = await root.isolate({ id: 'b' });
    const me = await a.newClient({ members: ['Viewer'] });
    // Its keys are unknown in the other sandbox and at the root.
    for (const other of [b, root]) {
      const res = await call(other, 'GET', `/api/v1/clients/business/customers/funds/bulk-transfer`, {
        headers: schemeB(me.publicKey, me.secretKey, me.businesses[0]?.id),
      });
      expect(res.status).toBe(401);
      expect((await other.credentials()).map((c) => c.clientId)).not.toContain(me.clientId);
    }
    await call(a, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance: 1 } });
    expect((await b.credentials())[0]?.businesses[0]?.accountBalance).toBe(String(A.a1.balance));
    expect((await root.credentials())[0]?.businesses[0]?.accountBalance).toBe(String(A.a1.balance));
    // The journal: what went to one is in its own only.
    await a.verify({ method: 'PUT', path: '/balance', exactly: 1 });
    await b.verify({ method: 'PUT', path: '/balance', exactly: 0 });
    await root.verify({ method: 'PUT', path: '/balance', exactly: 0 });
    // The outbox: the invitation of a member invited in one.
    const invited = await call(a, 'POST', '/api/v1/clients/members', {
      headers: await ownerHeaders(a),
      body: { email: 'invited@world.test', memberRoleId: VIEWER_ROLE },
    });
    expect(invited.status).toBe(201);
    const outboxOf = async (s: Sandbox) => (await call(s, 'GET', '/__sandbox/outbox')).body.data as unknown[];
    expect((await outboxOf(a)).length).toBeGreaterThan(0);
    expect(await outboxOf(b)).toEqual([]);
    // The clock.
    await a.clock.freeze();
    await a.clock.advance(86_400_000);
    expect((await b.clock.get()).frozen).toBe(false);
    expect(Math.abs((await b.clock.get()).offsetMs)).toBeLessThan(1000);
    expect(Math.abs((await root.clock.get()).offsetMs)).toBeLessThan(1000);
  });

  it('an advance in one runs its own due work only', async () => {
    const root = await open({ webhookRetryBase: 60_000, webhookAttempts: 3 });
    const down = await receiver([], 500);
    const worlds = await Promise.all(['a', 'b'].map((id) => root.isolate({ id })));
    const deliveries: string[] = [];
    for (const world of worlds) {
      await world.clock.freeze();
      const me = await world.newClient({ webhookUrl: down.url });
      deliveries.push(
        (await world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 }))
          .deliveryId,
      );
    }
    const [a, b] = worlds;
    const [idA, idB] = deliveries;
    if (!a || !b || !idA || !idB) throw new Error('two sandboxes, a delivery each');
    await attemptsRecorded(a, idA, 1);
    await attemptsRecorded(b, idB, 1);
    // The retry is due a minute on: only a's clock gets there.
    await a.clock.advance(60_000);
    expect((await delivery(a, idA)).attempts).toHaveLength(2);
    expect((await delivery(b, idB)).attempts).toHaveLength(1);
    expect(down.received).toHaveLength(3);
  });

  it('a scenario, a reset and a drain of one touch no other', async () => {
    const root = await open();
    const a = await root.isolate({ id: 'a' });
    const b = await root.isolate({ id: 'b' });
    await a.setScenario({
      name: 'all-fail',
      description: 'every transfer fails',
      rules: [
        {
          on: 'transfer',
          match: {},
          effect: { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } },
        },
      ],
    });
    const send = async (s: Sandbox) =>
      call(s, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
        headers: await s.signIn(await firstClient(s)),
        body: {
          amount: 100000,
          receiverAccountNumber: RECEIVER,
          receiverBankCode: '058',
          retrievalReference: `r-${Math.random()}`,
          narration: 'n',
        },
      });
    expect((await send(a)).status).toBe(400);
    expect((await send(b)).status).toBe(200);
    expect((await send(root)).status).toBe(200);
    await b.newClient();
    await a.reset();
    expect(await b.credentials()).toHaveLength(3);
    await a.drain();
    expect((await send(a)).status).toBe(200);
  });

  it('a webhook of one goes to the URL set in that one', async () => {
    const root = await open();
    const [hooksA, hooksB] = await Promise.all([receiver(), receiver()]);
    const a = await root.isolate({ id: 'a' });
    const b = await root.isolate({ id: 'b' });
    const setA = await webhookSetup(a, hooksA.url, { type: 'permanent', reference: 'wa' });
    const setB = await webhookSetup(b, hooksB.url, { type: 'permanent', reference: 'wb' });
    await incomingPayment(a, { accountNumber: setA.account.accountNumber, amount: 100000 });
    await incomingPayment(b, { accountNumber: setB.account.accountNumber, amount: 200000 });
    await a.drain();
    await b.drain();
    expect(hooksA.received.map((r) => r.body.amount)).toEqual([100000]);
    expect(hooksB.received.map((r) => r.body.amount)).toEqual([200000]);
  });
});

/** The first client of a sandbox's credentials. */
async function firstClient(s: Sandbox) {
  const [first] = await s.credentials();
  if (!first) throw new Error('no client');
  return first;
}

describe('DELETE /__sandbox/sandboxes/{id}', () => {
  it('drops it at once: its paths answer 404 naming it, the root and the others go on', async () => {
    const root = await open();
    await create(root, { id: 'gone' });
    await create(root, { id: 'kept' });
    const res = await call(root, 'DELETE', '/__sandbox/sandboxes/gone');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Sandbox deleted');
    for (const path of ['/api/v1/auth/signin', '/__sandbox/health', '/__sandbox/ui']) {
      const after = await inWorld(root, 'gone', 'GET', path);
      expect(after.status).toBe(404);
      expect(after.body).toMatchObject({ status: false, message: 'No sandbox named "gone"', data: null });
    }
    expect((await call(root, 'DELETE', '/__sandbox/sandboxes/gone')).body.message).toBe(
      'No sandbox named "gone"',
    );
    expect((await listed(root)).map((s) => s.id)).toEqual(['kept']);
    expect((await inWorld(root, 'kept', 'GET', '/__sandbox/health')).status).toBe(200);
  });

  it('while a request, a batch and webhook retries are in flight: no 5xx, nothing in any other', async () => {
    const lines: string[] = [];
    const root = await open({
      bulkItemDelay: 60_000,
      webhookRetryBase: 60_000,
      webhookAttempts: 2,
      log: (line) => lines.push(line),
    });
    const down = await receiver([], 503);
    const doomed = await root.isolate({ id: 'doomed' });
    const other = await root.isolate({ id: 'other' });
    const inFlight = async (s: Sandbox) => {
      await s.clock.freeze();
      // A request that waits on the clock: a delay rule on one route.
      await s.setScenario({
        name: 'slow',
        description: 'the customers list waits a minute',
        rules: [{ on: 'http', match: { path: '/customers$' }, effect: { delayMs: 60_000 } }],
      });
      const pending = call(s, 'GET', '/api/v1/clients/business/customers', {
        headers: await ownerHeaders(s),
      });
      // A batch whose items sleep a minute each on the clock.
      const batch = await bulk.create(s, bulk.transfers(3));
      expect((await processBatch(s, batch.id)).status).toBe(202);
      // A delivery whose receiver is down: its retry is due a minute on.
      const me = await s.newClient({ webhookUrl: down.url });
      const paid = await s.incomingPayment({
        accountNumber: me.virtualAccount.accountNumber,
        amount: 100000,
      });
      await attemptsRecorded(s, paid.deliveryId, 1);
      return { pending, batch, paid };
    };
    const doomedWork = await inFlight(doomed);
    const otherWork = await inFlight(other);
    await doomed.dispose();
    // The request that was waiting is answered, and not with a 5xx.
    expect((await doomedWork.pending).status).toBeLessThan(500);
    expect((await call(root, 'GET', '/sandboxes/doomed/__sandbox/health')).status).toBe(404);
    // The other one still has its work, and finishes it on its own clock.
    await other.clock.advance(60_000);
    expect((await otherWork.pending).status).toBe(200);
    expect((await bulk.getBatch(other, otherWork.batch.id)).status).toBe('completed');
    expect((await delivery(other, otherWork.paid.deliveryId)).attempts).toHaveLength(2);
    expect(down.received).toHaveLength(3);
    expect(lines.filter((line) => / error /.test(line))).toEqual([]);
  });
});

describe('a token from before a reset', () => {
  it('is the bank’s 401 Invalid access token, with a warning that says the sandbox was reset, and when', async () => {
    const root = await open();
    const headers = await ownerHeaders(root);
    expect((await call(root, 'GET', DETAILS, { headers })).status).toBe(200);
    await root.reset();
    const res = await call(root, 'GET', DETAILS, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: 'Invalid access token', data: null });
    const warning = res.headers.get('x-sandbox-warning') ?? '';
    expect(warning).toMatch(/issued at \S+Z, before the sandbox was reset at \S+Z: sign in again/);
    // A token signed in afresh works, and carries no warning.
    const fresh = await call(root, 'GET', DETAILS, { headers: await ownerHeaders(root) });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('in an isolated sandbox as at the root, and a new client’s too', async () => {
    const root = await open();
    const world = await root.isolate();
    const me = await world.newClient();
    const headers = await world.signIn(me);
    await world.reset();
    const res = await call(world, 'GET', DETAILS, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-sandbox-warning')).toContain('before the sandbox was reset');
  });

  it('a token of an unknown key carries no such warning', async () => {
    const root = await open();
    await root.reset();
    const res = await call(root, 'GET', DETAILS, {
      headers: schemeA('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.c2ln', A.secretKey, A.a1.id),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
  });
});

describe('the rules of the control API guard every path of every sandbox', () => {
  it('with --control-token: an isolated sandbox’s control API needs it, its bank API does not', async () => {
    const root = await open({ controlToken: 'T0ken-of-the-test' });
    const made = await call(root, 'POST', '/__sandbox/sandboxes', {
      headers: { 'x-sandbox-token': 'T0ken-of-the-test' },
      body: { id: 'guarded' },
    });
    expect(made.status).toBe(201);
    const bare = await inWorld(root, 'guarded', 'GET', '/__sandbox/credentials');
    expect(bare.status).toBe(401);
    const withToken = await inWorld(root, 'guarded', 'GET', '/__sandbox/credentials', {
      headers: { 'x-sandbox-token': 'T0ken-of-the-test' },
    });
    expect(withToken.status).toBe(200);
    expect((await inWorld(root, 'guarded', 'POST', '/api/v1/auth/signin', { body: A.owner })).status).toBe(
      200,
    );
  });

  it('without a token: another origin 403, a form 415 (an empty one too), a foreign Host 403, on every path', async () => {
    const root = await open();
    await create(root, { id: 'w' });
    const fromAnotherSite = await inWorld(root, 'w', 'POST', '/__sandbox/reset', {
      headers: { origin: 'http://attacker.example', host: 'localhost' },
    });
    expect(fromAnotherSite.status).toBe(403);
    const form = await inWorld(root, 'w', 'POST', '/__sandbox/reset', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    for (const path of [
      '/sandboxes/w/api/v1/auth/signin',
      '/sandboxes/w/__sandbox/credentials',
      '/sandboxes/none/__sandbox/health',
    ]) {
      const rebound = await call(root, 'GET', path, { headers: { host: 'attacker.example:4010' } });
      expect(rebound.status, path).toBe(403);
    }
  });
});

describe('the handles: isolate()', () => {
  it('createSandbox().isolate(): a Sandbox of its own, app, store and clock included; dispose deletes it', async () => {
    const root = await open();
    const world = await root.isolate({ id: 'mine', clock: '2030-01-01T00:00:00.000Z' });
    expect(world.id).toBe('mine');
    expect(world.apiUrl).toBe('/sandboxes/mine/api/v1');
    expect((await world.app.request('/__sandbox/clock')).status).toBe(200);
    expect(world.clock.now()).toBe(Date.parse('2030-01-01T00:00:00.000Z'));
    expect(world.store.count('clients')).toBe(2);
    const me = dataOf(await call(world, 'POST', '/__sandbox/clients', { body: {} }), newClientCredentials);
    expect(world.store.get('clients', me.clientId)).toBeDefined();
    expect(root.store.get('clients', me.clientId)).toBeUndefined();
    await world.dispose();
    expect((await call(root, 'GET', '/sandboxes/mine/__sandbox/clock')).status).toBe(404);
    // Nested: refused as over HTTP.
    const outer = await root.isolate();
    await expect(outer.isolate()).rejects.toBeInstanceOf(ControlApiError);
    await expect(root.isolate({ id: 'Bad Id' })).rejects.toMatchObject({ status: 400 });
  });

  it('lists and deletes through the handle', async () => {
    const root = await open();
    const world = await root.isolate({ id: 'listed' });
    later(() => world.dispose());
    expect((await root.sandboxes.list()).map((s) => s.id)).toEqual(['listed']);
    await root.sandboxes.delete('listed');
    expect(await root.sandboxes.list()).toEqual([]);
    await expect(root.sandboxes.delete('listed')).rejects.toMatchObject({ status: 404 });
  });
});

describe('scoped rules: match.clientId and match.businessId', () => {
  const transfer = (reference: string) => ({
    amount: 100000,
    receiverAccountNumber: RECEIVER,
    receiverBankCode: '058',
    retrievalReference: reference,
    narration: 'Scoped',
  });
  const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
  const failing = { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } };

  it('a transfer rule of one client fails its transfers only', async () => {
    const root = await open();
    const [me, other] = await Promise.all([root.newClient(), root.newClient()]);
    await me.scenarioRules([{ on: 'transfer', effect: failing }]);
    const mine = await call(root, 'POST', TRANSFER, {
      headers: await root.signIn(me),
      body: transfer('s-1'),
    });
    expect(mine.status).toBe(400);
    expect(mine.body.message).toBe('Beneficiary Bank not available');
    const theirs = await call(root, 'POST', TRANSFER, {
      headers: await root.signIn(other),
      body: transfer('s-2'),
    });
    expect(theirs.status).toBe(200);
    const rules = dataOf(await call(root, 'GET', '/__sandbox/scenario'), activeScenario).overrides;
    expect(rules[0]?.match).toEqual({ clientId: me.clientId });
  });

  it('a business rule: only that business, an upper-case id naming the same', async () => {
    const root = await open();
    await root.setScenario({
      name: 'one-business',
      description: 'A1 only',
      rules: [{ on: 'transfer', match: { businessId: A.a1.id.toUpperCase() }, effect: failing }],
    });
    const a1 = await call(root, 'POST', TRANSFER, {
      headers: await ownerHeaders(root),
      body: transfer('b-1'),
    });
    expect(a1.status).toBe(400);
    const b1 = await call(root, 'POST', TRANSFER, {
      headers: schemeA(await tokenFor(root, B.owner), B.secretKey, B.b1.id),
      body: transfer('b-2'),
    });
    expect(b1.status).toBe(200);
  });

  it('a bulk.item rule fails the items of that client only', async () => {
    const root = await open();
    const [me, other] = await Promise.all([root.newClient(), root.newClient()]);
    await me.scenarioRules([{ on: 'bulk.item', effect: failing }]);
    const batchOf = async (c: typeof me) => {
      const keys = root.schemeB(c);
      const batch = await bulk.create(root, bulk.transfers(2), keys);
      return bulk.settleBatch(root, batch.id, keys);
    };
    expect((await batchOf(me)).status).toBe('failed');
    expect((await batchOf(other)).status).toBe('completed');
  });

  it('a webhook rule refuses that client’s deliveries only', async () => {
    const root = await open({ webhookAttempts: 1 });
    const hooks = await receiver();
    const [me, other] = await Promise.all([
      root.newClient({ webhookUrl: hooks.url }),
      root.newClient({ webhookUrl: hooks.url }),
    ]);
    await me.scenarioRules([{ on: 'webhook', effect: { webhook: 'refuse' } }]);
    const mine = await root.incomingPayment({
      accountNumber: me.virtualAccount.accountNumber,
      amount: 100000,
    });
    const theirs = await root.incomingPayment({
      accountNumber: other.virtualAccount.accountNumber,
      amount: 100000,
    });
    await root.drain();
    expect((await delivery(root, mine.deliveryId)).status).toBe('failed');
    expect((await delivery(root, theirs.deliveryId)).status).toBe('delivered');
  });

  it('an http rule: the client of a token, of a key pair, or of the businessId header', async () => {
    const root = await open();
    const [me, other] = await Promise.all([root.newClient(), root.newClient()]);
    await me.scenarioRules([
      { on: 'http', effect: { http: { status: 503, message: 'Down for this client' } } },
    ]);
    const mine = await root.signIn(me);
    expect((await call(root, 'GET', DETAILS, { headers: mine })).status).toBe(503);
    expect((await call(root, 'GET', DETAILS, { headers: { businessId: mine.businessId } })).status).toBe(503);
    const bulkList = '/api/v1/clients/business/customers/funds/bulk-transfer';
    expect((await call(root, 'GET', bulkList, { headers: root.schemeB(me) })).status).toBe(503);
    expect((await call(root, 'GET', DETAILS, { headers: await root.signIn(other) })).status).toBe(200);
    expect((await call(root, 'GET', bulkList, { headers: root.schemeB(other) })).status).toBe(200);
    // A request that names nobody meets no scoped rule.
    expect((await call(root, 'GET', DETAILS)).status).toBe(401);
  });

  it('an error rule: that client’s refusals only', async () => {
    const root = await open();
    const [me, other] = await Promise.all([root.newClient(), root.newClient()]);
    await me.scenarioRules([{ on: 'error', match: { validation: true }, effect: { status: 422 } }]);
    const bad = { ...transfer('e-1'), amount: 'lots' };
    expect((await call(root, 'POST', TRANSFER, { headers: await root.signIn(me), body: bad })).status).toBe(
      422,
    );
    expect(
      (await call(root, 'POST', TRANSFER, { headers: await root.signIn(other), body: bad })).status,
    ).toBe(400);
  });

  it('scenarioRules() refuses a rule that names another client, and sends nothing', async () => {
    const root = await open();
    const me = await root.newClient();
    await expect(
      me.scenarioRules([{ on: 'transfer', match: { clientId: A.id }, effect: failing }]),
    ).rejects.toMatchObject({ status: 400 });
    expect(dataOf(await call(root, 'GET', '/__sandbox/scenario'), activeScenario).overrides).toEqual([]);
    // Not part of the credentials as they compare and serialise.
    expect(Object.keys(me)).not.toContain('scenarioRules');
    expect(JSON.stringify(me)).not.toContain('scenarioRules');
  });
});
