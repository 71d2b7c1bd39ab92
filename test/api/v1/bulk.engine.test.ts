import { beforeAll, describe, expect, it } from 'vitest';
import type { BulkItemView, BulkTransferWithItemsView } from '../../../src/contract/api/bulk.js';
import { stateExport } from '../../../src/contract/control/state.js';
import { fixture } from '../../../src/contract/examples.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { bodyOf } from '../../support/answers.js';
import {
  ALREADY_COMPLETED,
  ALREADY_PROCESSING,
  BULK,
  bulkDebits,
  bulkHelpers,
  costOf,
  drain,
  expectCountersMatch,
  keysA1,
  keysA2,
  processBatch,
  QUEUED,
  REPROCESS,
  type Transfer,
} from '../../support/bulk.js';
import { feeFor, ledgerOf, MAGIC, setBalance } from '../../support/money.js';
import { A, call, useSandbox } from '../../support/sandbox.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NIP_SESSION_ID = /^090999\d{24}$/;
const UNKNOWN_ID = '7d3f1c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c';

const bulk = bulkHelpers({
  label: 'engine',
  narration: 'Vendor payment',
  batchName: 'Engine',
});
const { transfer, transfers, create, getBatch, settleBatch } = bulk;

function magic(account: string, overrides: Partial<Transfer> = {}): Transfer {
  return transfer({ receiverAccountNumber: account, ...overrides });
}

function reprocess(sandbox: Sandbox, body: Record<string, unknown>, headers = keysA1) {
  return call(sandbox, 'POST', REPROCESS, { headers, body });
}

/** Creates a batch and answers it settled (`bulk.settle`); its counters must match its items. */
async function settle(sandbox: Sandbox, items: Transfer[]): Promise<BulkTransferWithItemsView> {
  const done = await bulk.settle(sandbox, items);
  expectCountersMatch(done);
  return done;
}

function expectCompleted(item: BulkItemView | undefined, since: number): void {
  expect(item).toMatchObject({ status: 'completed', errorMessage: '', errorCode: '' });
  expect(item?.providerReference).toMatch(NIP_SESSION_ID);
  expect(item?.processedAt).toMatch(ISO);
  expect(Date.parse(item?.processedAt ?? '')).toBeGreaterThanOrEqual(since - 1000);
}

function expectFailed(item: BulkItemView | undefined, errorCode: string, errorMessage: string): void {
  expect(item).toMatchObject({ status: 'failed', errorCode, errorMessage, providerReference: '' });
  expect(item?.processedAt).toMatch(ISO);
}

function itemAt(batch: BulkTransferWithItemsView, index: number): BulkItemView {
  const item = batch.items[index];
  if (!item) throw new Error(`batch ${batch.id} has no item ${index}`);
  return item;
}

