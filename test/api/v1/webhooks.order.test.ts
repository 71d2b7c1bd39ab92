// One client's deliveries when a receiver hangs on one of them. A hang is real time (the
// sender gives up after --webhook-timeout of real time, and an advance of a frozen clock waits for the request
// in flight), so these run on the clock as it runs, and wait for requests to arrive, never for time to pass.
import { afterEach, describe, expect, it } from 'vitest';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { type Replies, type Reply, startReceiver } from '../../support/receiver.js';
import { memorySandbox } from '../../support/sandbox.js';
import { attemptsRecorded, delivery, incomingPayment, webhookSetup } from '../../support/webhooks.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f();
});

async function receiver(replies: Replies = [], then: Reply = 200) {
  const r = await startReceiver(replies, then);
  cleanups.push(r.close);
  return r;
}

/** Client A's virtual account, its webhooks going to `url`. */
async function accountFor(sandbox: Sandbox, url: string): Promise<string> {
  const { account } = await webhookSetup(sandbox, url, { type: 'permanent', reference: 'order-ref' });
  return account.accountNumber;
}

/** A payment whose delivery carries `narration` (what the receivers here answer by); answers its delivery id. */
async function pay(sandbox: Sandbox, accountNumber: string, narration: string): Promise<string> {
  const res = await incomingPayment(sandbox, { accountNumber, amount: 1000, narration });
  expect(res.status).toBe(201);
  return dataOf(res, paymentReceived).deliveryId;
}

const narrationOf = (got: { body: Record<string, unknown> }) => String(got.body.narration);
const startsOf = (d: { attempts: { at: string }[] }) => d.attempts.map((a) => Date.parse(a.at));

describe('one client, one receiver hanging on one delivery', () => {
  it('does not hold the next delivery: it is answered while the first still hangs', async () => {
    // Far longer than the test takes even on a busy machine: the first must still hang when the second arrives.
    const timeoutMs = 60_000;
    const hook = await receiver((got) => (narrationOf(got) === 'hangs' ? 'hang' : 200));
    const sandbox = await memorySandbox({ webhookTimeout: timeoutMs, webhookAttempts: 1 });
    const accountNumber = await accountFor(sandbox, hook.url);
    const hanging = await pay(sandbox, accountNumber, 'hangs');
    const next = await pay(sandbox, accountNumber, 'next');

    await hook.arrived(2);
    // Each one-at-a-time sender sends the second only once the first timed out; here it still hangs.
    expect(hook.received.map(narrationOf)).toEqual(['hangs', 'next']);
    expect(hook.received[1]?.openAtArrival).toBe(2);
    hook.answer(0, 200);
    await sandbox.drain();

    const [first, second] = [await delivery(sandbox, hanging), await delivery(sandbox, next)];
    expect([first.status, second.status]).toEqual(['delivered', 'delivered']);
    const [t1 = 0] = startsOf(first);
    const [t2 = 0] = startsOf(second);
    expect(t2 - t1).toBeLessThan(timeoutMs);
  });

  it.each([
    ['one at a time', 1],
    ['the default concurrency', undefined],
  ])('%s: retries of another delivery keep their backoff while it hangs', async (_name, concurrency) => {
    let failures = 0;
    // The retried delivery fails three times, then is acknowledged; the other one hangs until answered.
    const hook = await receiver((got) => {
      if (narrationOf(got) === 'hangs') return 'hang';
      failures++;
      return failures <= 3 ? 500 : 200;
    });
    const sandbox = await memorySandbox({
      webhookRetryBase: 100,
      webhookRetryFactor: 2,
      webhookAttempts: 4,
      webhookTimeout: 60_000,
      webhookConcurrency: concurrency,
    });
    const accountNumber = await accountFor(sandbox, hook.url);
    // The retried one first: one at a time, its first attempt is made before the hanging one takes the slot.
    const retried = await pay(sandbox, accountNumber, 'retried');
    await pay(sandbox, accountNumber, 'hangs');

    await hook.arrived(5);
    // Every attempt of the retried delivery was made while the other hung.
    expect(hook.openCount()).toBe(1);
    hook.answer(
      hook.received.findIndex((got) => narrationOf(got) === 'hangs'),
      200,
    );
    await sandbox.drain();

    const d = await delivery(sandbox, retried);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    const starts = startsOf(d);
    const schedule = [100, 200, 400];
    schedule.forEach((wait, i) => {
      // The backoff runs from the end of the failed attempt (durations are rounded: 1 ms of slack below).
      const waited = (starts[i + 1] ?? 0) - (starts[i] ?? 0) - (d.attempts[i]?.durationMs ?? 0);
      // Never early; late by less than the wait itself (the benchmark measures how close: within 10 %).
      expect(waited).toBeGreaterThanOrEqual(wait - 1);
      expect(waited).toBeLessThan(2 * wait);
    });
  });
});

