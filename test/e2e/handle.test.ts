// One typed handle, two ways: the same tests drive `startSandbox()` in this process and `connectSandbox(url)`
// against a real sandbox process, so both keep the same methods, answers and errors.
//
// `requests()` and `verify()` need the journal's routes (`POST /__sandbox/requests/search`, `.../verify`): the
// tests so marked fail until they exist.

import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { connectSandbox } from '../../src/client/connect.js';
import type { SandboxHandle } from '../../src/client/handle.js';
import {
  ControlApiError,
  DrainTimeoutError,
  SandboxError,
  SandboxUnreachableError,
  VerificationError,
} from '../../src/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox.js';
import { appTransfer } from '../support/app-requests.js';
import { type SandboxProcess, startProcess, stop } from '../support/process.js';
import { startReceiver } from '../support/receiver.js';
import { A } from '../support/sandbox.js';

const TOKEN = 'handle-test-token';
const SETTINGS = ['--in-memory', '--quiet', '--control-token', TOKEN, '--webhook-retry-base', '10'];

it('startSandbox() and connectSandbox() both answer a SandboxHandle (types)', () => {
  expectTypeOf<RunningSandbox>().toExtend<SandboxHandle>();
  expectTypeOf(connectSandbox).returns.toEqualTypeOf<SandboxHandle>();
  expectTypeOf<Awaited<ReturnType<RunningSandbox['newClient']>>>().toEqualTypeOf<
    Awaited<ReturnType<SandboxHandle['newClient']>>
  >();
});

let child: SandboxProcess;
let inProcess: RunningSandbox;
const receiver = await startReceiver([], 500);

beforeAll(async () => {
  [child, inProcess] = await Promise.all([
    startProcess(SETTINGS),
    // Quiet: the receiver answers 500, and each attempt would be a warning line in the test run's output.
    startSandbox({ controlToken: TOKEN, webhookRetryBase: 10, log: () => undefined }),
  ]);
});
afterAll(async () => {
  await Promise.all([child && stop(child), inProcess?.close(), receiver.close()]);
});

const ways: [string, () => SandboxHandle][] = [
  ['startSandbox()', () => inProcess],
  ['connectSandbox(url)', () => connectSandbox(child.url, { controlToken: TOKEN })],
];

