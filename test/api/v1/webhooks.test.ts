import { afterEach, describe, expect, it } from 'vitest';
import { accountDetails } from '../../../src/contract/api/business.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { delivery as deliverySchema } from '../../../src/contract/control/webhooks.js';
import type { Clock } from '../../../src/domain/clock.js';
import { masked } from '../../../src/domain/redact.js';
import { createSandbox, type Sandbox, version } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { ledgerOf } from '../../support/money.js';
import { type Reply, refusedUrl, startReceiver } from '../../support/receiver.js';
import { A, B, call, memorySandbox } from '../../support/sandbox.js';
import {
  attemptsRecorded,
  delivery,
  FAST,
  incomingPayment,
  setWebhookUrl,
  webhookSetup,
} from '../../support/webhooks.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f();
});

async function receiver(replies: Reply[] = [], then: Reply = 200) {
  const r = await startReceiver(replies, then);
  cleanups.push(r.close);
  return r;
}

/** Client A with a webhook URL (or none) and a permanent virtual account of business A1. */
function setup(sandbox: Sandbox, webhookUrl: string | null, type: 'permanent' | 'temporal' = 'permanent') {
  return webhookSetup(sandbox, webhookUrl, { type, reference: 'va-ref-1' });
}

/** A payment of 1000 kobo to `accountNumber`; answers its delivery id. */
async function payIn(sandbox: Sandbox, accountNumber: string): Promise<string> {
  return dataOf(await incomingPayment(sandbox, { accountNumber, amount: 1000 }), paymentReceived).deliveryId;
}

/** Client A set up with `webhookUrl` and paid 1000 kobo, once the webhook work has finished: the delivery. */
async function settledDelivery(sandbox: Sandbox, webhookUrl: string) {
  const { account } = await setup(sandbox, webhookUrl);
  const deliveryId = await payIn(sandbox, account.accountNumber);
  await sandbox.drain();
  return { deliveryId, d: await delivery(sandbox, deliveryId) };
}

async function balance(sandbox: Sandbox, headers: Record<string, string>): Promise<number> {
  const res = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
  return Number(dataOf(res, accountDetails).accountBalance);
}

