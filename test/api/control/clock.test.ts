import { describe, expect, it } from 'vitest';
import { handleOverHttp } from '../../../src/client/over-http.js';
import { bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { type ClockView, clock } from '../../../src/contract/control/clock.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { type WaitingWork, waitingWork } from '../../../src/contract/control/sandbox.js';
import { controlErrorEnvelope } from '../../../src/contract/wire.js';
import { type Clock, END_OF_TIME_MS } from '../../../src/domain/clock.js';
import { DrainTimeoutError } from '../../../src/errors.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { bulkHelpers, processBatch } from '../../support/bulk.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { answerCheck } from '../../support/contract.js';
import { startReceiver } from '../../support/receiver.js';
import { A, call, memorySandbox, ownerHeaders, schemeB } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';
import {
  delivery,
  incomingPayment,
  openVirtualAccount,
  setWebhookUrl,
  webhookSetup,
} from '../../support/webhooks.js';

const { later, open, receiver } = closedAfterEachTest();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The settings of the two cases: 100 ms per bulk item, retries from 10 ms, 6 attempts. */
const DUE_WORK: SandboxOptions = { bulkItemDelay: 100, webhookRetryBase: 10, webhookAttempts: 6 };
/** Virtual ms from the first attempt of a delivery to each attempt: the backoff 10, 20, 40, 80, 160 summed. */
const ATTEMPT_OFFSETS = [0, 10, 30, 70, 150, 310];

const bulk = bulkHelpers({ label: 'clock', narration: 'Clock', batchName: 'Clock' });

async function clockOf(sandbox: Sandbox): Promise<ClockView> {
  const res = await call(sandbox, 'GET', '/__sandbox/clock');
  expect(res.status).toBe(200);
  return dataOf(res, clock);
}

function advance(sandbox: Sandbox, ms: unknown) {
  return call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms } });
}

/**
 * The two cases, on a frozen clock: a 100-item batch processing at 100 ms per item, and a delivery whose
 * receiver is down (`webhook-receiver-down`). Answers the batch id and the delivery id.
 */
async function dueWork(sandbox: Sandbox): Promise<{ batchId: string; deliveryId: string }> {
  const hook = await receiver();
  const { account } = await webhookSetup(sandbox, hook.url, { type: 'permanent', reference: 'clock-due' });
  const payment = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
  expect(payment.status).toBe(201);
  const batch = await bulk.create(sandbox, bulk.transfers(100, { amount: 1000 }));
  expect((await processBatch(sandbox, batch.id)).status).toBe(202);
  return { batchId: batch.id, deliveryId: dataOf(payment, paymentReceived).deliveryId };
}

/** Both cases settled: every item completed, the delivery failed after its six attempts, in backoff order. */
async function expectSettled(sandbox: Sandbox, work: { batchId: string; deliveryId: string }) {
  const batch = await bulk.getBatch(sandbox, work.batchId);
  expect(batch).toMatchObject({ status: 'completed', completedItems: 100, failedItems: 0 });
  const d = await delivery(sandbox, work.deliveryId);
  expect(d).toMatchObject({ status: 'failed', attemptsLeft: 0, nextAttemptAt: null });
  const first = Date.parse(d.attempts[0]?.at ?? '');
  expect(d.attempts.map((a) => Date.parse(a.at) - first)).toEqual(ATTEMPT_OFFSETS);
  for (const a of d.attempts) expect(a.error).toMatch(/ECONNREFUSED/);
}

