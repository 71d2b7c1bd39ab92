// The edges of isolated sandboxes: draws of their own, a handle over HTTP behind a control token, what a deleted
// one still does (nothing), a creation racing the process's stop, and scoped rules that neither fire on a request
// naming another client's business nor count a client's requests with everyone else's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectSandbox } from '../../../src/client/connect.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { call, memorySandbox } from '../../support/sandbox.js';

const { open, later } = closedAfterEachTest();

const DETAILS = '/api/v1/clients/business/account-details';
const BULK_LIST = '/api/v1/clients/business/customers/funds/bulk-transfer';

describe('the draws of an isolated sandbox', () => {
  it('two made with one seed draw different keys, and a key of one is refused in the other', async () => {
    const root = await open();
    const a = await root.isolate({ id: 'a', seed: 5 });
    const b = await root.isolate({ id: 'b', seed: 5 });
    const [inA, inB] = [await a.newClient(), await b.newClient()];
    expect(inA.secretKey).not.toBe(inB.secretKey);
    expect(inA.publicKey).not.toBe(inB.publicKey);
    const foreign = await call(b, 'GET', BULK_LIST, { headers: a.schemeB(inA) });
    expect(foreign.status).toBe(401);
    expect((await call(a, 'GET', BULK_LIST, { headers: a.schemeB(inA) })).status).toBe(200);
  });

  it('the same seed and id draw the same again: a deleted sandbox made anew gives the same keys', async () => {
    const root = await open();
    const first = await root.isolate({ id: 'again', seed: 11 });
    const before = await first.newClient();
    await first.dispose();
    const second = await root.isolate({ id: 'again', seed: 11 });
    const after = await second.newClient();
    expect(after).toEqual(before);
  });
});

describe('a handle over HTTP, behind --control-token', () => {
  it('connectSandbox(url, {controlToken}).isolate() reaches the isolated control API with the token; dispose twice is done', async () => {
    const running = await startSandbox({
      inMemory: true,
      port: 0,
      quiet: true,
      controlToken: 'isolate-T0ken',
      log: () => undefined,
    });
    later(() => running.close());
    const remote = connectSandbox(running.url, { controlToken: 'isolate-T0ken' });
    const world = await remote.isolate({ id: 'remote', clock: '2031-02-03T04:05:06.000Z' });
    expect(world.apiUrl).toBe(`${running.url}/sandboxes/remote/api/v1`);
    expect((await world.clock.get()).now).toBe('2031-02-03T04:05:06.000Z');
    const me = await world.newClient();
    const signedIn = await fetch(`${world.apiUrl}/clients/business/customers/funds/bulk-transfer`, {
      headers: world.schemeB(me),
    });
    expect(signedIn.status).toBe(200);
    // Without the token, its control API is closed.
    expect((await fetch(`${running.url}/sandboxes/remote/__sandbox/health`)).status).toBe(401);
    await world.dispose();
    await world.dispose();
    expect(await remote.sandboxes.list()).toEqual([]);
  });
});

describe('a deleted isolated sandbox', () => {
  it('its in-process handle refuses what it would do in the world itself, with the 404 the app gives', async () => {
    const root = await open();
    const world = await root.isolate({ id: 'done' });
    const me = await world.newClient();
    await world.dispose();
    const gone = { status: 404, message: 'No sandbox named "done"' };
    await expect(world.newClient()).rejects.toMatchObject(gone);
    await expect(world.drain()).rejects.toMatchObject(gone);
    await expect(world.credentials()).rejects.toMatchObject(gone);
    await expect(
      world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 }),
    ).rejects.toMatchObject(gone);
    await expect(world.requests()).rejects.toMatchObject(gone);
    // Twice is done.
    await world.dispose();
  });

  it('abandons a webhook on its way: the receiver’s connection is closed at the delete', async () => {
    // A receiver that never answers, and says when the sender went away.
    let arrived!: () => void;
    let abandoned!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const closing = new Promise<void>((resolve) => {
      abandoned = resolve;
    });
    const server = http.createServer((req, res) => {
      req.resume();
      res.on('close', abandoned);
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    later(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;

    const root = await open({ webhookTimeout: 600_000 });
    const world = await root.isolate({ id: 'sending' });
    const me = await world.newClient({ webhookUrl: `http://127.0.0.1:${port}/hooks` });
    await world.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 100000 });
    await arrival;
    await world.dispose();
    await closing;
  });
});

