import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BulkItemView, BulkTransferWithItemsView } from '../../../src/contract/api/bulk.js';
import { accountDetails } from '../../../src/contract/api/business.js';
import { dataOf } from '../../support/answers.js';
import { BULK, keysA1, processBatch, RECEIVER, type Transfer } from '../../support/bulk.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { feeFor, MAGIC, setBalance } from '../../support/money.js';
import { A, call, nextSleepOn, ownerHeaders } from '../../support/sandbox.js';
import {
  AMOUNT,
  balanceOf,
  create,
  drain,
  expectOutage,
  expectTransferFailed,
  expectTransferOk,
  getBatch,
  itemAt,
  OUTAGE,
  pay,
  putScenario,
  send,
  settle,
  TRANSFER,
  transfer,
  useScenario,
  webhookAccount,
} from '../../support/scenario-calls.js';
import { delivery, FAST } from '../../support/webhooks.js';

const ANONYMOUS = '/api/v1/clients/business/customers/funds/anonymous-transfer';
const DETAILS = '/api/v1/clients/business/account-details';
const SCENARIO = '/__sandbox/scenario';

const FLAKY_FAIL = { errorCode: '91', errorMessage: 'Beneficiary Bank not available' };

const FLAKY_CODES: Record<string, string> = {
  '91': 'Beneficiary Bank not available',
  '96': 'System malfunction',
  '97': 'Timeout waiting for response from destination',
  '05': 'Do not honor',
};

const { open, receiver } = closedAfterEachTest();

describe('ready scenario: default', () => {
  it.each(MAGIC)('fails a transfer to %s with %s %s and debits nothing', async (account, code, message) => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const before = await balanceOf(sandbox);
    await expectTransferFailed(await send(sandbox, headers, account), code, message);
    await expectTransferFailed(await send(sandbox, headers, account, {}, ANONYMOUS), code, message);
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('lets transfers to other accounts through, debiting amount plus fee', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const before = await balanceOf(sandbox);
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    expectTransferOk(await send(sandbox, headers, '0000000052'));
    expect(await balanceOf(sandbox)).toBe(before - 2 * (AMOUNT + feeFor(AMOUNT)));
  });

  it('fails bulk items to the magic accounts with their codes, and completes the others', async () => {
    const sandbox = await open();
    const before = await balanceOf(sandbox);
    const items = [transfer(), ...MAGIC.map(([account]) => transfer(account)), transfer('0000000052')];
    const batch = await settle(sandbox, items);
    expect(batch).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 4 });
    expect(itemAt(batch, 0).status).toBe('completed');
    MAGIC.forEach(([, code, message], i) => {
      expect(itemAt(batch, i + 1)).toMatchObject({
        status: 'failed',
        errorCode: code,
        errorMessage: message,
      });
    });
    expect(itemAt(batch, 5).status).toBe('completed');
    expect(await balanceOf(sandbox)).toBe(before - 2 * (AMOUNT + feeFor(AMOUNT)));
  });
});

describe('ready scenario: happy-path', () => {
  it('lets transfers and bulk items to the magic accounts through', async () => {
    const sandbox = await open({ scenario: 'happy-path' });
    const headers = await ownerHeaders(sandbox);
    for (const [account] of MAGIC) {
      expectTransferOk(await send(sandbox, headers, account));
      expectTransferOk(await send(sandbox, headers, account, {}, ANONYMOUS));
    }
    const batch = await settle(
      sandbox,
      MAGIC.map(([account]) => transfer(account)),
    );
    expect(batch).toMatchObject({ status: 'completed', completedItems: 4, failedItems: 0 });
    for (const item of batch.items) expect(item.status).toBe('completed');
  });

  it('still fails a real shortage of balance with 51', async () => {
    const sandbox = await open({ scenario: 'happy-path' });
    const headers = await ownerHeaders(sandbox);
    await setBalance(sandbox, A.a1.id, 0);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '51', 'Insufficient Funds');
  });
});