describe('the virtual clock', () => {
  it('shows the time, advances and freezes it', async () => {
    const sandbox = await memorySandbox();
    const before = await clockOf(sandbox);
    expect(before.frozen).toBe(false);
    const frozen = await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    expect(frozen.body.data).toMatchObject({ frozen: true });
    const at = Date.parse(dataOf(frozen, clock).now);
    const advanced = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 3_600_000 } });
    expect(Date.parse(dataOf(advanced, clock).now)).toBe(at + 3_600_000);
    expect(Date.parse(before.now)).toBeLessThanOrEqual(at);
    const running = await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: false } });
    expect(running.body.data).toMatchObject({ frozen: false });
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/__sandbox/clock')).body.data).toMatchObject({
      frozen: false,
      offsetMs: 0,
    });
  });

  it.each([
    [{ ms: 0 }],
    [{ ms: -1 }],
    [{ ms: -HOUR }],
    [{ ms: 1.5 }],
    [{ ms: 'soon' }],
    [{ ms: null }],
    [{}],
    [{ ms: 8.64e15 }],
    [{ ms: Number.MAX_SAFE_INTEGER }],
    [{ ms: 1e300 }],
  ])('refuses to advance by %j with 400 and the error envelope, and nothing moves', async (body) => {
    const sandbox = await open();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const before = await clockOf(sandbox);
    const res = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'ms' })]);
    expect((await clockOf(sandbox)).now).toBe(before.now);
  });

  it("refuses an advance past the end of the clock's range, to the millisecond", async () => {
    const T = Date.parse('2030-01-01T00:00:00.000Z');
    const sandbox = await createSandbox(
      { inMemory: true, log: () => undefined },
      { now: () => T },
      { checkAnswers: answerCheck },
    );
    later(() => sandbox.close());
    const room = END_OF_TIME_MS - T;
    const past = await advance(sandbox, room + 1);
    expect(past.status).toBe(400);
    expect(String(past.body.message)).toMatch(/9999-12-31T23:59:59\.999Z/);
    expect((await clockOf(sandbox)).offsetMs).toBe(0);
    expect((await advance(sandbox, room)).status).toBe(200);
    // The last moment with a four-digit year, which every ISO 8601 consumer reads.
    expect((await clockOf(sandbox)).now).toBe('9999-12-31T23:59:59.999Z');
    expect((await advance(sandbox, 1)).status).toBe(400);
  });

  it('in code, refuses the same amounts with a RangeError, and nothing moves', async () => {
    const sandbox = await open();
    await sandbox.clock.freeze(true);
    const at = sandbox.clock.now();
    for (const ms of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 8.64e15]) {
      await expect(sandbox.clock.advance(ms)).rejects.toThrow(RangeError);
    }
    expect(sandbox.clock.now()).toBe(at);
  });

  it('shows how far it is from real time while frozen after an advance', async () => {
    const T = Date.parse('2030-01-01T00:00:00.000Z');
    const source: Clock = { now: () => T };
    const sandbox = await createSandbox({ inMemory: true, log: () => undefined }, source);
    later(() => sandbox.close());
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const advanced = await advance(sandbox, HOUR);
    expect(advanced.body.data).toEqual({ now: '2030-01-01T01:00:00.000Z', frozen: true, offsetMs: HOUR });
    expect(await clockOf(sandbox)).toEqual({ now: '2030-01-01T01:00:00.000Z', frozen: true, offsetMs: HOUR });
  });

  it('expires an access token when the clock passes its lifetime', async () => {
    const sandbox = await memorySandbox({ tokenTtl: 600 });
    // Frozen on a whole second: the token's iat is whole seconds, and real time must not move under the test.
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const at = Date.parse((await clockOf(sandbox)).now);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1000 - (at % 1000) } });
    const headers = await ownerHeaders(sandbox);
    const read = () => call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect((await read()).status).toBe(200);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 599_000 } });
    expect((await read()).status).toBe(200);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 2_000 } });
    const expired = await read();
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('Access token has expired');
  });

  it('expires a temporal virtual account when the clock passes its lifetime', async () => {
    const sandbox = await memorySandbox({ virtualAccountTtl: 1800 });
    const va = await openVirtualAccount(sandbox, await ownerHeaders(sandbox), 'temporal', 'clock-va');
    const { accountNumber } = dataOf(va, virtualAccount);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1_801_000 } });
    const late = await incomingPayment(sandbox, { accountNumber, amount: 1000 });
    expect(late.status).toBe(409);
  });

  it('makes a webhook retry due at once when advanced past its backoff, with time frozen', async () => {
    const hook = await startReceiver([500]);
    later(hook.close);
    // A minute of backoff: without the clock, drain would wait a minute.
    const sandbox = await memorySandbox({ webhookRetryBase: 60_000 });
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const headers = await ownerHeaders(sandbox);
    await setWebhookUrl(sandbox, headers, hook.url);
    const va = await openVirtualAccount(sandbox, headers, 'permanent', 'clock-hook');
    const { accountNumber } = dataOf(va, virtualAccount);
    const paid = await incomingPayment(sandbox, { accountNumber, amount: 1000 });
    const { deliveryId } = dataOf(paid, paymentReceived);
    // The first attempt goes out at once, and an advance waits for it (its POST is real I/O): then the retry is
    // what is left, a minute away on a clock that stands still, and a drain gives up on it.
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1 } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=20')).status).toBe(408);
    expect(hook.received).toHaveLength(1);

    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 60_000 } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain')).status).toBe(200);
    const d = await delivery(sandbox, deliveryId);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(Date.parse(d.attempts[1]?.at ?? '') - Date.parse(d.attempts[0]?.at ?? '')).toBeGreaterThanOrEqual(
      60_000,
    );
  });

  it('holds bulk items processing through their delay until the clock moves', async () => {
    const sandbox = await memorySandbox({ bulkItemDelay: 30_000 });
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const headers = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const base = '/api/v1/clients/business/customers/funds/bulk-transfer';
    const transfers = [0, 1].map((i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `clock-${i}`,
      narration: 'clock',
    }));
    const created = await call(sandbox, 'POST', base, { headers, body: { batchName: 'Clock', transfers } });
    const { id } = dataOf(created, bulkTransferWithItems);
    await call(sandbox, 'POST', `${base}/process`, { headers, body: { bulkTransferId: id } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=20')).status).toBe(408);
    const during = dataOf(await call(sandbox, 'GET', `${base}/${id}`, { headers }), bulkTransferWithItems);
    expect(during.items.map((i) => i.status)).toEqual(['processing', 'processing']);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 30_000 } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain')).status).toBe(200);
    const after = dataOf(await call(sandbox, 'GET', `${base}/${id}`, { headers }), bulkTransferWithItems);
    expect(after.status).toBe('completed');
  });

  it('makes a token issued at a later virtual time invalid once the clock is back before it (reset)', async () => {
    const sandbox = await open();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    await advance(sandbox, 100 * 365 * DAY);
    const headers = await ownerHeaders(sandbox);
    const read = () => call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect((await read()).status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    const early = await read();
    expect(early.status).toBe(401);
    expect(early.body).toMatchObject({ status: false, data: null });
    expect(String(early.body.message)).toMatch(/not valid yet/);
  });
});