describe.each(ways)('%s', (_way, handle) => {
  it('newClient() answers keys, a funded business and a ready virtual account; signIn() and schemeB() headers work', async () => {
    const sandbox = handle();
    const me = await sandbox.newClient({ balance: 1_000_000 });
    expect(me.virtualAccount).toMatchObject({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      systemRef: expect.stringMatching(/^STL\|/),
    });
    const paid = await sandbox.incomingPayment({
      accountNumber: me.virtualAccount.accountNumber,
      amount: 500_000,
    });
    expect(paid).toMatchObject({ deliveryStatus: 'skipped', transactionReference: expect.any(String) });

    const a = await sandbox.signIn(me);
    expect(a).toEqual({
      authorization: expect.stringMatching(/^Bearer .+/),
      SECRET_KEY: me.secretKey,
      businessId: me.businesses[0]?.id,
    });
    const details = await fetch(`${sandbox.url}/api/v1/clients/business/account-details`, { headers: a });
    expect(((await details.json()) as { data: { accountBalance: string } }).data.accountBalance).toBe(
      String(1_000_000 + 500_000 - 2_500),
    );
    const b = sandbox.schemeB(me);
    expect(b).toEqual({
      'x-api-key': me.publicKey,
      'x-api-secret': me.secretKey,
      businessId: me.businesses[0]?.id,
    });
    const batches = await fetch(
      `${sandbox.url}/api/v1/clients/business/customers/funds/bulk-transfer/${crypto.randomUUID()}`,
      {
        headers: b,
      },
    );
    expect(batches.status).toBe(404); // through auth: no such batch of this client's
    expect((await sandbox.credentials()).some((c) => c.clientId === me.clientId)).toBe(true);
  });

  it('ledger() finds a transfer’s entry by its reference; addSubscription() adds a plan the API lists', async () => {
    const sandbox = handle();
    const me = await sandbox.newClient({ balance: 1_000_000 });
    const businessId = me.businesses[0]?.id ?? '';
    const headers = await sandbox.signIn(me);
    const sent = await fetch(`${sandbox.url}/api/v1/clients/business/customers/funds/transfer`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: 2_000_000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: 'handle-ledger-1',
        narration: 'More than the balance',
      }),
    });
    // The docs' envelope: the message alone; the code and the reference are on the ledger entry.
    expect(await sent.json()).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    const ledger = await sandbox.ledger(businessId, { retrievalReference: 'handle-ledger-1' });
    expect(ledger.transactions).toEqual([
      expect.objectContaining({ status: 'failed', errorCode: '51', retrievalReference: 'handle-ledger-1' }),
    ]);
    expect(ledger.balance).toBe(1_000_000);
    await sandbox.incomingPayment({ accountNumber: me.virtualAccount.accountNumber, amount: 10_000 });
    // Without a filter, the whole ledger, newest first.
    expect((await sandbox.ledger(businessId)).transactions.map((t) => t.kind)).toEqual([
      'incoming_payment',
      'transfer',
    ]);

    const plan = await sandbox.addSubscription(businessId, {
      packageName: 'Handle Plan',
      amount: 123_400,
      interval: 'weekly',
    });
    expect(plan).toEqual({
      id: expect.any(String),
      packageName: 'Handle Plan',
      amount: '123400',
      interval: 'weekly',
      businessId,
      clientId: me.clientId,
    });
    const listed = await fetch(`${sandbox.url}/api/v1/clients/business/subscriptions`, { headers });
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([plan]);
    const unknown = await sandbox
      .addSubscription(crypto.randomUUID(), { packageName: 'Nobody’s', amount: 1, interval: 'daily' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ControlApiError);
    expect(unknown).toMatchObject({ status: 404, message: 'Business not found' });
  });

  it('signIn() takes a fixture client and a business of its, by id or entry', async () => {
    const sandbox = handle();
    const fixtureA = (await sandbox.credentials()).find((c) => c.clientId === A.id);
    if (!fixtureA) throw new Error('fixture client A is listed');
    const second = fixtureA.businesses[1];
    if (!second) throw new Error('client A has two businesses');
    expect((await sandbox.signIn(fixtureA)).businessId).toBe(A.a1.id);
    expect((await sandbox.signIn(fixtureA, second)).businessId).toBe(second.id);
    expect(sandbox.schemeB(fixtureA, second.id).businessId).toBe(second.id);
    const wrong = await sandbox.signIn({ ...fixtureA, password: 'not it' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(SandboxError);
    expect(wrong).toMatchObject({ status: 401, message: 'Invalid email or password' });
  });

  it('refusals are SandboxErrors with the status and the envelope’s message', async () => {
    const sandbox = handle();
    const badOption = await sandbox.newClient({ balance: -5 }).catch((e: unknown) => e);
    expect(badOption).toBeInstanceOf(SandboxError);
    expect(badOption).toBeInstanceOf(ControlApiError);
    expect(badOption).toMatchObject({ status: 400, message: 'balance is invalid: must be at least 0' });
    const unknown = await sandbox
      .incomingPayment({ accountNumber: '0000000000', amount: 100 })
      .catch((e) => e);
    expect(unknown).toMatchObject({ status: 404, message: 'Virtual account not found' });
    expect(unknown).toBeInstanceOf(ControlApiError);
    expect(unknown).toMatchObject({ name: 'ControlApiError', data: null });
    const noScenario = await sandbox.setScenario('no-such-scenario').catch((e: unknown) => e);
    expect(noScenario).toBeInstanceOf(ControlApiError);
    expect(noScenario).toMatchObject({
      status: 404,
      message: expect.stringMatching(/^No ready scenario named "no-such-scenario" \(ready: default, /),
    });
    // A name near a ready one: the one meant.
    const near = await sandbox.setScenario('flaky-bnak').catch((e: unknown) => e);
    expect(near).toMatchObject({
      status: 404,
      message: expect.stringMatching(
        /^No ready scenario named "flaky-bnak" \(did you mean "flaky-bank"\? ready: /,
      ),
    });
  });

  it('setScenario() by name, as an object, and back with null', async () => {
    const sandbox = handle();
    const active = async () => {
      const res = await fetch(`${sandbox.url}/__sandbox/scenario`, { headers: { 'x-sandbox-token': TOKEN } });
      return ((await res.json()) as { data: { name: string } }).data.name;
    };
    await sandbox.setScenario('flaky-bank');
    expect(await active()).toBe('flaky-bank');
    await sandbox.setScenario({ name: 'mine', description: 'one rule', rules: [] });
    expect(await active()).toBe('mine');
    const bad = await sandbox
      .setScenario({ name: 'bad', description: 'x', rules: [{ on: 'nowhere' }] } as never)
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400 });
    await sandbox.setScenario(null);
    expect(await active()).toBe('default');
  });

  it('clock: freeze, advance, get, and run again', async () => {
    const sandbox = handle();
    await sandbox.clock.freeze();
    const frozen = await sandbox.clock.get();
    expect(frozen.frozen).toBe(true);
    await sandbox.clock.advance(60_000);
    const later = await sandbox.clock.get();
    expect(Date.parse(later.now) - Date.parse(frozen.now)).toBe(60_000);
    await sandbox.clock.freeze(false);
    expect((await sandbox.clock.get()).frozen).toBe(false);
  });

  it('drain() resolves when idle, and rejects with a DrainTimeoutError naming the delivery it waits for', async () => {
    const sandbox = handle();
    await sandbox.drain();
    const me = await sandbox.newClient({ webhookUrl: receiver.url });
    await sandbox.clock.freeze();
    try {
      const { deliveryId } = await sandbox.incomingPayment({
        accountNumber: me.virtualAccount.accountNumber,
        amount: 10_000,
      });
      const error = await sandbox.drain({ timeoutMs: 100 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DrainTimeoutError);
      expect(error).toBeInstanceOf(SandboxError);
      const timeout = error as DrainTimeoutError;
      expect(timeout.status).toBe(408);
      expect(timeout.timeoutMs).toBe(100);
      expect(timeout.message).toContain(`webhook delivery ${deliveryId}`);
      expect(timeout.waiting.deliveries.map((d) => d.id)).toContain(deliveryId);
      // The retries come due on the clock: an hour takes the delivery to failed, and the queues are idle.
      await sandbox.clock.advance(3_600_000);
      await sandbox.drain();
    } finally {
      await sandbox.clock.freeze(false);
    }
  });

  it('requests() and verify() read what the app sent (needs the journal routes)', async () => {
    const sandbox = handle();
    const me = await sandbox.newClient();
    const narration = `handle-${crypto.randomUUID()}`;
    expect((await appTransfer(sandbox, me, narration)).status).toBe(200);
    const found = await sandbox.requests({ method: 'POST', path: '/funds/transfer', body: { narration } });
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found[0])).toContain(narration);
    expect(await sandbox.requests({ clientId: me.clientId, path: '/funds/transfer' })).toHaveLength(1);
    expect(await sandbox.requests({ body: { narration: `${narration}-not` } })).toEqual([]);
    expect(await sandbox.requests({ status: '4xx', body: { narration } })).toEqual([]);
    expect(await sandbox.requests({ status: 200, body: { narration } })).toHaveLength(1);

    const held = await sandbox.verify({ path: '/funds/transfer', body: { narration }, exactly: 1 });
    expect(held.count).toBe(1);
    const failed = await sandbox
      .verify({ path: '/funds/transfer', body: { narration }, atLeast: 2 })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(VerificationError);
    expect(failed).toMatchObject({ name: 'VerificationError', status: 409, count: 1 });
    expect((failed as VerificationError).expected).toBeDefined();
    expect(Array.isArray((failed as VerificationError).nearest)).toBe(true);
  });

  it('reset() puts the fixtures back', async () => {
    const sandbox = handle();
    const me = await sandbox.newClient();
    await sandbox.reset();
    const ids = (await sandbox.credentials()).map((c) => c.clientId);
    expect(ids).not.toContain(me.clientId);
    expect(ids).toContain(A.id);
  });

  it('reset() empties the journal, reset({keepRequests: true}) keeps it, clearRequests() empties it alone', async () => {
    const sandbox = handle();
    await sandbox.reset();
    await sandbox.signIn(await sandbox.newClient());
    await sandbox.reset({ keepRequests: true });
    // (Over HTTP `newClient()` is a request too, journaled before the sign-in; in process it is a call.)
    expect((await sandbox.requests()).map((e) => e.path).slice(0, 2)).toEqual([
      '/__sandbox/reset',
      '/api/v1/auth/signin',
    ]);
    await sandbox.reset();
    expect(await sandbox.requests()).toEqual([]);

    const other = await sandbox.newClient();
    await sandbox.signIn(other);
    const journaled = (await sandbox.requests()).length;
    expect(journaled).toBeGreaterThan(0);
    expect(await sandbox.clearRequests()).toBe(journaled);
    expect(await sandbox.requests()).toEqual([]);
    // The state stays: the client made before is still there.
    expect((await sandbox.credentials()).map((c) => c.clientId)).toContain(other.clientId);
  });
});