describe('ready scenario: flaky-bank', () => {
  /** 200 items with references made up afresh, as test code makes them (a uuid each). */
  const freshItems = (n = 200): Transfer[] =>
    Array.from({ length: n }, () =>
      transfer(RECEIVER, { amount: 10_000, retrievalReference: `flaky-${randomUUID()}` }),
    );

  /** Checks the settled items of a flaky-bank batch and answers them by itemIndex. */
  function checked(batch: BulkTransferWithItemsView, length: number): BulkItemView[] {
    expect(batch.items).toHaveLength(length);
    const sorted = [...batch.items].sort((a, b) => a.itemIndex - b.itemIndex);
    for (const item of sorted) {
      if (item.status === 'failed') {
        expect(Object.keys(FLAKY_CODES)).toContain(item.errorCode);
        expect(item.errorMessage).toBe(FLAKY_CODES[item.errorCode]);
      } else {
        expect(item).toMatchObject({ status: 'completed', errorCode: '' });
      }
    }
    return sorted;
  }

  /** Runs `items` on a fresh flaky-bank sandbox and answers the settled items by itemIndex, checked. */
  async function run(items: Transfer[], bulkConcurrency: number): Promise<BulkItemView[]> {
    const sandbox = await open({ scenario: 'flaky-bank', bulkConcurrency });
    return checked(await settle(sandbox, items, keysA1, 'Flaky'), items.length);
  }

  /** `status:errorCode` of each item, by itemIndex. */
  const byIndex = (items: BulkItemView[]) => items.map((i) => `${i.status}:${i.errorCode}`);
  const failures = (outcomes: string[]) => outcomes.filter((o) => o.startsWith('failed:')).length;

  it('fails about one item in ten, with codes only from 91, 96, 97, 05', async () => {
    const outcomes = byIndex(await run(freshItems(), 8));
    const failed = outcomes.filter((r) => r.startsWith('failed:'));
    expect(failed.length).toBeGreaterThanOrEqual(8); // 4% of 200
    expect(failed.length).toBeLessThanOrEqual(36); // 18% of 200
    for (const f of failed) expect(['failed:91', 'failed:96', 'failed:97', 'failed:05']).toContain(f);
    // More than one of the codes shows up in 200 items.
    expect(new Set(failed).size).toBeGreaterThan(1);
  });

  it('two runs of 200 items with fresh references, a reset between them, give the same status sequence', async () => {
    const sandbox = await open({ scenario: 'flaky-bank' });
    const first = byIndex(checked(await settle(sandbox, freshItems(), keysA1, 'Flaky'), 200));
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    const second = byIndex(checked(await settle(sandbox, freshItems(), keysA1, 'Flaky'), 200));
    expect(second).toEqual(first);
    expect(failures(first)).toBeGreaterThan(0);
  });

  it('gives the same status sequence at bulk concurrency 1 and 16 (and 8), fresh references each run', async () => {
    const serial = byIndex(await run(freshItems(), 1));
    const wide = byIndex(await run(freshItems(), 16));
    const usual = byIndex(await run(freshItems(), 8));
    expect(wide).toEqual(serial);
    expect(usual).toEqual(serial);
    expect(failures(serial)).toBeGreaterThan(0);
  });

  it('counts batches per business from when the scenario was chosen: a second batch draws afresh, setting the scenario again starts over', async () => {
    const sandbox = await open({ scenario: 'flaky-bank' });
    const first = byIndex(checked(await settle(sandbox, freshItems(), keysA1, 'Flaky'), 200));
    const next = byIndex(checked(await settle(sandbox, freshItems(), keysA1, 'Flaky'), 200));
    expect(next).not.toEqual(first);
    expect((await putScenario(sandbox, { name: 'flaky-bank' })).status).toBe(200);
    const again = byIndex(checked(await settle(sandbox, freshItems(), keysA1, 'Flaky'), 200));
    expect(again).toEqual(first);
  });

  it('draws on the position, not the reference: the same batch reversed fails the same positions', async () => {
    const items = freshItems();
    const forward = byIndex(await run(items, 8));
    const reversed = byIndex(await run([...items].reverse(), 8));
    expect(reversed).toEqual(forward);
  });

  it('single transfers: two runs with fresh references, a reset between them, fail the same positions', async () => {
    const sandbox = await open({ scenario: 'flaky-bank' });
    const runOnce = async () => {
      const headers = await ownerHeaders(sandbox);
      const outcomes: string[] = [];
      for (let i = 0; i < 100; i++) {
        const res = await call(sandbox, 'POST', TRANSFER, {
          headers,
          body: { ...transfer(RECEIVER, { retrievalReference: randomUUID() }) },
        });
        outcomes.push(`${res.status}:${String(res.body.message)}`);
      }
      return outcomes;
    };
    const first = await runOnce();
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(await runOnce()).toEqual(first);
    expect(first.some((o) => o.startsWith('400:'))).toBe(true);
  });
});