describe('one advance runs everything that comes due', () => {
  it('over HTTP: one advance of an hour settles a 100-item batch at 100 ms per item and a delivery whose receiver is down', async () => {
    const sandbox = await open(DUE_WORK);
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    expect(
      (await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'webhook-receiver-down' } })).status,
    ).toBe(200);
    const start = Date.parse((await clockOf(sandbox)).now);
    const work = await dueWork(sandbox);

    const res = await advance(sandbox, HOUR);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ now: new Date(start + HOUR).toISOString(), frozen: true });
    // Settled when the advance answers: no drain needed, and nothing is left for one.
    await expectSettled(sandbox, work);
    expect((await call(sandbox, 'POST', '/__sandbox/drain')).status).toBe(200);
  });

  it('in code: await sandbox.clock.advance(hour) settles the same two', async () => {
    const sandbox = await open(DUE_WORK);
    await sandbox.clock.freeze(true);
    await sandbox.setScenario('webhook-receiver-down');
    const start = sandbox.clock.now();
    const work = await dueWork(sandbox);

    await sandbox.clock.advance(HOUR);
    expect(sandbox.clock.now()).toBe(start + HOUR);
    await expectSettled(sandbox, work);
    await sandbox.drain();
  });

  it('runs what is due in time order and stops at the target: what is due later waits for the next advance', async () => {
    const sandbox = await open(DUE_WORK);
    await sandbox.clock.freeze(true);
    await sandbox.setScenario('webhook-receiver-down');
    const { batchId, deliveryId } = await dueWork(sandbox);
    const start = sandbox.clock.now();
    const counts = async () => {
      const batch = await bulk.getBatch(sandbox, batchId);
      const d = await delivery(sandbox, deliveryId);
      const next = d.nextAttemptAt === null ? null : Date.parse(d.nextAttemptAt);
      return { completed: batch.completedItems, attempts: d.attempts.length, next };
    };
    // The first attempt was made at `start`; retries are due at +10, +30, +70; items finish 8 at a time each 100 ms.
    await sandbox.clock.advance(30);
    expect(await counts()).toEqual({ completed: 0, attempts: 3, next: start + 70 });
    await sandbox.clock.advance(39);
    expect(await counts()).toEqual({ completed: 0, attempts: 3, next: start + 70 });
    await sandbox.clock.advance(1);
    expect(await counts()).toEqual({ completed: 0, attempts: 4, next: start + 150 });
    await sandbox.clock.advance(30);
    expect(await counts()).toEqual({ completed: 8, attempts: 4, next: start + 150 });
    await sandbox.clock.advance(100);
    expect(await counts()).toEqual({ completed: 16, attempts: 5, next: start + 310 });
  });

  it('waits for the real I/O of what it wakes: a receiver that fails twice then acknowledges, in one advance', async () => {
    const hook = await receiver([500, 500]);
    const sandbox = await open({ webhookRetryBase: 60_000 });
    await sandbox.clock.freeze(true);
    const { account } = await webhookSetup(sandbox, hook.url, { type: 'permanent', reference: 'clock-io' });
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
    const { deliveryId } = dataOf(paid, paymentReceived);
    await sandbox.clock.advance(HOUR);
    const d = await delivery(sandbox, deliveryId);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(hook.received).toHaveLength(3);
  });
});

