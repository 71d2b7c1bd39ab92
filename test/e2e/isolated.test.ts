// Isolated sandboxes in a real process and over real sockets: the idle TTL and its log line, a sandbox in use
// over real time, a request whose sandbox is deleted under it, dot segments as sent on the wire, the CLI's
// `sandboxes`, `connectSandbox().isolate()` and `startSandbox().isolate()`, and the Host rule on their paths.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../../src/client/connect.js';
import { startSandbox } from '../../src/sandbox.js';
import { closedAfterEachTest } from '../support/cleanups.js';
import {
  http,
  runCli,
  type SandboxProcess,
  shellCommand,
  startProcess,
  stop,
  waitForOutput,
} from '../support/process.js';
import { rawExchange } from '../support/raw-http.js';
import { A } from '../support/sandbox.js';

const { later } = closedAfterEachTest();

let child: SandboxProcess;
beforeAll(async () => {
  child = await startProcess(['--in-memory', '--log-format', 'json']);
});
afterAll(async () => {
  await stop(child);
});

/** Runs a shell command of the CLI in this process against the child. */
const sh = (...argv: string[]) => shellCommand({ SANDBOX_URL: child.url }, ...argv);

describe('--sandbox-idle-ttl and the log', () => {
  it('drops an isolated sandbox unused that long, with a log line; its paths then answer 404', async () => {
    // A second of idleness drops one: the sweep runs every quarter of it.
    const idle = await startProcess(['--in-memory', '--sandbox-idle-ttl', '1', '--log-format', 'json']);
    later(() => stop(idle));
    const made = await http(idle, 'POST', '/__sandbox/sandboxes', { body: { id: 'idle-one' } });
    expect(made.status).toBe(201);
    const line = await waitForOutput(
      idle,
      /\{[^\n]*"event":"sandbox\.dropped"[^\n]*"sandbox":"idle-one"[^\n]*\}/,
    );
    expect(JSON.parse(line)).toMatchObject({
      level: 'info',
      event: 'sandbox.dropped',
      sandbox: 'idle-one',
      reason: 'expired',
      idleTtlSeconds: 1,
    });
    const after = await http(idle, 'GET', '/sandboxes/idle-one/__sandbox/health');
    expect(after.status).toBe(404);
    expect(after.body.message).toBe('No sandbox named "idle-one"');
  });

  it('names the isolated sandbox on the request lines and the background lines of it', async () => {
    const made = await http(child, 'POST', '/__sandbox/sandboxes', { body: { id: 'named-lines' } });
    expect(made.status).toBe(201);
    await http(child, 'GET', '/sandboxes/named-lines/__sandbox/clock');
    const line = await waitForOutput(
      child,
      /\{[^\n]*"path":"\/sandboxes\/named-lines\/__sandbox\/clock"[^\n]*\}/,
    );
    expect(JSON.parse(line)).toMatchObject({ method: 'GET', status: 200 });
  });
});

/** A scenario whose one rule answers the account details after `delayMs`. */
const slowDetails = (delayMs: number) => ({
  name: 'slow-details',
  description: 'The account details, late',
  extends: 'default',
  rules: [
    {
      on: 'http',
      match: { method: 'GET', path: 'account-details$' },
      effect: { http: { status: 200, body: { late: true }, delayMs } },
    },
  ],
});
const DETAILS = '/api/v1/clients/business/account-details';

describe('a sandbox in use, over real time', () => {
  it('a request waiting longer than the idle TTL keeps its sandbox; it is dropped once idle after it', async () => {
    const idle = await startProcess(['--in-memory', '--sandbox-idle-ttl', '1', '--log-format', 'json']);
    later(() => stop(idle));
    const made = await http(idle, 'POST', '/__sandbox/sandboxes', {
      body: { id: 'busy-one', scenario: slowDetails(3000) },
    });
    expect(made.status).toBe(201);
    const res = await http(idle, 'GET', `/sandboxes/busy-one${DETAILS}`);
    expect([res.status, res.body]).toEqual([200, { late: true }]);
    expect((await http(idle, 'GET', '/sandboxes/busy-one/__sandbox/health')).status).toBe(200);
    await waitForOutput(idle, /"event":"sandbox\.dropped"[^\n]*"sandbox":"busy-one"/);
  });

  it('a request whose sandbox is deleted under it answers 410', async () => {
    const made = await http(child, 'POST', '/__sandbox/sandboxes', {
      body: { id: 'cut-short', scenario: slowDetails(60_000), clock: '2030-01-01T00:00:00.000Z' },
    });
    expect(made.status).toBe(201);
    const pending = http(child, 'GET', `/sandboxes/cut-short${DETAILS}`);
    // The request is in: the sandbox has counted it.
    for (;;) {
      const listed = await http(child, 'GET', '/__sandbox/sandboxes');
      const row = (listed.body.data as { id: string; requests: number }[]).find((s) => s.id === 'cut-short');
      if ((row?.requests ?? 0) > 0) break;
    }
    expect((await http(child, 'DELETE', '/__sandbox/sandboxes/cut-short')).status).toBe(200);
    const res = await pending;
    expect([res.status, res.body]).toEqual([
      410,
      { status: false, message: 'Sandbox "cut-short" was deleted', data: null },
    ]);
  });
});