describe('a creation racing the stop of the process', () => {
  it('is refused with 503, and leaves nothing behind', async () => {
    const root = await memorySandbox();
    // A seed nobody built yet: the creation waits on the fixtures' state of that seed while the process stops.
    const making = root.isolate({ id: 'late', seed: 424_242 });
    const closing = root.close();
    await expect(making).rejects.toMatchObject({
      status: 503,
      message: 'The sandbox is stopping: no isolated sandbox is made any more',
    });
    await closing;
    await expect(root.isolate({ id: 'later' })).rejects.toMatchObject({ status: 503 });
  });
});

describe('the root journal', () => {
  it('keeps no request refused at the door of an isolated sandbox', async () => {
    const root = await open();
    await root.isolate({ id: 'real' });
    expect((await call(root, 'GET', '/sandboxes/missing/api/v1/auth/signin')).status).toBe(404);
    expect((await call(root, 'GET', '/sandboxes/real/elsewhere')).status).toBe(404);
    expect((await call(root, 'GET', DETAILS)).status).toBe(401);
    expect((await root.requests()).map((entry) => entry.path)).toEqual([DETAILS]);
  });
});

describe('scoped rules', () => {
  it('a business rule does not fire on another client’s request naming that business, nor use its times', async () => {
    const root = await open();
    const [me, other] = await Promise.all([root.newClient(), root.newClient()]);
    const [mine, theirs] = [await root.signIn(me), await root.signIn(other)];
    const myBusiness = mine.businessId;
    await root.setScenario({
      name: 'mine-once',
      description: 'one 503 for my business',
      rules: [
        {
          on: 'http',
          match: { businessId: myBusiness },
          times: 1,
          effect: { http: { status: 503, message: 'Down for my business' } },
        },
      ],
    });
    const foreign = await call(root, 'GET', DETAILS, { headers: { ...theirs, businessId: myBusiness } });
    expect(foreign.status).not.toBe(503);
    expect(foreign.status).toBeLessThan(500);
    const own = await call(root, 'GET', DETAILS, { headers: mine });
    expect(own.status).toBe(503);
    expect(own.body.message).toBe('Down for my business');
  });

  it('a client’s probability draws follow its own requests, whatever another client sends meanwhile', async () => {
    /** My statuses on ten requests, in a sandbox of its own, with `noise` requests of another client between mine. */
    const statuses = async (noise: number): Promise<number[]> => {
      const sandbox: Sandbox = await open();
      const [me, other] = [await sandbox.newClient(), await sandbox.newClient()];
      await me.scenarioRules([
        {
          on: 'http',
          match: { path: 'account-details$', probability: 0.5 },
          effect: { http: { status: 503 } },
        },
      ]);
      const [mine, theirs] = [await sandbox.signIn(me), await sandbox.signIn(other)];
      const seen: number[] = [];
      for (let i = 0; i < 10; i++) {
        seen.push((await call(sandbox, 'GET', DETAILS, { headers: mine })).status);
        for (let n = 0; n < noise; n++)
          expect((await call(sandbox, 'GET', DETAILS, { headers: theirs })).status).toBe(200);
      }
      return seen;
    };
    const alone = await statuses(0);
    expect(alone).toContain(503);
    expect(alone).toContain(200);
    expect(await statuses(1)).toEqual(alone);
    expect(await statuses(3)).toEqual(alone);
  });
});