describe('the order a client’s deliveries start in', () => {
  it.each([1, 3])(
    'with --webhook-concurrency %i: first attempts start in payment order, that many at once',
    async (n) => {
      const count = 5;
      // Every request is held until the test answers it.
      const hook = await receiver([], 'hang');
      const sandbox = await memorySandbox({
        webhookTimeout: 60_000,
        webhookAttempts: 1,
        webhookConcurrency: n,
      });
      const accountNumber = await accountFor(sandbox, hook.url);
      const ids: string[] = [];
      for (let i = 1; i <= count; i++) ids.push(await pay(sandbox, accountNumber, String(i)));

      await hook.arrived(n);
      expect(hook.received.map(narrationOf).sort()).toEqual(
        Array.from({ length: n }, (_, i) => String(i + 1)),
      );
      for (let k = n + 1; k <= count; k++) {
        // Answering the oldest request in flight frees a slot: the oldest delivery still waiting takes it.
        hook.answer(k - 1 - n, 200);
        await hook.arrived(k);
        expect(narrationOf(hook.received[k - 1] ?? { body: {} })).toBe(String(k));
      }
      for (let i = count - n; i < count; i++) hook.answer(i, 200);
      await sandbox.drain();

      expect(Math.max(...hook.received.map((got) => got.openAtArrival))).toBe(n);
      for (const id of ids) expect((await delivery(sandbox, id)).status).toBe('delivered');
    },
  );

  it('retries due at one moment start in payment order, so a counting scenario rule hits the same deliveries', async () => {
    // The first two requests are held, so the test picks the order their receivers answer in; later ones pass.
    const hook = await receiver((_got, index) => (index < 2 ? 'hang' : 200));
    const sandbox = await memorySandbox({
      webhookRetryBase: 1000,
      webhookAttempts: 2,
      webhookTimeout: 60_000,
    });
    await sandbox.setScenario({
      name: 'every-second-refused',
      description: 'every second webhook attempt fails as a refused connection',
      rules: [{ on: 'webhook', match: { everyNth: 2 }, effect: { webhook: 'refuse' } }],
    });
    await sandbox.clock.freeze(true);
    const accountNumber = await accountFor(sandbox, hook.url);
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push(await pay(sandbox, accountNumber, String(i)));
    const [d1 = '', d2 = '', d3 = '', d4 = ''] = ids;

    // First attempts in payment order: the rule refuses 2 and 4; 1 and 3 reach the receiver.
    await hook.arrived(2);
    await attemptsRecorded(sandbox, d2, 1);
    await attemptsRecorded(sandbox, d4, 1);
    // Their receivers answer 3 first, then 1: their retries begin waiting in the order 2, 4, 3, 1.
    hook.answer(
      hook.received.findIndex((got) => narrationOf(got) === '3'),
      500,
    );
    await attemptsRecorded(sandbox, d3, 1);
    hook.answer(
      hook.received.findIndex((got) => narrationOf(got) === '1'),
      500,
    );
    await attemptsRecorded(sandbox, d1, 1);

    // All four retries come due at the same moment and start in payment order: the rule refuses 2 and 4 again.
    await sandbox.clock.advance(1000);
    await sandbox.drain();
    const outcome = await Promise.all(
      [d1, d2, d3, d4].map(async (id) => {
        const d = await delivery(sandbox, id);
        return [d.status, d.attempts.map((a) => a.statusCode ?? a.error?.slice(0, 12))];
      }),
    );
    expect(outcome).toEqual([
      ['delivered', [500, 200]],
      ['failed', ['ECONNREFUSED', 'ECONNREFUSED']],
      ['delivered', [500, 200]],
      ['failed', ['ECONNREFUSED', 'ECONNREFUSED']],
    ]);
  });
});