describe('a dot segment under /sandboxes/, over a socket', () => {
  const send = (method: string, target: string) =>
    rawExchange(child.url, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

  it.each([
    '/sandboxes/b-/__sandbox/%2e%2e/%2e%2e/%2e%2e/__sandbox/reset',
    '/sandboxes/b-/__sandbox/../../../__sandbox/reset',
    '/sandboxes/b-/__sandbox/.%2e/%2E./.%2E/__sandbox/reset',
    '/sandboxes/%2e%2e/__sandbox/reset',
  ])('POST %s is 400 with the envelope, and the root is not reset', async (target) => {
    const made = await http(child, 'POST', '/__sandbox/clients', { body: { name: 'Kept' } });
    expect(made.status).toBe(201);
    const { clientId } = made.body.data as { clientId: string };
    await http(child, 'POST', '/__sandbox/sandboxes', { body: { id: 'b-' } });
    const res = await send('POST', target);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    expect(JSON.parse(res.body)).toMatchObject({ status: false, data: null });
    const clients = await http(child, 'GET', '/__sandbox/credentials');
    const ids = (clients.body.data as { clients: { clientId: string }[] }).clients.map((c) => c.clientId);
    expect(ids).toContain(clientId);
  });

  it('answers a well-formed path of an isolated sandbox as before', async () => {
    await http(child, 'POST', '/__sandbox/sandboxes', { body: { id: 'plain' } });
    expect((await send('GET', '/sandboxes/plain/__sandbox/health')).status).toBe(200);
  });
});

describe('banking-sandbox sandboxes', () => {
  it('creates, lists and deletes; every other command drives one through --url …/sandboxes/ID', async () => {
    const created = await sh(
      'sandboxes',
      'create',
      '--id',
      'cli-world',
      '--clock',
      '2027-03-01T08:00:00.000Z',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe(
      `Sandbox cli-world created: point the app at ${child.url}/sandboxes/cli-world/api/v1\n`,
    );
    const listed = await sh('sandboxes', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).map((s: { id: string }) => s.id)).toContain('cli-world');
    const clock = await sh('clock', 'show', '--url', `${child.url}/sandboxes/cli-world`);
    expect(clock.stdout).toMatch(/^Clock at 2027-03-01T08:00:00\.000Z \(frozen, /);
    // The id in use: refused, unless --replace.
    expect((await sh('sandboxes', 'create', '--id', 'cli-world')).code).toBe(1);
    const replaced = await sh('sandboxes', 'create', '--id', 'cli-world', '--replace');
    expect(replaced.code, replaced.stderr).toBe(0);
    const fresh = await sh('clock', 'show', '--url', `${child.url}/sandboxes/cli-world`);
    expect(fresh.stdout).not.toMatch(/^Clock at 2027-03-01T08:00:00\.000Z/);
  });
});

describe('the CLI binary: sandboxes', () => {
  it('exits 0 on delete, 1 with one line for an unknown id, 2 on bad usage', async () => {
    await http(child, 'POST', '/__sandbox/sandboxes', { body: { id: 'bin-world' } });
    const deleted = await runCli(['sandboxes', 'delete', 'bin-world', '--url', child.url]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('Sandbox bin-world deleted\n');
    const again = await runCli(['sandboxes', 'delete', 'bin-world', '--url', child.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No sandbox named "bin-world"');
    const usage = await runCli(['sandboxes', 'delete', '--url', child.url]);
    expect(usage.code).toBe(2);
    const stray = await runCli(['sandboxes', 'list', '--seed', '3', '--url', child.url]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--seed goes with sandboxes create only');
  });
});

describe('connectSandbox(url).isolate()', () => {
  it('answers a handle of the same kind over HTTP, scoped rules included; close() deletes it', async () => {
    const root = connectSandbox(child.url);
    const world = await root.isolate({ id: 'over-http' });
    expect(world.url).toBe(`${child.url}/sandboxes/over-http`);
    expect(world.apiUrl).toBe(`${child.url}/sandboxes/over-http/api/v1`);
    const me = await world.newClient();
    await me.scenarioRules([
      {
        on: 'transfer',
        effect: { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } },
      },
    ]);
    const headers = await world.signIn(me);
    const res = await fetch(`${world.apiUrl}/clients/business/customers/funds/transfer`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: 100000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: 'over-http-1',
        narration: 'Scoped',
      }),
    });
    expect(res.status).toBe(400);
    await world.verify({ method: 'POST', path: '/funds/transfer', exactly: 1 });
    await root.verify({ method: 'POST', path: '/funds/transfer', exactly: 0 });
    await world.close();
    expect((await root.sandboxes.list()).map((s) => s.id)).not.toContain('over-http');
  });
});

describe('startSandbox().isolate()', () => {
  it('a RunningSandbox served by the same server, at …/sandboxes/{id}', async () => {
    const root = await startSandbox({ log: () => undefined });
    later(() => root.close());
    const world = await root.isolate();
    const audits = world.store.count('audits');
    expect(world.url).toBe(`${root.url}/sandboxes/${world.id}`);
    expect(world.apiUrl).toBe(`${root.url}/sandboxes/${world.id}/api/v1`);
    expect(world.listening).toBe(root.listening);
    const signIn = await fetch(`${world.apiUrl}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(A.owner),
    });
    expect(signIn.status).toBe(200);
    // The sign-in's audit entry is the isolated sandbox's alone.
    expect(world.store.count('audits')).toBe(audits + 1);
    expect(root.store.count('audits')).toBe(audits);
    await world.dispose();
    expect((await fetch(`${world.apiUrl}/auth/signin`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the Host rule on a real socket', () => {
  it('a rebound name gets 403 on an isolated sandbox’s paths, and on one that does not exist', async () => {
    await http(child, 'POST', '/__sandbox/sandboxes', { body: { id: 'hosted' } });
    const port = new URL(child.url).port;
    for (const path of ['/sandboxes/hosted/__sandbox/credentials', '/sandboxes/nobody/api/v1/auth/signin']) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path, headers: { host: `attacker.example:${port}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status, path).toBe(403);
    }
  });
});