describe('bulk engine: item outcomes', () => {
  const sandbox = useSandbox();

  it.each(MAGIC)(
    'fails an item to %s with errorCode %s, %s, and debits it nothing',
    async (account, code, message) => {
      const before = await ledgerOf(sandbox);
      const items = [transfer(), magic(account)];
      const batch = await settle(sandbox, items);
      expect(batch).toMatchObject({
        status: 'partially_completed',
        completedItems: 1,
        failedItems: 1,
        failureReason: null,
      });
      expectFailed(itemAt(batch, 1), code, message);
      const ledger = await ledgerOf(sandbox);
      expect(ledger.balance).toBe(before.balance - costOf([transfer()]));
      expect(bulkDebits(ledger, items).map((t) => t.retrievalReference)).toEqual([
        items[0]?.retrievalReference,
      ]);
    },
  );

  it('settles a mixed batch of 2 good and 2 magic items as partially_completed, 2 and 2', async () => {
    const started = Date.now();
    const before = await ledgerOf(sandbox);
    const items = [
      transfer({ amount: 150000 }),
      magic('0000000051'),
      transfer({ amount: 700000 }),
      magic('0000000096'),
    ];
    const batch = await settle(sandbox, items);
    expect(batch).toMatchObject({
      status: 'partially_completed',
      totalItems: 4,
      completedItems: 2,
      failedItems: 2,
      failureReason: null,
    });
    expectCompleted(itemAt(batch, 0), started);
    expectFailed(itemAt(batch, 1), '51', 'Insufficient Funds');
    expectCompleted(itemAt(batch, 2), started);
    expectFailed(itemAt(batch, 3), '96', 'System malfunction');
    expect(itemAt(batch, 0).providerReference).not.toBe(itemAt(batch, 2).providerReference);
    const ledger = await ledgerOf(sandbox);
    const good = [items[0], items[2]].flatMap((t) => (t ? [t] : []));
    expect(ledger.balance).toBe(before.balance - costOf(good));
    expect(costOf(good)).toBe(150000 + 1075 + 700000 + 2688);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    const debits = bulkDebits(ledger, items);
    expect(debits.map((d) => d.retrievalReference).sort()).toEqual(
      good.map((t) => t.retrievalReference).sort(),
    );
    for (const d of debits) {
      const sent = good.find((t) => t.retrievalReference === d.retrievalReference);
      expect({ amount: d.amount, charge: d.charge }).toEqual({
        amount: sent?.amount,
        charge: feeFor(Number(sent?.amount ?? 0)),
      });
    }
  });

  it('settles a batch of only magic accounts as failed, with failureReason still null', async () => {
    const before = await ledgerOf(sandbox);
    const batch = await settle(
      sandbox,
      MAGIC.map(([account]) => magic(account)),
    );
    expect(batch).toMatchObject({
      status: 'failed',
      completedItems: 0,
      failedItems: 4,
      failureReason: null,
    });
    MAGIC.forEach(([, code, message], i) => {
      expectFailed(itemAt(batch, i), code, message);
    });
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(before.balance);
    expect(ledger.transactions).toHaveLength(before.transactions.length);
  });

  it('completes items with a 30-digit NIP session id from 090999, processedAt, no error, same reference', async () => {
    const started = Date.now();
    const created = await create(sandbox, transfers(3));
    const batch = await settleBatch(sandbox, created.id);
    expect(batch).toMatchObject({
      status: 'completed',
      completedItems: 3,
      failedItems: 0,
      failureReason: null,
    });
    batch.items.forEach((item, i) => {
      expectCompleted(item, started);
      expect(item.transactionReference).toBe(itemAt(created, i).transactionReference);
      expect(item.reprocessCount).toBe(0);
      expect(item).not.toHaveProperty('originalTransactionReference');
    });
    expect(new Set(batch.items.map((i) => i.providerReference)).size).toBe(3);
  });

  it('keeps the submission order by itemIndex after processing', async () => {
    const items = [
      transfer({ amount: 900 }),
      magic('0000000007', { amount: 800 }),
      transfer({ amount: 700 }),
      magic('0000000091', { amount: 600 }),
      transfer({ amount: 500 }),
      transfer({ amount: 400 }),
      magic('0000000051', { amount: 300 }),
      transfer({ amount: 200 }),
    ];
    const batch = await settle(sandbox, items);
    expect(batch.items.map((i) => i.itemIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(batch.items.map((i) => i.retrievalReference)).toEqual(items.map((t) => t.retrievalReference));
    expect(batch.items.map((i) => i.amount)).toEqual(items.map((t) => String(t.amount)));
    expect(batch.items.map((i) => i.status)).toEqual([
      'completed',
      'failed',
      'completed',
      'failed',
      'completed',
      'completed',
      'failed',
      'completed',
    ]);
    expect(batch).toMatchObject({ status: 'partially_completed', completedItems: 5, failedItems: 3 });
  });

  it('fails the items the balance no longer covers when it runs out mid-batch, never going below 0', async () => {
    // Six items of 2000 kobo (fee 1075 each): the claim sees 12000 ≤ 12000, but only three fit with their fees.
    const items = transfers(6, { amount: 2000 });
    await setBalance(sandbox, A.a1.id, 12000);
    const started = Date.now();
    const batch = await settle(sandbox, items);
    expect(batch).toMatchObject({
      status: 'partially_completed',
      completedItems: 3,
      failedItems: 3,
      failureReason: null,
    });
    for (const i of [0, 1, 2]) expectCompleted(itemAt(batch, i), started);
    for (const i of [3, 4, 5]) expectFailed(itemAt(batch, i), '51', 'Insufficient Funds');
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(12000 - 3 * 3075);
    expect(ledger.balance).toBeGreaterThanOrEqual(0);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(bulkDebits(ledger, items)).toHaveLength(3);
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });

  it('fails an item on amount + fee - 1 kobo, and completes one on exactly amount + fee, leaving 0', async () => {
    await setBalance(sandbox, A.a1.id, 5000 + 1075 - 1);
    const short = await settle(sandbox, [transfer({ amount: 5000 })]);
    expect(short).toMatchObject({ status: 'failed', completedItems: 0, failedItems: 1, failureReason: null });
    expectFailed(itemAt(short, 0), '51', 'Insufficient Funds');
    expect((await ledgerOf(sandbox)).balance).toBe(5000 + 1075 - 1);

    await setBalance(sandbox, A.a1.id, 5000 + 1075);
    const exact = await settle(sandbox, [transfer({ amount: 5000 })]);
    expect(exact).toMatchObject({ status: 'completed', completedItems: 1, failedItems: 0 });
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(0);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });
});

describe('bulk engine: reprocess', () => {
  const sandbox = useSandbox();

  it('puts every failed item back with a new reference and the first kept; magic items fail again', async () => {
    const items = [transfer(), magic('0000000051'), transfer(), magic('0000000007')];
    const first = await settle(sandbox, items);
    expect(first).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 2 });
    const before = await ledgerOf(sandbox);

    const res = await reprocess(sandbox, { bulkTransferId: first.id });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    expect(res.body.data).toEqual({ bulkTransferId: first.id, jobId: expect.any(String) });
    await drain(sandbox);

    const after = await getBatch(sandbox, first.id);
    expectCountersMatch(after);
    expect(after).toMatchObject({
      status: 'partially_completed',
      completedItems: 2,
      failedItems: 2,
      failureReason: null,
    });
    // The completed items are exactly as they were.
    expect(itemAt(after, 0)).toEqual(itemAt(first, 0));
    expect(itemAt(after, 2)).toEqual(itemAt(first, 2));
    for (const [i, code, message] of [
      [1, '51', 'Insufficient Funds'],
      [3, '07', 'Invalid Account'],
    ] as const) {
      const was = itemAt(first, i);
      const now = itemAt(after, i);
      expect(now.reprocessCount).toBe(1);
      expect(now.originalTransactionReference).toBe(was.transactionReference);
      expect(now.transactionReference).toMatch(/\S/);
      expect(now.transactionReference).not.toBe(was.transactionReference);
      expect(now.id).toBe(was.id);
      expectFailed(now, code, message);
    }
    expect(new Set(after.items.map((i) => i.transactionReference)).size).toBe(4);
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(before.balance);
    expect(ledger.transactions).toHaveLength(before.transactions.length);
  });

  it('keeps the very first reference through a second reprocess, with reprocessCount 2', async () => {
    const first = await settle(sandbox, [transfer(), magic('0000000091')]);
    const original = itemAt(first, 1).transactionReference;
    expect((await reprocess(sandbox, { bulkTransferId: first.id })).status).toBe(202);
    await drain(sandbox);
    const once = itemAt(await getBatch(sandbox, first.id), 1);
    expect(once).toMatchObject({ reprocessCount: 1, originalTransactionReference: original });

    expect((await reprocess(sandbox, { bulkTransferId: first.id })).status).toBe(202);
    await drain(sandbox);
    const twice = await getBatch(sandbox, first.id);
    expectCountersMatch(twice);
    const item = itemAt(twice, 1);
    expect(item).toMatchObject({ reprocessCount: 2, originalTransactionReference: original });
    expect(item.transactionReference).not.toBe(original);
    expect(item.transactionReference).not.toBe(once.transactionReference);
    expectFailed(item, '91', 'Beneficiary Bank not available');
    expect(itemAt(twice, 0)).toEqual(itemAt(first, 0));
  });

  it('reprocesses one item by itemId and leaves the others as they are', async () => {
    const first = await settle(sandbox, [magic('0000000051'), magic('0000000007'), transfer()]);
    expect(first).toMatchObject({ status: 'partially_completed', completedItems: 1, failedItems: 2 });
    const target = itemAt(first, 0);
    const res = await reprocess(sandbox, { bulkTransferId: first.id, itemId: target.id });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    expect(res.body.data).toEqual({ bulkTransferId: first.id, jobId: expect.any(String) });
    await drain(sandbox);
    const after = await getBatch(sandbox, first.id);
    expectCountersMatch(after);
    expect(itemAt(after, 0)).toMatchObject({
      reprocessCount: 1,
      originalTransactionReference: target.transactionReference,
    });
    expect(itemAt(after, 0).transactionReference).not.toBe(target.transactionReference);
    expectFailed(itemAt(after, 0), '51', 'Insufficient Funds');
    expect(itemAt(after, 1)).toEqual(itemAt(first, 1));
    expect(itemAt(after, 1)).not.toHaveProperty('originalTransactionReference');
    expect(itemAt(after, 2)).toEqual(itemAt(first, 2));
  });

  it('answers 400 to an itemId of a completed item and 404 to an unknown itemId, changing nothing', async () => {
    const first = await settle(sandbox, [magic('0000000051'), transfer()]);
    const completed = await reprocess(sandbox, { bulkTransferId: first.id, itemId: itemAt(first, 1).id });
    expect(completed.status).toBe(400);
    expect(completed.body).toMatchObject({ status: false, data: null });
    const unknown = await reprocess(sandbox, { bulkTransferId: first.id, itemId: UNKNOWN_ID });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, data: null });
    await drain(sandbox);
    expect(await getBatch(sandbox, first.id)).toEqual(first);
  });

  it("answers 404 to an itemId of another batch's item", async () => {
    const one = await settle(sandbox, [magic('0000000051'), transfer()]);
    const other = await settle(sandbox, [magic('0000000007'), transfer()]);
    const res = await reprocess(sandbox, { bulkTransferId: one.id, itemId: itemAt(other, 0).id });
    expect(res.status).toBe(404);
    await drain(sandbox);
    expect(await getBatch(sandbox, one.id)).toEqual(one);
    expect(await getBatch(sandbox, other.id)).toEqual(other);
  });

  it('answers 400 to a batch with no failed items', async () => {
    const pending = await create(sandbox, transfers(2));
    const res = await reprocess(sandbox, { bulkTransferId: pending.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    await drain(sandbox);
    expect(await getBatch(sandbox, pending.id)).toEqual(pending);
  });

  it('answers 400 Bulk transfer is already completed to a completed batch', async () => {
    const done = await settle(sandbox, transfers(2));
    expect(done.status).toBe('completed');
    for (const body of [
      { bulkTransferId: done.id },
      { bulkTransferId: done.id, itemId: itemAt(done, 0).id },
    ]) {
      const res = await reprocess(sandbox, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: ALREADY_COMPLETED, data: null });
    }
    await drain(sandbox);
    expect(await getBatch(sandbox, done.id)).toEqual(done);
  });

  it.each([
    ['bulkTransferId missing', {}],
    ['a non-UUID bulkTransferId', { bulkTransferId: 'nope' }],
  ])('answers 400 to %s', async (_label, body) => {
    const res = await reprocess(sandbox, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'bulkTransferId' })]),
    );
  });

  it("answers 404 to an unknown batch and to another business's batch", async () => {
    const unknown = await reprocess(sandbox, { bulkTransferId: UNKNOWN_ID });
    expect(unknown.status).toBe(404);
    const ofA1 = await settle(sandbox, [magic('0000000051')]);
    const other = await reprocess(sandbox, { bulkTransferId: ofA1.id }, keysA2);
    expect(other.status).toBe(404);
    await drain(sandbox);
    expect(await getBatch(sandbox, ofA1.id)).toEqual(ofA1);
  });

  it('completes an item that failed on the balance once the balance is topped up', async () => {
    // Two items of 2000: the claim sees 4000 ≤ 4000, the first takes 3075, the second finds 925.
    const items = transfers(2, { amount: 2000 });
    await setBalance(sandbox, A.a1.id, 4000);
    const first = await settle(sandbox, items);
    expect(first).toMatchObject({ status: 'partially_completed', completedItems: 1, failedItems: 1 });
    expectFailed(itemAt(first, 1), '51', 'Insufficient Funds');
    expect((await ledgerOf(sandbox)).balance).toBe(925);

    await setBalance(sandbox, A.a1.id, 100000);
    const started = Date.now();
    const res = await reprocess(sandbox, { bulkTransferId: first.id });
    expect(res.status).toBe(202);
    await drain(sandbox);
    const after = await getBatch(sandbox, first.id);
    expectCountersMatch(after);
    expect(after).toMatchObject({
      status: 'completed',
      completedItems: 2,
      failedItems: 0,
      failureReason: null,
    });
    const item = itemAt(after, 1);
    expectCompleted(item, started);
    expect(item).toMatchObject({
      reprocessCount: 1,
      originalTransactionReference: itemAt(first, 1).transactionReference,
    });
    expect(itemAt(after, 0)).toEqual(itemAt(first, 0));
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(100000 - 3075);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(bulkDebits(ledger, items)).toHaveLength(2);

    const again = await reprocess(sandbox, { bulkTransferId: first.id });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: ALREADY_COMPLETED });
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });
});