describe('drawBy: "reference", the opt-in for draws that follow the client\'s reference', () => {
  it('gives each reference the same outcome whatever its position: the batch reversed', async () => {
    const items = Array.from({ length: 100 }, (_, i) =>
      transfer(RECEIVER, { retrievalReference: `by-ref-${i}` }),
    );
    const outcomes = async (list: Transfer[]) => {
      const sandbox = await open();
      await useScenario(sandbox, [
        { on: 'bulk.item', match: { probability: 0.3, drawBy: 'reference' }, effect: { fail: FLAKY_FAIL } },
      ]);
      const batch = await settle(sandbox, list);
      return Object.fromEntries(batch.items.map((i) => [i.retrievalReference, i.status]));
    };
    const forward = await outcomes(items);
    expect(await outcomes([...items].reverse())).toEqual(forward);
    expect(Object.values(forward)).toContain('failed');
    expect(Object.values(forward)).toContain('completed');
  });
});

describe('http and webhook rules with a probability reproduce with fresh ids', () => {
  it('http: the same sequence of requests gets the same answers, whatever x-request-id each carries', async () => {
    const sandbox = await open();
    const runOnce = async () => {
      await useScenario(sandbox, [
        {
          on: 'http',
          match: { method: 'GET', path: '^/api/v1/clients/business/account-details$', probability: 0.5 },
          effect: { http: { status: 503, message: OUTAGE } },
        },
      ]);
      const headers = await ownerHeaders(sandbox);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await call(sandbox, 'GET', DETAILS, {
          headers: { ...headers, 'x-request-id': randomUUID() },
        });
        statuses.push(res.status);
      }
      return statuses;
    };
    const first = await runOnce();
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(await runOnce()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 503]));
  });

  it('webhook: the same payments get the same attempts, whatever their transaction references', async () => {
    const hook = await receiver();
    const sandbox = await open({ ...FAST, webhookAttempts: 3 });
    const runOnce = async () => {
      const account = await webhookAccount(sandbox, hook.url);
      await useScenario(sandbox, [
        { on: 'webhook', match: { probability: 0.5 }, effect: { webhook: 'refuse' } },
      ]);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await pay(sandbox, account));
      await sandbox.drain();
      const attempts: string[] = [];
      const references: string[] = [];
      for (const id of ids) {
        const d = await delivery(sandbox, id);
        attempts.push(d.attempts.map((a) => a.statusCode ?? 'refused').join(','));
        references.push(d.transactionReference);
      }
      return { attempts, references };
    };
    const first = await runOnce();
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    const second = await runOnce();
    // The references are new after the reset; the attempts are the same.
    expect(second.references).not.toEqual(first.references);
    expect(second.attempts).toEqual(first.attempts);
    expect(first.attempts.some((a) => a.includes('refused'))).toBe(true);
    expect(first.attempts.some((a) => a.endsWith('200'))).toBe(true);
  });
});

describe('ready scenario: insufficient-funds-midway', () => {
  it('completes items 0–4, fails 5–7 with 51 and debits only the five', async () => {
    const sandbox = await open({ scenario: 'insufficient-funds-midway' });
    const before = await balanceOf(sandbox);
    const batch = await settle(
      sandbox,
      Array.from({ length: 8 }, () => transfer()),
    );
    expect(batch).toMatchObject({
      status: 'partially_completed',
      totalItems: 8,
      completedItems: 5,
      failedItems: 3,
    });
    for (let i = 0; i < 5; i++)
      expect(itemAt(batch, i)).toMatchObject({ status: 'completed', errorCode: '' });
    for (let i = 5; i < 8; i++) {
      expect(itemAt(batch, i)).toMatchObject({
        status: 'failed',
        errorCode: '51',
        errorMessage: 'Insufficient Funds',
      });
    }
    expect(await balanceOf(sandbox)).toBe(before - 5 * (AMOUNT + feeFor(AMOUNT)));
  });

  it('keeps the magic accounts of default for single transfers', async () => {
    const sandbox = await open({ scenario: 'insufficient-funds-midway' });
    const headers = await ownerHeaders(sandbox);
    await expectTransferFailed(await send(sandbox, headers, '0000000007'), '07', 'Invalid Account');
    expectTransferOk(await send(sandbox, headers, RECEIVER));
  });
});

