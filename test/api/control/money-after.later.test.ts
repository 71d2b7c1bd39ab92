import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { delivery as deliverySchema } from '../../../src/contract/control/webhooks.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { answerCheck } from '../../support/contract.js';
import { ledgerOf, references, transferEntry } from '../../support/money.js';
import { startReceiver } from '../../support/receiver.js';
import { call, closedAfterEach, ownerHeaders } from '../../support/sandbox.js';
import { FAST, incomingPayment, webhookSetup } from '../../support/webhooks.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const HOUR = 3_600_000;
const ref = references('later');

const { cleanups, sandboxFor } = closedAfterEach();

const transferBody = (retrievalReference: string) => ({
  amount: 150000,
  receiverAccountNumber: '0123456789',
  receiverBankCode: '058',
  retrievalReference,
  narration: 'Pay',
});

const advance = (sandbox: Sandbox, ms: number) =>
  call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms } });

async function receiverFor() {
  const hook = await startReceiver();
  cleanups.push(() => hook.close());
  return hook;
}

describe('webhooks later', () => {
  it('duplicate with afterMs: the second, identical delivery goes afterMs later, a delivery of its own, matched by no rule', async () => {
    const sandbox = await sandboxFor(FAST);
    const hook = await receiverFor();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const { account } = await webhookSetup(sandbox, hook.url, { type: 'permanent', reference: ref('va') });
    // A rule that would drop every delivery after the first: the late duplicate never meets it.
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: {
        rules: [
          { on: 'webhook', effect: { webhook: 'duplicate', afterMs: HOUR }, times: 1 },
          { on: 'webhook', effect: { webhook: 'drop' } },
        ],
      },
    });
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 500000 });
    expect(paid.status).toBe(201);
    await sandbox.drain();
    expect(hook.received).toHaveLength(1);
    await advance(sandbox, HOUR - 1);
    await sandbox.drain();
    expect(hook.received).toHaveLength(1);
    await advance(sandbox, 1);
    await sandbox.drain();
    await hook.arrived(2);
    const [first, second] = hook.received;
    expect(second?.body).toEqual(first?.body);
    expect(second?.headers['auth-key']).toBe(first?.headers['auth-key']);
    const list = await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries');
    const deliveries = (list.body.data as Record<string, unknown>[]).map((d) => deliverySchema().parse(d));
    expect(deliveries).toHaveLength(2);
    const [late, original] = deliveries;
    expect(late?.duplicateOf).toBe(original?.id);
    expect(late?.id).not.toBe(original?.id);
    expect(late?.status).toBe('delivered');
  });

  it('a late duplicate does not hold a drain, and a reset forgets it', async () => {
    const sandbox = await sandboxFor(FAST);
    const hook = await receiverFor();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const { account } = await webhookSetup(sandbox, hook.url, { type: 'permanent', reference: ref('va2') });
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: [{ on: 'webhook', effect: { webhook: 'duplicate', afterMs: 1000 } }] },
    });
    await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 500000 });
    await sandbox.drain();
    expect(sandbox.store.all('scheduled')).toHaveLength(1);
    await sandbox.reset();
    expect(sandbox.store.all('scheduled')).toHaveLength(0);
    await advance(sandbox, 1000);
    await sandbox.drain();
    expect(hook.received).toHaveLength(1);
  });
});

describe('the reconciliation scenario', () => {
  it('every 5th transfer answers 504 after the commit, every 7th is reversed an hour later, counted per business', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    expect(
      (await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'reconciliation' } })).status,
    ).toBe(200);
    const headers = await ownerHeaders(sandbox);
    const statuses: number[] = [];
    const refs: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const reference = ref(`rec-${i}`);
      refs.push(reference);
      statuses.push(
        (await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 504, 200, 200, 200, 200, 504]);
    // The lost ones were committed: a retry answers Transfer successful, no second debit.
    const before = (await ledgerOf(sandbox)).balance;
    const retry = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(refs[4] ?? '') });
    expect([retry.status, retry.body.message]).toEqual([200, 'Transfer successful']);
    expect((await ledgerOf(sandbox)).balance).toBe(before);
    // A replay was not counted: the 11th new transfer is the 11th, not the 12th.
    expect(
      (await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(ref('rec-11')) })).status,
    ).toBe(200);
    await advance(sandbox, HOUR);
    expect((await transferEntry(sandbox, refs[6] ?? '')).reversedAt).toBeDefined();
    expect((await transferEntry(sandbox, refs[5] ?? '')).reversedAt).toBeUndefined();
    // The 11th transfer's debit, given back by the 7th's reversal.
    expect((await ledgerOf(sandbox)).balance).toBe(before);
    expect((await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'reversal')).toHaveLength(1);
  });

  it('every 3rd incoming-payment webhook of a business comes again an hour later', async () => {
    const sandbox = await sandboxFor(FAST);
    const hook = await receiverFor();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'reconciliation' } });
    const { account } = await webhookSetup(sandbox, hook.url, { type: 'permanent', reference: ref('va3') });
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const paid = await incomingPayment(sandbox, {
        accountNumber: account.accountNumber,
        amount: 100000 + i,
      });
      refs.push((paid.body.data as { transactionReference: string }).transactionReference);
    }
    await sandbox.drain();
    expect(hook.received).toHaveLength(3);
    await advance(sandbox, HOUR);
    await sandbox.drain();
    await hook.arrived(4);
    expect(hook.received[3]?.body.transactionReference).toBe(refs[2]);
  });
});

describe('kept with the state', () => {
  it('a scheduled reversal survives a restart and runs once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reversal-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const data = join(dir, 'db.json');
    const open = () =>
      createSandbox({ data, log: () => undefined }, undefined, { checkAnswers: answerCheck });
    const first = await open();
    await call(first, 'POST', '/__sandbox/clock/freeze', { body: {} });
    await call(first, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: [{ on: 'transfer', effect: { reverse: { afterMs: HOUR } } }] },
    });
    const reference = ref('restart');
    const headers = await ownerHeaders(first);
    expect((await call(first, 'POST', TRANSFER, { headers, body: transferBody(reference) })).status).toBe(
      200,
    );
    await first.close();
    const second = await open();
    cleanups.push(() => second.close());
    expect(second.store.all('scheduled')).toHaveLength(1);
    await advance(second, HOUR);
    expect((await transferEntry(second, reference)).reversedAt).toBeDefined();
    expect(second.store.all('scheduled')).toHaveLength(0);
    await advance(second, HOUR);
    expect((await ledgerOf(second)).transactions.filter((t) => t.kind === 'reversal')).toHaveLength(1);
  });
});