describe('connectSandbox(url) alone', () => {
  it('sends the control token; without it every call is a ControlApiError 401', async () => {
    const error = await connectSandbox(child.url)
      .credentials()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({ status: 401, message: 'x-sandbox-token is missing or wrong' });
  });

  it('close() closes nothing: the sandbox keeps answering', async () => {
    const sandbox = connectSandbox(`${child.url}/`, { controlToken: TOKEN });
    expect(sandbox.url).toBe(child.url);
    await sandbox.close();
    expect((await sandbox.credentials()).length).toBeGreaterThan(0);
  });

  it('a sandbox that cannot be reached is a SandboxUnreachableError naming the URL', async () => {
    const error = await connectSandbox('http://127.0.0.1:1')
      .reset()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnreachableError);
    expect(error).toMatchObject({ url: 'http://127.0.0.1:1' });
    expect((error as Error).message).toMatch(/^cannot reach the sandbox at http:\/\/127\.0\.0\.1:1 \(/);
  });

  it('a server that is not a sandbox, and a URL that is not one, are refused with a clear line', async () => {
    const notSandbox = new URL(receiver.url).origin; // a web server that answers 500 with no body
    const notJson = await connectSandbox(notSandbox)
      .reset()
      .catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(SandboxUnreachableError);
    expect((notJson as Error).message).toBe(
      `${notSandbox} did not answer POST /__sandbox/reset as a banking sandbox does (500, not JSON): is it the sandbox's URL?`,
    );
    expect(() => connectSandbox('localhost:4010')).toThrow(/is not an http\(s\) URL/);
    expect(() => connectSandbox('not a url')).toThrow(SandboxError);
  });
});