describe('drain gives up and says what is still waiting', () => {
  /** On a frozen clock: ten items processing at 30 s each (eight at a time), a delivery waiting a minute for its retry. */
  async function stuck(sandbox: Sandbox) {
    await sandbox.clock.freeze(true);
    const hook = await receiver([500]);
    const { account } = await webhookSetup(sandbox, hook.url, {
      type: 'permanent',
      reference: 'clock-stuck',
    });
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
    const { deliveryId } = dataOf(paid, paymentReceived);
    const batch = await bulk.create(sandbox, bulk.transfers(10, { amount: 1000 }));
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    // The first attempt goes out at once; an advance waits for it (its POST is real I/O), and its failure
    // schedules the retry a minute on.
    await sandbox.clock.advance(1);
    const d = await delivery(sandbox, deliveryId);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500]);
    return {
      batchId: batch.id,
      deliveryId,
      now: sandbox.clock.now(),
      nextAttemptAt: Date.parse(d.nextAttemptAt ?? ''),
    };
  }

  function expectReport(waiting: WaitingWork, s: Awaited<ReturnType<typeof stuck>>) {
    expect(waiting.clock).toMatchObject({ frozen: true, now: new Date(s.now).toISOString() });
    expect(waiting.batchCount).toBe(1);
    expect(waiting.batches[0]).toMatchObject({ id: s.batchId, totalItems: 10, openItems: 10 });
    expect(waiting.batches[0]?.items.map((i) => `${i.itemIndex}:${i.status}`)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `${i}:processing`),
      '8:pending',
      '9:pending',
    ]);
    expect(waiting.deliveryCount).toBe(1);
    expect(waiting.deliveries[0]).toEqual({
      id: s.deliveryId,
      clientId: A.id,
      businessId: A.a1.id,
      attemptsMade: 1,
      attemptsLeft: 5,
      nextAttemptAt: new Date(s.nextAttemptAt).toISOString(),
      dueInMs: s.nextAttemptAt - s.now,
    });
  }

  const options: SandboxOptions = { bulkItemDelay: 30_000, webhookRetryBase: 60_000 };

  it('over HTTP: 408 whose message and `waiting` name the batch and its items, the delivery and its next attempt, and the frozen clock', async () => {
    const sandbox = await open(options);
    const s = await stuck(sandbox);
    const res = await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=20');
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ status: false, data: null });
    const message = String(res.body.message);
    expect(message).toContain('after 20 ms');
    expect(message).toContain(
      `bulk transfer ${s.batchId} "Clock" with 10 of 10 items open (items processing 0–7; pending 8–9)`,
    );
    expect(message).toContain(
      `webhook delivery ${s.deliveryId} after 1 attempt(s), 5 left, its next attempt due at ${new Date(s.nextAttemptAt).toISOString()}, in ${s.nextAttemptAt - s.now} ms`,
    );
    expect(message).toContain('The clock is frozen');
    expectReport(waitingWork().parse(res.body.waiting), s);
  });

  it('in code: drain({timeoutMs}) rejects with a DrainTimeoutError carrying the same report, and a later advance lets it finish', async () => {
    const sandbox = await open(options);
    const s = await stuck(sandbox);
    const error = await sandbox.drain({ timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DrainTimeoutError);
    if (!(error instanceof DrainTimeoutError)) return;
    expect(error.timeoutMs).toBe(20);
    expect(error).toMatchObject({ name: 'DrainTimeoutError', status: 408 });
    expect(error.message).toContain(s.batchId);
    expect(error.message).toContain(s.deliveryId);
    expectReport(error.waiting, s);
    await sandbox.clock.advance(HOUR);
    await sandbox.drain();
  });

  it('over HTTP, through the handle: a DrainTimeoutError with the timeout it asked for and `waiting` as sent, whatever the message says', async () => {
    const sandbox = await open(options);
    const s = await stuck(sandbox);
    const sent: unknown[] = [];
    // The sandbox's own answers, the 408's message reworded: nothing of the error may come from its words.
    const handle = handleOverHttp('the app', async (path, init) => {
      const res = await sandbox.app.request(path, init);
      if (res.status !== 408) return res;
      const body = controlErrorEnvelope().parse(await res.json());
      sent.push(body);
      return Response.json({ ...body, message: 'Gave up.' }, { status: 408 });
    });
    const error = await handle.drain({ timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DrainTimeoutError);
    if (!(error instanceof DrainTimeoutError)) return;
    expect(error).toMatchObject({
      name: 'DrainTimeoutError',
      status: 408,
      timeoutMs: 20,
      message: 'Gave up.',
    });
    expectReport(error.waiting, s);
    expect(sent).toEqual([expect.objectContaining({ waiting: error.waiting })]);
    await handle.clock.advance(HOUR);
    await handle.drain();
  });
});

describe('the clock is part of the state', () => {
  it('goes out with the state export and comes back with its import; a reset brings real time back', async () => {
    const sandbox = await open();
    await sandbox.clock.freeze(true);
    await sandbox.clock.advance(10 * DAY);
    const frozenAt = sandbox.clock.now();
    const exported = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    expect(exported.collections.meta[0]?.clock).toEqual({ offsetMs: expect.any(Number), frozenAt });

    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    const reset = await clockOf(sandbox);
    expect(reset).toMatchObject({ frozen: false, offsetMs: 0 });
    expect(Date.parse(reset.now)).toBeLessThan(frozenAt);

    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...exported } })).status).toBe(200);
    expect(await clockOf(sandbox)).toMatchObject({ frozen: true, now: new Date(frozenAt).toISOString() });
  });

  it("refuses an import whose clock would stand outside the clock's range", async () => {
    const sandbox = await open();
    const doc = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const meta = doc.collections.meta[0];
    if (!meta) throw new Error('no meta record');
    doc.collections.meta = [{ ...meta, clock: { offsetMs: 8.64e15, frozenAt: null } }];
    const res = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...doc } });
    expect(res.status).toBe(400);
    expect((await clockOf(sandbox)).offsetMs).toBe(0);
  });
});