describe('incoming payments', () => {
  it('credits amount less the charge, records the credit and delivers the spec payload with AUTH-KEY', async () => {
    const hook = await receiver();
    const sandbox = await memorySandbox(FAST);
    const { headers, account } = await setup(sandbox, hook.url);
    const before = await balance(sandbox, headers);

    const res = await incomingPayment(sandbox, {
      accountNumber: account.accountNumber,
      amount: 500_000,
      accountName: 'Tunde Bakare',
      payerAccountNumber: '0123456789',
      payerBankCode: '044',
      narration: 'Invoice 42',
    });
    expect(res.status).toBe(201);
    const { transactionReference, deliveryId } = dataOf(res, paymentReceived);
    await sandbox.drain();

    // 0.5% of 500 000 kobo = 2 500.
    expect(await balance(sandbox, headers)).toBe(before + 500_000 - 2_500);
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got?.headers['auth-key']).toBe(A.webhookAuthKey);
    expect(got?.headers['content-type']).toBe('application/json');
    // The control API refuses this agent: a delivery that reaches the sandbox cannot drive it.
    expect(got?.headers['user-agent']).toBe(`banking-sandbox-webhooks/${version}`);
    expect(got?.body).toEqual({
      transactionReference,
      virtualAccountRef: 'va-ref-1',
      transactionDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      amount: 500_000,
      charge: 2_500,
      availableBalance: before + 497_500,
      ledgerBalance: before + 497_500,
      accountName: 'Tunde Bakare',
      accountNumber: '0123456789',
      recipientAccountNumber: account.accountNumber,
      recpientAccountName: account.accountName,
      description: expect.any(String),
      narration: 'Invoice 42',
      depositorDetails: expect.objectContaining({
        accountName: 'Tunde Bakare',
        accountNumber: '0123456789',
        bankCode: '044',
      }),
    });
    for (const field of ['amount', 'charge', 'availableBalance', 'ledgerBalance']) {
      expect(Number.isInteger(got?.body[field])).toBe(true);
    }
    expect(await delivery(sandbox, deliveryId)).toMatchObject({
      status: 'delivered',
      attempts: [{ statusCode: 200, error: null }],
    });

    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(ledger.transactions[0]).toMatchObject({
      id: transactionReference,
      kind: 'incoming_payment',
      direction: 'credit',
      amount: 500_000,
      charge: 2_500,
    });
  });

  it('shows the headers a delivery is sent with, AUTH-KEY redacted, in the list and by id', async () => {
    const hook = await receiver();
    const sandbox = await memorySandbox(FAST);
    const { d } = await settledDelivery(sandbox, hook.url);
    const [got] = hook.received;
    const shown = { ...d.headers };
    expect(shown['AUTH-KEY']).toBe(masked(A.webhookAuthKey));
    expect(JSON.stringify(shown)).not.toContain(A.webhookAuthKey);
    // Everything else exactly as the receiver got it.
    delete shown['AUTH-KEY'];
    for (const [name, value] of Object.entries(shown))
      expect(got?.headers[name.toLowerCase()], name).toBe(value);
    expect(Object.keys(d.headers).sort()).toEqual(['AUTH-KEY', 'content-type', 'user-agent']);
    const listed = pageOf(await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries'), deliverySchema).data;
    expect(listed.find((x) => x.id === d.id)?.headers).toEqual(d.headers);
  });

  it('caps the charge (0.5%, at most 30 000 kobo)', async () => {
    const sandbox = await memorySandbox(FAST);
    const { headers, account } = await setup(sandbox, null);
    const before = await balance(sandbox, headers);
    await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 10_000_000 });
    expect(await balance(sandbox, headers)).toBe(before + 10_000_000 - 30_000);
  });

  it.each([
    ['an unknown account', { accountNumber: '1234567890', amount: 1000 }, 404],
    ['a zero amount', { amount: 0 }, 400],
    ['a negative amount', { amount: -5 }, 400],
    ['a fractional amount', { amount: 10.5 }, 400],
    ['a non-numeric amount', { amount: 'lots' }, 400],
    ['no amount', { amount: undefined }, 400],
    ['a 9-digit account number', { accountNumber: '123456789', amount: 1000 }, 400],
  ] as [string, Record<string, unknown>, number][])('refuses %s', async (_name, override, status) => {
    const sandbox = await memorySandbox(FAST);
    const { headers, account } = await setup(sandbox, null);
    const before = await balance(sandbox, headers);
    const res = await incomingPayment(sandbox, {
      accountNumber: account.accountNumber,
      amount: 1000,
      ...override,
    });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(await balance(sandbox, headers)).toBe(before);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries')).body.data).toEqual([]);
  });

  it('refuses an expired temporal account with 409', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const clock: Clock = { now: () => now };
    const sandbox = await createSandbox(
      { inMemory: true, log: () => undefined, virtualAccountTtl: 60, ...FAST },
      clock,
    );
    const { account } = await setup(sandbox, null, 'temporal');
    now += 59_000;
    expect(
      (await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 })).status,
    ).toBe(201);
    now += 2_000;
    const late = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
    expect(late.status).toBe(409);
  });
});