// The delays are on the sandbox's clock: the tests freeze it and move it, instead of waiting 500 and 300 ms.
describe('ready scenario: slow-processing', () => {
  it('keeps bulk items processing with no configured item delay, until they complete', async () => {
    const sandbox = await open({ scenario: 'slow-processing', bulkItemDelay: 0 });
    await sandbox.clock.freeze(true);
    const batch = await create(sandbox, [transfer(), transfer()]);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const running = await getBatch(sandbox, batch.id);
    expect(running.status).toBe('processing');
    expect(running.items.map((i) => i.status)).toEqual(['processing', 'processing']);
    // An advance first lets the items reach their delay, so 499 ms leaves both processing; 1 ms more ends them.
    await sandbox.clock.advance(499);
    expect((await getBatch(sandbox, batch.id)).items.map((i) => i.status)).toEqual([
      'processing',
      'processing',
    ]);
    await sandbox.clock.advance(1);
    expect((await drain(sandbox)).status).toBe(200);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'completed', completedItems: 2, failedItems: 0 });
  });

  it('takes at least 300 ms to answer a single transfer', async () => {
    const sandbox = await open({ scenario: 'slow-processing' });
    const headers = await ownerHeaders(sandbox);
    await sandbox.clock.freeze(true);
    // A request is no clock task that an advance waits for: wait until it sleeps on the clock, then move it.
    const clock = sandbox.clock;
    const asleep = nextSleepOn(clock);
    let answered = false;
    const pending = send(sandbox, headers, RECEIVER).finally(() => {
      answered = true;
    });
    expect(await asleep).toBe(300);
    await clock.advance(299);
    expect(answered).toBe(false);
    await clock.advance(1);
    expectTransferOk(await pending);
  });
});

describe('ready scenario: webhook-receiver-down', () => {
  it('refuses every attempt: the delivery fails after 3 ECONNREFUSED attempts, the receiver got nothing', async () => {
    const hook = await receiver();
    const sandbox = await open({ ...FAST, scenario: 'webhook-receiver-down', webhookAttempts: 3 });
    const account = await webhookAccount(sandbox, hook.url);
    const id = await pay(sandbox, account);
    await sandbox.drain();
    const d = await delivery(sandbox, id);
    expect(d.status).toBe('failed');
    expect(d.attempts).toHaveLength(3);
    for (const attempt of d.attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
    expect(hook.received).toEqual([]);
  });
});

describe('ready scenario: provider-outage', () => {
  it('answers 503 on transfer, anonymous transfer and bulk process; account details still work; no money moves', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const batch = await create(sandbox, [transfer(), transfer()]);
    expect((await putScenario(sandbox, { name: 'provider-outage' })).status).toBe(200);
    const before = await balanceOf(sandbox);

    expectOutage(await send(sandbox, headers, RECEIVER));
    expectOutage(await send(sandbox, headers, RECEIVER, {}, ANONYMOUS));
    expectOutage(await processBatch(sandbox, batch.id));
    expectOutage(
      await call(sandbox, 'POST', BULK, {
        headers: keysA1,
        body: { batchName: 'Down', transfers: [transfer()] },
      }),
    );
    const details = await call(sandbox, 'GET', DETAILS, { headers });
    expect(details.status).toBe(200);
    expect(Number(dataOf(details, accountDetails).accountBalance)).toBe(before);

    expect((await drain(sandbox)).status).toBe(200);
    expect(await balanceOf(sandbox)).toBe(before);
    // Back to the start-up scenario: the batch was never processed.
    expect((await call(sandbox, 'DELETE', SCENARIO)).status).toBe(200);
    const after = await getBatch(sandbox, batch.id);
    expect(after.status).toBe('pending');
    expect(after.items.map((i) => i.status)).toEqual(['pending', 'pending']);
  });

  it('answers 503 from start-up too', async () => {
    const sandbox = await open({ scenario: 'provider-outage' });
    const headers = await ownerHeaders(sandbox);
    expectOutage(await send(sandbox, headers, RECEIVER));
    expect((await call(sandbox, 'GET', DETAILS, { headers })).status).toBe(200);
  });
});

describe('ready scenario: duplicate-webhooks', () => {
  it('sends each notification twice with the same body; the delivery is delivered', async () => {
    const hook = await receiver();
    const sandbox = await open({ ...FAST, scenario: 'duplicate-webhooks' });
    const account = await webhookAccount(sandbox, hook.url);
    const id = await pay(sandbox, account);
    await sandbox.drain();
    expect(hook.received).toHaveLength(2);
    const [first, second] = hook.received;
    expect(second?.body).toEqual(first?.body);
    expect(first?.body.recipientAccountNumber).toBe(account);
    const d = await delivery(sandbox, id);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([200, 200]);
  });
});