/** The whole exported state, as text: what "changes nothing" is checked against. */
async function exported(sandbox: Sandbox): Promise<string> {
  const res = await sandbox.app.request('/__sandbox/state');
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * A refused call: the state before and after is the same text, and the same call again answers the same. The
 * clock is frozen so that nothing but the call could move the export.
 */
async function expectRefusedTwice(
  sandbox: Sandbox,
  send: () => ReturnType<typeof reprocess>,
  status: number,
  message: string,
): Promise<void> {
  await drain(sandbox);
  const before = await exported(sandbox);
  const first = await send();
  expect(first.status, JSON.stringify(first.body)).toBe(status);
  expect(first.body).toEqual({ status: false, message, data: null });
  await drain(sandbox);
  expect(await exported(sandbox)).toBe(before);
  const second = await send();
  expect({ status: second.status, body: second.body }).toEqual({ status: first.status, body: first.body });
  expect(await exported(sandbox)).toBe(before);
}

/**
 * A batch-level reprocess refused after the claim: 400 with `message`, the batch `failed` with that
 * `failureReason` and every item exactly as it was; the same call again answers the same and changes nothing more.
 */
async function expectBatchFailedTwice(
  sandbox: Sandbox,
  send: () => ReturnType<typeof reprocess>,
  before: BulkTransferWithItemsView,
  message: string,
): Promise<void> {
  const first = await send();
  expect(first.status, JSON.stringify(first.body)).toBe(400);
  expect(first.body).toEqual({ status: false, message, data: null });
  await drain(sandbox);
  const after = await getBatch(sandbox, before.id);
  expect(after).toEqual({ ...before, status: 'failed', failureReason: message });
  const state = await exported(sandbox);
  const second = await send();
  expect({ status: second.status, body: second.body }).toEqual({ status: first.status, body: first.body });
  expect(await exported(sandbox)).toBe(state);
}

describe('bulk engine: a refused reprocess', () => {
  const sandbox = useSandbox();
  beforeAll(async () => {
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
  });

  it('on Insufficient Funds: one item’s changes nothing; the batch’s leaves it failed with the reason, no item moved', async () => {
    const items = transfers(2, { amount: 2000 });
    await setBalance(sandbox, A.a1.id, 4000);
    const first = await settle(sandbox, items);
    expect(first).toMatchObject({ status: 'partially_completed', failedItems: 1, failureReason: null });
    await expectRefusedTwice(
      sandbox,
      () => reprocess(sandbox, { bulkTransferId: first.id, itemId: itemAt(first, 1).id }),
      400,
      'Insufficient Funds',
    );
    expect(await getBatch(sandbox, first.id)).toEqual(first);
    // The spec: a batch-level reprocess refused for insufficient funds leaves `failureReason` set.
    await expectBatchFailedTwice(
      sandbox,
      () => reprocess(sandbox, { bulkTransferId: first.id }),
      first,
      'Insufficient Funds',
    );
    // The same through the control API, on the batch as it now is.
    await expectBatchFailedTwice(
      sandbox,
      () => call(sandbox, 'POST', `/__sandbox/bulk-transfers/${first.id}/reprocess`, { body: {} }),
      first,
      'Insufficient Funds',
    );
    // With the money back, the failed batch is reprocessed: its reason cleared, the failed item retried.
    await setBalance(sandbox, A.a1.id, 500_000_000);
    expect((await reprocess(sandbox, { bulkTransferId: first.id })).status).toBe(202);
    await drain(sandbox);
    expect(await getBatch(sandbox, first.id)).toMatchObject({
      status: 'completed',
      completedItems: 2,
      failedItems: 0,
      failureReason: null,
    });
  });

  it('without a payment account: the batch failed with the reason, the failed items stay failed', async () => {
    const first = await settle(sandbox, [transfer(), magic('0000000096')]);
    expect(first).toMatchObject({ status: 'partially_completed', failedItems: 1 });
    const business = sandbox.store.get('businesses', A.a1.id);
    if (!business) throw new Error('fixtures: no A1');
    await sandbox.store.mutate((tx) => tx.put('businesses', { ...business, account: null }));
    try {
      await expectRefusedTwice(
        sandbox,
        () => reprocess(sandbox, { bulkTransferId: first.id, itemId: itemAt(first, 1).id }),
        400,
        'No payment account for this business',
      );
      await expectBatchFailedTwice(
        sandbox,
        () => reprocess(sandbox, { bulkTransferId: first.id }),
        first,
        'No payment account for this business',
      );
    } finally {
      await sandbox.store.mutate((tx) => tx.put('businesses', business));
    }
  });

  it('for an itemId that is not failed, an unknown itemId, or a batch with nothing failed', async () => {
    const first = await settle(sandbox, [transfer(), magic('0000000096')]);
    const done = itemAt(first, 0);
    await expectRefusedTwice(
      sandbox,
      () => reprocess(sandbox, { bulkTransferId: first.id, itemId: done.id }),
      400,
      'Only failed items can be reprocessed; this one is completed',
    );
    await expectRefusedTwice(
      sandbox,
      () => reprocess(sandbox, { bulkTransferId: first.id, itemId: UNKNOWN_ID }),
      404,
      'Bulk transfer item not found',
    );
    const refused = await create(sandbox, transfers(1), keysA2);
    expect((await processBatch(sandbox, refused.id, keysA2)).status).toBe(400);
    await expectRefusedTwice(
      sandbox,
      () => reprocess(sandbox, { bulkTransferId: refused.id }, keysA2),
      400,
      'There are no failed items to reprocess',
    );
    expect(await getBatch(sandbox, first.id)).toEqual(first);
  });
});

describe('bulk engine: reprocess while items are open', () => {
  const sandbox = useSandbox({ bulkItemDelay: 50 });

  it.each([
    ['partially_completed', [transfer(), magic('0000000096')], 1, 1],
    ['failed', [magic('0000000096'), magic('0000000051')], 0, 2],
  ] as const)(
    'answers 202 to process on a %s batch with nothing pending, and the batch is at its final status at once',
    async (status, items, completedItems, failedItems) => {
      const done = await settle(sandbox, [...items]);
      expect(done).toMatchObject({ status, completedItems, failedItems, failureReason: null });
      const res = await processBatch(sandbox, done.id);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: true, message: QUEUED });
      expect(res.body.data).toEqual({ bulkTransferId: done.id, jobId: expect.any(String) });
      // No drain: the answer itself left the batch settled, and nothing was queued.
      expect(await getBatch(sandbox, done.id)).toEqual(done);
      const drained = await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=1');
      expect(drained.status).toBe(200);
      expect(await getBatch(sandbox, done.id)).toEqual(done);
    },
  );

  it('shows the reset item at once, and answers 200 already being processed to further calls', async () => {
    const items = [transfer(), magic('0000000096')];
    const first = await settle(sandbox, items);
    expect(first).toMatchObject({ status: 'partially_completed', completedItems: 1, failedItems: 1 });
    const was = itemAt(first, 1);

    const res = await reprocess(sandbox, { bulkTransferId: first.id });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ bulkTransferId: first.id, jobId: expect.any(String) });
    const running = await getBatch(sandbox, first.id);
    expect(running).toMatchObject({ status: 'processing', completedItems: 1, failedItems: 0 });
    expectCountersMatch(running);
    const item = itemAt(running, 1);
    expect(['pending', 'processing']).toContain(item.status);
    expect(item).toMatchObject({
      errorMessage: '',
      errorCode: '',
      providerReference: '',
      processedAt: null,
      reprocessCount: 1,
      originalTransactionReference: was.transactionReference,
    });
    expect(item.transactionReference).not.toBe(was.transactionReference);

    for (const attempt of [
      () => reprocess(sandbox, { bulkTransferId: first.id }),
      () => reprocess(sandbox, { bulkTransferId: first.id, itemId: was.id }),
      () => processBatch(sandbox, first.id),
    ]) {
      const again = await attempt();
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: true, message: ALREADY_PROCESSING });
      expect(again.body.data).toEqual({ bulkTransferId: first.id });
    }

    await drain(sandbox);
    const after = await getBatch(sandbox, first.id);
    expectCountersMatch(after);
    expect(after).toMatchObject({ status: 'partially_completed', completedItems: 1, failedItems: 1 });
    expect(itemAt(after, 1)).toMatchObject({
      reprocessCount: 1,
      originalTransactionReference: was.transactionReference,
    });
    expectFailed(itemAt(after, 1), '96', 'System malfunction');
  });
});