describe('webhook deliveries', () => {
  it('retries a receiver that answers 500 twice: three attempts, one acknowledged delivery', async () => {
    const hook = await receiver([500, 500]);
    const sandbox = await memorySandbox(FAST);
    const { d } = await settledDelivery(sandbox, hook.url);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    for (const a of d.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
    expect(hook.received).toHaveLength(3);
    // Every attempt carries the same payload.
    expect(new Set(hook.received.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('counts 201 and 204 as failures: only 200 acknowledges', async () => {
    const hook = await receiver([201, 204]);
    const sandbox = await memorySandbox(FAST);
    const { d } = await settledDelivery(sandbox, hook.url);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([201, 204, 200]);
    expect(d.attempts[0]?.error).toMatch(/only 200/);
  });

  it('shows its times as ISO 8601 text: nextAttemptAt, every attempt, in the list, the read and a redelivery', async () => {
    const hook = await receiver([500]);
    // A minute's backoff: the delivery stays pending with its retry due.
    const sandbox = await memorySandbox({ ...FAST, webhookRetryBase: 60_000 });
    cleanups.push(() => sandbox.close());
    const { account } = await setup(sandbox, hook.url);
    const deliveryId = await payIn(sandbox, account.accountNumber);
    await attemptsRecorded(sandbox, deliveryId, 1);
    const stored = sandbox.store.get('deliveries', deliveryId);
    expect(stored?.nextAttemptAt).toEqual(expect.any(Number));
    const due = new Date(stored?.nextAttemptAt ?? 0).toISOString();
    const d = await delivery(sandbox, deliveryId);
    expect(d).toMatchObject({ status: 'pending', nextAttemptAt: due });
    for (const a of d.attempts) expect(new Date(a.at).toISOString()).toBe(a.at);
    const listed = pageOf(await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries'), deliverySchema);
    expect(listed.data.find((x) => x.id === deliveryId)?.nextAttemptAt).toBe(due);
    const again = await call(sandbox, 'POST', `/__sandbox/webhooks/deliveries/${deliveryId}/redeliver`);
    expect(again.status).toBe(200);
    const redelivered = dataOf(again, deliverySchema);
    expect(redelivered.nextAttemptAt).toEqual(expect.any(String));
    expect(new Date(redelivered.nextAttemptAt ?? '').toISOString()).toBe(redelivered.nextAttemptAt);
  });

  it('gives up after the configured attempts and marks the delivery failed', async () => {
    const hook = await receiver([], 503);
    const sandbox = await memorySandbox({ ...FAST, webhookAttempts: 4 });
    const { deliveryId, d } = await settledDelivery(sandbox, hook.url);
    expect(d).toMatchObject({ status: 'failed', attemptsLeft: 0, nextAttemptAt: null });
    expect(d.attempts).toHaveLength(4);
    expect(hook.received).toHaveLength(4);
    const failed = await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?status=failed');
    expect(pageOf(failed, deliverySchema).data.map((x) => x.id)).toEqual([deliveryId]);
  });

  it('times out a receiver that hangs, and retries it', async () => {
    const hook = await receiver(['hang', 'hang']);
    const sandbox = await memorySandbox({ ...FAST, webhookTimeout: 100, webhookAttempts: 3 });
    const { d } = await settledDelivery(sandbox, hook.url);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([null, null, 200]);
    expect(d.attempts[0]?.error).toBe('no answer within 100 ms');
    expect(d.attempts[0]?.durationMs).toBeGreaterThanOrEqual(90);
  });

  it('records a refused connection and retries it', async () => {
    const sandbox = await memorySandbox({ ...FAST, webhookAttempts: 2 });
    const { d } = await settledDelivery(sandbox, await refusedUrl());
    expect(d.status).toBe('failed');
    expect(d.attempts).toHaveLength(2);
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('waits with the configured backoff between attempts', async () => {
    const hook = await receiver([500, 500]);
    const sandbox = await memorySandbox({ webhookRetryBase: 40, webhookRetryFactor: 2 });
    const { d } = await settledDelivery(sandbox, hook.url);
    const times = d.attempts.map((a) => Date.parse(a.at));
    const [t0 = 0, t1 = 0, t2 = 0] = times;
    expect(t1 - t0).toBeGreaterThanOrEqual(40);
    expect(t2 - t1).toBeGreaterThanOrEqual(80);
  });

  it('records the delivery as skipped when no webhook URL is set', async () => {
    const sandbox = await memorySandbox(FAST);
    const { account } = await setup(sandbox, null);
    const res = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
    expect(res.body.data).toMatchObject({ deliveryStatus: 'skipped' });
    await sandbox.drain();
    const d = await delivery(sandbox, dataOf(res, paymentReceived).deliveryId);
    expect(d).toMatchObject({ status: 'skipped', url: null, attempts: [] });
  });

  it('one at a time, delivers two payments in a row in order', async () => {
    const hook = await receiver();
    // With more at once they start in order too, but may reach the receiver in either (webhooks.order.test.ts).
    const sandbox = await memorySandbox({ ...FAST, webhookConcurrency: 1 });
    const { account } = await setup(sandbox, hook.url);
    const first = await incomingPayment(sandbox, {
      accountNumber: account.accountNumber,
      amount: 1000,
      narration: 'first',
    });
    const second = await incomingPayment(sandbox, {
      accountNumber: account.accountNumber,
      amount: 2000,
      narration: 'second',
    });
    await sandbox.drain();
    expect(hook.received.map((r) => r.body.transactionReference)).toEqual([
      dataOf(first, paymentReceived).transactionReference,
      dataOf(second, paymentReceived).transactionReference,
    ]);
    expect(hook.received.map((r) => r.body.narration)).toEqual(['first', 'second']);
  });

  it('redelivers to the current URL with a fresh round of attempts', async () => {
    const hook = await receiver([], 500);
    const sandbox = await memorySandbox({ ...FAST, webhookAttempts: 2 });
    const { headers, account } = await setup(sandbox, hook.url);
    const deliveryId = await payIn(sandbox, account.accountNumber);
    await sandbox.drain();
    expect((await delivery(sandbox, deliveryId)).status).toBe('failed');

    const fixed = await receiver();
    await setWebhookUrl(sandbox, headers, fixed.url);
    const again = await call(sandbox, 'POST', `/__sandbox/webhooks/deliveries/${deliveryId}/redeliver`);
    expect(again.status).toBe(200);
    await sandbox.drain();
    const d = await delivery(sandbox, deliveryId);
    expect(d).toMatchObject({ status: 'delivered', url: fixed.url });
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(fixed.received).toHaveLength(1);
  });

  it('refuses to redeliver an unknown delivery (404) or one whose client has no URL (400)', async () => {
    const sandbox = await memorySandbox(FAST);
    const { account } = await setup(sandbox, null);
    expect((await call(sandbox, 'POST', '/__sandbox/webhooks/deliveries/nope/redeliver')).status).toBe(404);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries/nope')).status).toBe(404);
    const deliveryId = await payIn(sandbox, account.accountNumber);
    expect(
      (await call(sandbox, 'POST', `/__sandbox/webhooks/deliveries/${deliveryId}/redeliver`)).status,
    ).toBe(400);
  });

  it('lists deliveries newest first, filtered by status and client, paginated', async () => {
    const hook = await receiver();
    const sandbox = await memorySandbox(FAST);
    const { account } = await setup(sandbox, hook.url);
    for (let i = 0; i < 3; i++)
      await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 + i });
    await sandbox.drain();
    const all = await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?limit=2');
    expect(all.body.pagination).toMatchObject({ totalCount: 3, hasNextPage: true, limit: 2 });
    expect(pageOf(all, deliverySchema).data.map((d) => d.payload.amount)).toEqual([1002, 1001]);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?status=pending')).body.data).toEqual(
      [],
    );
    expect((await call(sandbox, 'GET', `/__sandbox/webhooks/deliveries?clientId=${B.id}`)).body.data).toEqual(
      [],
    );
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?status=bogus')).status).toBe(400);
  });

  it('keeps the delivery log bounded: the oldest finished deliveries go, pending ones stay', async () => {
    // One attempt per delivery, one at a time, and a receiver that holds the first request open until it is
    // closed: the first delivery stays in flight and the ones after it wait behind it, all pending.
    const sandbox = await memorySandbox({
      deliveryLogSize: 3,
      webhookAttempts: 1,
      webhookTimeout: 60_000,
      webhookConcurrency: 1,
    });
    const hook = await startReceiver(['hang'], 200);
    const { headers, account } = await setup(sandbox, null);
    const amounts = async () =>
      pageOf(await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?limit=100'), deliverySchema).data.map(
        (d) => [d.payload.amount, d.status],
      );
    for (let i = 1; i <= 5; i++)
      await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: i });
    expect(await amounts()).toEqual([
      [5, 'skipped'],
      [4, 'skipped'],
      [3, 'skipped'],
    ]);
    // Pending deliveries are never dropped: the log holds them past the limit until they finish.
    expect((await setWebhookUrl(sandbox, headers, hook.url)).status).toBe(200);
    for (let i = 6; i <= 9; i++)
      await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: i });
    expect(await amounts()).toEqual([
      [9, 'pending'],
      [8, 'pending'],
      [7, 'pending'],
      [6, 'pending'],
      [5, 'skipped'],
      [4, 'skipped'],
      [3, 'skipped'],
    ]);
    const metrics = await call(sandbox, 'GET', '/__sandbox/metrics');
    expect(metrics.body.data).toMatchObject({ queues: { webhookDeliveries: 4 }, records: { deliveries: 7 } });
    // The payments themselves are all still in the ledger: only the delivery log is trimmed.
    const { transactions } = await ledgerOf(sandbox);
    // The 9 made here, and the 2 the fixtures give A1.
    expect(transactions.filter((e) => e.kind === 'incoming_payment')).toHaveLength(11);
    // The receiver goes away: the held attempt and the ones after it fail, and each delivery that finishes trims
    // the log back to the limit.
    await hook.close();
    await sandbox.drain();
    expect(await amounts()).toEqual([
      [9, 'failed'],
      [8, 'failed'],
      [7, 'failed'],
    ]);
  });

  it('reset forgets pending retries', async () => {
    const hook = await receiver([], 500);
    const sandbox = await memorySandbox({ webhookRetryBase: 60_000 });
    const { account } = await setup(sandbox, hook.url);
    await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 1000 });
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    // Would wait a minute for the retry if reset had not dropped it.
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=5000')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries')).body.data).toEqual([]);
  });
});