describe('drain and reset', () => {
  const sandbox = useSandbox({ bulkItemDelay: 200, bulkConcurrency: 1 });

  it('answers 200 at once when idle', async () => {
    const res = await call(sandbox, 'POST', '/__sandbox/drain');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
  });

  it.each(['0', 'abc', '-5', '1.5'])('answers 400 to timeoutMs=%s', async (value) => {
    const res = await call(sandbox, 'POST', `/__sandbox/drain?timeoutMs=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });

  it('answers 408 while a slow batch runs, and 200 once it has finished', async () => {
    const batch = await create(sandbox, transfers(3));
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const busy = await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=1');
    expect(busy.status).toBe(408);
    expect(busy.body).toMatchObject({ status: false, data: null });
    expect((await getBatch(sandbox, batch.id)).status).toBe('processing');
    await drain(sandbox);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'completed', completedItems: 3, failedItems: 0 });
  });

  it('drops queued items on reset: after reset and drain the state holds only the fixtures’ batch', async () => {
    const batch = await create(sandbox, transfers(5));
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const reset = await call(sandbox, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(200);
    await drain(sandbox);
    const state = await call(sandbox, 'GET', '/__sandbox/state');
    expect(state.status).toBe(200);
    const { collections } = bodyOf(state, stateExport);
    expect(collections.bulkTransfers.map((b) => b.id)).toEqual([fixture.batch]);
    expect(collections.bulkItems.map((i) => i.id)).toEqual([fixture.batchItem]);
    const gone = await call(sandbox, 'GET', `${BULK}/${batch.id}`, { headers: keysA1 });
    expect(gone.status).toBe(404);
    // No item debited the fixture balance after the reset.
    const ledger = await ledgerOf(sandbox);
    expect(ledger.balance).toBe(A.a1.balance);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(ledger.transactions.filter((t) => t.kind === 'bulk_transfer')).toHaveLength(0);
  });
});
