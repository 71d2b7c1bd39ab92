import { beforeAll, describe, expect, it } from 'vitest';
import { type AuditEntryView, auditEntry } from '../../../src/contract/api/audits.js';
import type { BulkTransferWithItemsView } from '../../../src/contract/api/bulk.js';
import {
  singleUseAccount,
  type VirtualAccountView,
  virtualAccount,
} from '../../../src/contract/api/virtual-accounts.js';
import {
  type ClientBulkTransferView,
  type ClientBulkTransferWithItemsView,
  clientBulkTransfer,
  clientBulkTransferWithItems,
} from '../../../src/contract/control/bulk-transfers.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import {
  type VirtualAccountView as VirtualAccountRowView,
  virtualAccount as virtualAccountRow,
} from '../../../src/contract/control/virtual-accounts.js';
import { fixture } from '../../../src/contract/examples.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, type PageView, pageOf } from '../../support/answers.js';
import {
  ALREADY_COMPLETED,
  ALREADY_PROCESSING,
  bulkHelpers,
  expectCountersMatch,
  keysA1,
  keysA2,
  processBatch,
  QUEUED,
} from '../../support/bulk.js';
import { setBalance } from '../../support/money.js';
import { onePage, pageAt } from '../../support/pagination.js';
import {
  A,
  B,
  call,
  memorySandbox,
  ownerHeaders,
  schemeA,
  schemeB,
  tokenFor,
  useSandbox,
} from '../../support/sandbox.js';
import { openVirtualAccount } from '../../support/webhooks.js';

const BATCHES = '/__sandbox/bulk-transfers';
const VIRTUAL_ACCOUNTS = '/__sandbox/virtual-accounts';
const AUDITS = '/api/v1/clients/business/audits';
const NOT_FOUND = 'Bulk transfer not found';
/** The default scenario's magic receiver: every transfer to it fails 51 Insufficient Funds. */
const FAILS_51 = '0000000051';
const UNKNOWN_ID = '7d3f1c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c';

const keysB1 = schemeB(B.publicKey, B.secretKey, B.b1.id);

const { transfer, transfers, create, getBatch, settle } = bulkHelpers({
  label: 'ctlbulk',
  narration: 'Control',
  batchName: 'Control batch',
});

async function listBatches(sandbox: Sandbox, query = ''): Promise<PageView<ClientBulkTransferView>> {
  const res = await call(sandbox, 'GET', `${BATCHES}${query}`);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  expect(res.body).toMatchObject({ status: true, message: 'Bulk transfers' });
  return pageOf(res, clientBulkTransfer);
}

async function controlBatch(sandbox: Sandbox, id: string): Promise<ClientBulkTransferWithItemsView> {
  const res = await call(sandbox, 'GET', `${BATCHES}/${id}`);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  expect(res.body).toMatchObject({ status: true, message: 'Bulk transfer' });
  return dataOf(res, clientBulkTransferWithItems);
}

function reprocess(sandbox: Sandbox, id: string, body: Record<string, unknown> | string = {}) {
  return call(sandbox, 'POST', `${BATCHES}/${id}/reprocess`, { body });
}

async function auditsOf(sandbox: Sandbox, headers: Record<string, string>): Promise<AuditEntryView[]> {
  const res = await call(sandbox, 'GET', `${AUDITS}?limit=100`, { headers });
  expect(res.status).toBe(200);
  return pageOf(res, auditEntry).data;
}

/** The virtual account the fixtures give A1 (with the payments it received). */
const FIXTURE_ACCOUNT = '9000000010';

describe('GET /__sandbox/bulk-transfers', () => {
  const sandbox = useSandbox();
  let first: BulkTransferWithItemsView;
  let ofB: BulkTransferWithItemsView;
  let ofA2: BulkTransferWithItemsView;
  let last: BulkTransferWithItemsView;
  let partial: BulkTransferWithItemsView;
  beforeAll(async () => {
    first = await create(sandbox, transfers(2), keysA1, 'First');
    ofB = await create(sandbox, transfers(1), keysB1, 'Of B');
    ofA2 = await create(sandbox, transfers(1), keysA2, 'Of A2');
    partial = await settle(
      sandbox,
      [transfer(), transfer({ receiverAccountNumber: FAILS_51 })],
      keysA1,
      'Mixed',
    );
    last = await create(sandbox, transfers(3), keysA1, 'Last');
  });

  it('lists the batches of every client, newest first, each with its clientId and no items', async () => {
    const { data, pagination } = await listBatches(sandbox);
    // The fixtures' batch of A1 is the oldest.
    expect(data.map((b) => b.id)).toEqual([last.id, partial.id, ofA2.id, ofB.id, first.id, fixture.batch]);
    expect(data.map((b) => b.clientId)).toEqual([A.id, A.id, A.id, B.id, A.id, A.id]);
    for (const row of data) expect(row).not.toHaveProperty('items');
    // Apart from clientId and requestId, each row is what the bank's own API shows of the batch.
    const { items: _items, ...ofBView } = await getBatch(sandbox, ofB.id, keysB1);
    expect(data.find((b) => b.id === ofB.id)).toEqual({
      ...ofBView,
      clientId: B.id,
      requestId: expect.any(String),
    });
    expect(data.find((b) => b.id === partial.id)).toMatchObject({
      status: 'partially_completed',
      completedItems: 1,
      failedItems: 1,
    });
    expect(pagination).toEqual(onePage(6, 10));
  });

  it('filters by clientId', async () => {
    const b = await listBatches(sandbox, `?clientId=${B.id}`);
    expect(b.data.map((r) => r.id)).toEqual([ofB.id]);
    expect(b.pagination.totalCount).toBe(1);
    const a = await listBatches(sandbox, `?clientId=${A.id}`);
    expect(a.data.map((r) => r.id)).toEqual([last.id, partial.id, ofA2.id, first.id, fixture.batch]);
    const none = await listBatches(sandbox, `?clientId=${UNKNOWN_ID}`);
    expect(none.data).toEqual([]);
    expect(none.pagination.totalCount).toBe(0);
  });

  it('filters by status, alone and with clientId', async () => {
    const pending = await listBatches(sandbox, '?status=pending');
    expect(pending.data.map((r) => r.id)).toEqual([last.id, ofA2.id, ofB.id, first.id]);
    const partials = await listBatches(sandbox, '?status=partially_completed');
    expect(partials.data.map((r) => r.id)).toEqual([partial.id]);
    const completed = await listBatches(sandbox, '?status=completed');
    expect(completed.data).toEqual([]);
    const pendingOfB = await listBatches(sandbox, `?status=pending&clientId=${B.id}`);
    expect(pendingOfB.data.map((r) => r.id)).toEqual([ofB.id]);
    const partialOfB = await listBatches(sandbox, `?status=partially_completed&clientId=${B.id}`);
    expect(partialOfB.data).toEqual([]);
  });

  it('pages with page and limit', async () => {
    const one = await listBatches(sandbox, '?page=1&limit=2');
    expect(one.data.map((r) => r.id)).toEqual([last.id, partial.id]);
    expect(one.pagination).toEqual(pageAt(1, { totalCount: 6, limit: 2, lastPage: 3 }));
    const two = await listBatches(sandbox, '?page=2&limit=2');
    expect(two.data.map((r) => r.id)).toEqual([ofA2.id, ofB.id]);
    expect(two.pagination).toMatchObject({
      hasNextPage: true,
      hasPreviousPage: true,
      nextPage: 3,
      previousPage: 1,
    });
    const three = await listBatches(sandbox, '?page=3&limit=2');
    expect(three.data.map((r) => r.id)).toEqual([first.id, fixture.batch]);
    expect(three.pagination).toMatchObject({ hasNextPage: false, nextPage: 0, previousPage: 2 });
    const beyond = await listBatches(sandbox, '?page=4&limit=2');
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination.totalCount).toBe(6);
  });

  it.each([
    ['an unknown status', '?status=done', 'status'],
    ['an item status that no batch has', '?status=pendingg', 'status'],
    ['limit=0', '?limit=0', 'limit'],
    ['limit=101', '?limit=101', 'limit'],
    ['limit=abc', '?limit=abc', 'limit'],
    ['page=0', '?page=0', 'page'],
  ])('answers 400 with the error envelope to %s', async (_label, query, field) => {
    const res = await call(sandbox, 'GET', `${BATCHES}${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toEqual(expect.stringContaining(field));
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });
});

describe('GET /__sandbox/bulk-transfers/:id', () => {
  const sandbox = useSandbox();

  it('answers the batch with its items in submission order and its clientId', async () => {
    const items = [
      transfer({ amount: 300000 }),
      transfer({ amount: 100000, receiverAccountNumber: '1111111111' }),
      transfer({ amount: '200000' }),
      transfer({ amount: 150000, receiverAccountNumber: '2222222222' }),
    ];
    const batch = await create(sandbox, items, keysB1, 'Ordered');
    const seen = await controlBatch(sandbox, batch.id);
    expect(seen.clientId).toBe(B.id);
    expect(seen.items.map((i) => i.itemIndex)).toEqual([0, 1, 2, 3]);
    expect(seen.items.map((i) => i.retrievalReference)).toEqual(items.map((t) => t.retrievalReference));
    expect(seen.items.map((i) => i.amount)).toEqual(['300000', '100000', '200000', '150000']);
    // Apart from clientId and requestId, exactly what the owner reads through the API.
    const { clientId, requestId, ...rest } = seen;
    expect(clientId).toBe(B.id);
    expect(requestId).toMatch(/\S/);
    expect(rest).toEqual(await getBatch(sandbox, batch.id, keysB1));
  });

  it("keeps the order and shows the items' new state after processing", async () => {
    const items = [transfer(), transfer({ receiverAccountNumber: FAILS_51 }), transfer()];
    const settled = await settle(sandbox, items);
    const seen = await controlBatch(sandbox, settled.id);
    expect(seen.clientId).toBe(A.id);
    expect(seen.items.map((i) => i.retrievalReference)).toEqual(items.map((t) => t.retrievalReference));
    expect(seen.items.map((i) => i.status)).toEqual(['completed', 'failed', 'completed']);
    expect(seen.items[1]).toMatchObject({ errorCode: '51', errorMessage: 'Insufficient Funds' });
    expectCountersMatch(seen);
  });

  it('answers 404 Bulk transfer not found to an unknown id', async () => {
    const res = await call(sandbox, 'GET', `${BATCHES}/${UNKNOWN_ID}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, message: NOT_FOUND, data: null });
  });
});

describe('POST /__sandbox/bulk-transfers/:id/reprocess', () => {
  const sandbox = useSandbox();
  let ownerA1: Record<string, string>;
  beforeAll(async () => {
    ownerA1 = await ownerHeaders(sandbox);
  });

  it('retries every failed item with {} and writes a "Sandbox operator" audit entry', async () => {
    const items = [
      transfer(),
      transfer({ receiverAccountNumber: FAILS_51 }),
      transfer(),
      transfer({ receiverAccountNumber: FAILS_51 }),
    ];
    const settled = await settle(sandbox, items);
    expect(settled).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 2 });
    const auditsBefore = await auditsOf(sandbox, ownerA1);

    const res = await reprocess(sandbox, settled.id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    expect(res.body.data).toEqual({ bulkTransferId: settled.id, jobId: expect.any(String) });
    await sandbox.drain();

    const after = await controlBatch(sandbox, settled.id);
    expect(after).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 2 });
    expectCountersMatch(after);
    for (const i of [1, 3]) {
      const before = settled.items[i];
      const now = after.items[i];
      expect(now).toMatchObject({
        status: 'failed',
        reprocessCount: 1,
        errorCode: '51',
        originalTransactionReference: before?.transactionReference,
      });
      expect(now?.transactionReference).not.toBe(before?.transactionReference);
    }
    // The completed items are left as they were.
    expect(after.items[0]).toEqual(settled.items[0]);
    expect(after.items[2]).toEqual(settled.items[2]);

    const auditsAfter = await auditsOf(sandbox, ownerA1);
    expect(auditsAfter).toHaveLength(auditsBefore.length + 1);
    expect(auditsAfter[0]).toMatchObject({
      user: 'Sandbox operator',
      email: 'operator@sandbox.local',
      role: 'Operator',
      action: 'reprocess',
      type: 'transaction',
    });
  });

  it('retries only the one item given by itemId', async () => {
    const items = [
      transfer({ receiverAccountNumber: FAILS_51 }),
      transfer({ receiverAccountNumber: FAILS_51 }),
    ];
    const settled = await settle(sandbox, items);
    expect(settled).toMatchObject({ status: 'failed', failedItems: 2 });
    const target = settled.items[1];
    if (!target) throw new Error('no second item');

    const res = await reprocess(sandbox, settled.id, { itemId: target.id });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    await sandbox.drain();

    const after = await controlBatch(sandbox, settled.id);
    expect(after.items[0]).toEqual(settled.items[0]);
    expect(after.items[0]).not.toHaveProperty('originalTransactionReference');
    expect(after.items[1]).toMatchObject({
      status: 'failed',
      reprocessCount: 1,
      originalTransactionReference: target.transactionReference,
    });
    expect(after).toMatchObject({ status: 'failed', failedItems: 2, completedItems: 0 });
    expectCountersMatch(after);

    // Again: the count grows and the first reference is kept.
    expect((await reprocess(sandbox, settled.id, { itemId: target.id })).status).toBe(202);
    await sandbox.drain();
    const twice = await controlBatch(sandbox, settled.id);
    expect(twice.items[1]).toMatchObject({
      reprocessCount: 2,
      originalTransactionReference: target.transactionReference,
    });
  });

  it("reprocesses another client's batch and audits it in that client's log only", async () => {
    const settled = await settle(sandbox, [transfer({ receiverAccountNumber: FAILS_51 })], keysB1);
    const ownerB1 = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const bBefore = await auditsOf(sandbox, ownerB1);
    const aBefore = await auditsOf(sandbox, ownerA1);

    expect((await reprocess(sandbox, settled.id)).status).toBe(202);
    await sandbox.drain();

    const after = await getBatch(sandbox, settled.id, keysB1);
    expect(after.items[0]).toMatchObject({ reprocessCount: 1, status: 'failed' });
    const bAfter = await auditsOf(sandbox, ownerB1);
    expect(bAfter).toHaveLength(bBefore.length + 1);
    expect(bAfter[0]).toMatchObject({ user: 'Sandbox operator', action: 'reprocess', type: 'transaction' });
    expect(await auditsOf(sandbox, ownerA1)).toEqual(aBefore);
  });

  it('answers 400 when the batch has no failed item, and changes nothing', async () => {
    const pending = await create(sandbox, transfers(2));
    const res = await reprocess(sandbox, pending.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      message: 'There are no failed items to reprocess',
      data: null,
    });
    expect(await getBatch(sandbox, pending.id)).toEqual(pending);
  });

  it('answers 400 to an itemId of an item that did not fail', async () => {
    const settled = await settle(sandbox, [transfer(), transfer({ receiverAccountNumber: FAILS_51 })]);
    const res = await reprocess(sandbox, settled.id, { itemId: settled.items[0]?.id ?? '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toContain('completed');
    expect(await getBatch(sandbox, settled.id)).toEqual(settled);
  });

  it('answers 400 Bulk transfer is already completed to a completed batch', async () => {
    const settled = await settle(sandbox, transfers(2));
    expect(settled.status).toBe('completed');
    const auditsBefore = await auditsOf(sandbox, ownerA1);
    for (const body of [{}, { itemId: settled.items[0]?.id ?? '' }]) {
      const res = await reprocess(sandbox, settled.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: ALREADY_COMPLETED, data: null });
    }
    expect(await getBatch(sandbox, settled.id)).toEqual(settled);
    expect(await auditsOf(sandbox, ownerA1)).toEqual(auditsBefore);
  });

  it('answers 404 Bulk transfer not found to an unknown batch', async () => {
    for (const body of [{}, { itemId: UNKNOWN_ID }]) {
      const res = await reprocess(sandbox, UNKNOWN_ID, body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, message: NOT_FOUND, data: null });
    }
  });

  it('answers 404 to an itemId that is not an item of the batch', async () => {
    const settled = await settle(sandbox, [transfer({ receiverAccountNumber: FAILS_51 })]);
    const other = await settle(sandbox, [transfer({ receiverAccountNumber: FAILS_51 })]);
    for (const itemId of [UNKNOWN_ID, other.items[0]?.id ?? '']) {
      const res = await reprocess(sandbox, settled.id, { itemId });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, message: 'Bulk transfer item not found', data: null });
    }
    expect(await getBatch(sandbox, settled.id)).toEqual(settled);
    expect(await getBatch(sandbox, other.id)).toEqual(other);
  });

  it('refused for Insufficient Funds: one item changes nothing; the whole batch is set failed, its items untouched', async () => {
    // A sandbox of its own: the balance goes to 0.
    const own = await memorySandbox();
    const owner = await ownerHeaders(own);
    const settled = await settle(own, [transfer(), transfer({ receiverAccountNumber: FAILS_51 })]);
    expect(settled.status).toBe('partially_completed');
    await setBalance(own, A.a1.id, 0);
    const audits = await auditsOf(own, owner);

    const one = await reprocess(own, settled.id, { itemId: settled.items[1]?.id ?? '' });
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    expect(await getBatch(own, settled.id)).toEqual(settled);

    const all = await reprocess(own, settled.id);
    expect(all.status).toBe(400);
    expect(all.body).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    const after = await getBatch(own, settled.id);
    expect(after).toEqual({ ...settled, status: 'failed', failureReason: 'Insufficient Funds' });
    expect(after.items).toEqual(settled.items);
    expect(await auditsOf(own, owner)).toEqual(audits);
    await own.close();
  });

  describe('bodies it refuses', () => {
    let settled: BulkTransferWithItemsView;
    beforeAll(async () => {
      settled = await settle(sandbox, [transfer({ receiverAccountNumber: FAILS_51 })]);
    });

    it.each([
      ['itemId a number', { itemId: 5 }],
      ['itemId an empty string', { itemId: '' }],
      ['itemId null', { itemId: null }],
    ])('answers 400 to %s and changes nothing', async (_label, body) => {
      const res = await reprocess(sandbox, settled.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, data: null });
      expect(res.body.message).toContain('itemId');
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'itemId' })]));
      expect(await getBatch(sandbox, settled.id)).toEqual(settled);
    });

    it('answers 400 Malformed JSON body to broken JSON', async () => {
      const res = await call(sandbox, 'POST', `${BATCHES}/${settled.id}/reprocess`, {
        headers: { 'content-type': 'application/json' },
        body: '{"itemId":',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: 'Malformed JSON body', data: null });
      expect(await getBatch(sandbox, settled.id)).toEqual(settled);
    });

    it('answers 415 to a body that is not JSON', async () => {
      const res = await call(sandbox, 'POST', `${BATCHES}/${settled.id}/reprocess`, {
        headers: { 'content-type': 'text/plain' },
        body: `itemId=${settled.items[0]?.id}`,
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        status: false,
        message: expect.stringMatching(/^Content-Type must be application\/json/),
        data: null,
      });
      expect(await getBatch(sandbox, settled.id)).toEqual(settled);
    });

    it('takes an empty body without a content type as {}', async () => {
      const res = await call(sandbox, 'POST', `${BATCHES}/${settled.id}/reprocess`);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      await sandbox.drain();
      const after = await getBatch(sandbox, settled.id);
      expect(after.items[0]).toMatchObject({ reprocessCount: 1, status: 'failed' });
    });
  });
});

describe('reprocess while the batch is processing', () => {
  const sandbox = useSandbox({ bulkItemDelay: 50 });

  it('answers 200 already being processed, without a jobId, and retries nothing', async () => {
    const batch = await create(sandbox, [
      transfer({ receiverAccountNumber: FAILS_51 }),
      transfer(),
      transfer(),
      transfer(),
    ]);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const res = await reprocess(sandbox, batch.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, message: ALREADY_PROCESSING });
    expect(res.body.data).toEqual({ bulkTransferId: batch.id });
    await sandbox.drain();
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'partially_completed', failedItems: 1, completedItems: 3 });
    for (const item of done.items) expect(item.reprocessCount).toBe(0);
  });
});

describe('GET /__sandbox/virtual-accounts', () => {
  const sandbox = useSandbox();
  const opened: { account: VirtualAccountView; reference: string; clientId: string; businessId: string }[] =
    [];
  beforeAll(async () => {
    // A frozen clock: an account's createdAt and its expiry are read from it a moment apart.
    expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: true } })).status).toBe(
      200,
    );
    const ownerA1 = await ownerHeaders(sandbox);
    const ownerB1 = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const plan = [
      [ownerA1, A.id, A.a1.id, 'permanent'],
      [ownerB1, B.id, B.b1.id, 'permanent'],
      [ownerA1, A.id, A.a1.id, 'temporal'],
    ] as const;
    for (const [i, [headers, clientId, businessId, type]] of plan.entries()) {
      const reference = `ctl-va-${i}`;
      const res = await openVirtualAccount(sandbox, headers, type, reference);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      opened.push({ account: dataOf(res, virtualAccount), reference, clientId, businessId });
    }
  });

  async function listAccounts(query = ''): Promise<PageView<VirtualAccountRowView>> {
    const res = await call(sandbox, 'GET', `${VIRTUAL_ACCOUNTS}${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, message: 'Virtual accounts' });
    return pageOf(res, virtualAccountRow);
  }

  it('lists the accounts of every client, newest first, with the accountNumber the API answered', async () => {
    const { data: all, pagination } = await listAccounts();
    // The fixtures' account of A1 is the oldest; the rest were opened here.
    const data = all.slice(0, -1);
    expect(all.at(-1)).toMatchObject({ accountNumber: FIXTURE_ACCOUNT, clientId: A.id, businessId: A.a1.id });
    const newestFirst = [...opened].reverse();
    expect(data.map((v) => v.accountNumber)).toEqual(newestFirst.map((o) => o.account.accountNumber));
    expect(data.map((v) => v.clientRef)).toEqual(newestFirst.map((o) => o.reference));
    expect(data.map((v) => v.clientId)).toEqual(newestFirst.map((o) => o.clientId));
    expect(data.map((v) => v.businessId)).toEqual(newestFirst.map((o) => o.businessId));
    expect(pagination).toEqual(onePage(4, 10));
  });

  it('shows expiresAt as ISO 8601 text, createdAt plus the 30-minute default; null for a permanent account', async () => {
    const { data } = await listAccounts();
    const temporal = data.filter((v) => v.type === 'temporal');
    expect(temporal).toHaveLength(1);
    for (const row of temporal) {
      expect(row.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(row.expiresAt ?? '') - Date.parse(row.createdAt)).toBe(1800 * 1000);
    }
    const permanent = data.filter((v) => v.type === 'permanent');
    expect(permanent.length).toBeGreaterThan(0);
    for (const row of permanent) expect(row.expiresAt).toBeNull();
    // Multi-use accounts reserve nothing and are never used up.
    for (const row of data) expect(row).toMatchObject({ reservedAmount: null, usedBy: null, state: 'open' });
  });

  it('shows an account opened later at the top', async () => {
    const res = await openVirtualAccount(sandbox, await ownerHeaders(sandbox), 'permanent', 'ctl-va-late');
    expect(res.status).toBe(201);
    const account = dataOf(res, virtualAccount);
    const { data, pagination } = await listAccounts();
    expect(data[0]).toMatchObject({
      accountNumber: account.accountNumber,
      clientRef: 'ctl-va-late',
      clientId: A.id,
    });
    expect(pagination.totalCount).toBe(5);
    opened.push({ account, reference: 'ctl-va-late', clientId: A.id, businessId: A.a1.id });
  });

  it('pages with page and limit', async () => {
    const all = (await listAccounts('?limit=100')).data.map((v) => v.accountNumber);
    const one = await listAccounts('?page=1&limit=3');
    expect(one.data.map((v) => v.accountNumber)).toEqual(all.slice(0, 3));
    expect(one.pagination).toMatchObject({
      totalCount: all.length,
      hasNextPage: true,
      nextPage: 2,
      limit: 3,
    });
    const two = await listAccounts('?page=2&limit=3');
    expect(two.data.map((v) => v.accountNumber)).toEqual(all.slice(3, 6));
    expect(two.pagination).toMatchObject({ hasPreviousPage: true, previousPage: 1 });
    // Reading the list does not reorder it.
    expect((await listAccounts('?limit=100')).data.map((v) => v.accountNumber)).toEqual(all);
  });

  it.each(['?limit=0', '?limit=101', '?page=0', '?page=x'])('answers 400 to %s', async (query) => {
    const res = await call(sandbox, 'GET', `${VIRTUAL_ACCOUNTS}${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
  });
});

describe('GET /__sandbox/virtual-accounts: single-use accounts', () => {
  it('shows a single-use account open, then used by its payment; another expired once the clock passes it', async () => {
    const sandbox = await memorySandbox();
    const owner = await ownerHeaders(sandbox);
    const permanent = await openVirtualAccount(sandbox, owner, 'permanent', 'ctl-su-multi');
    expect(permanent.status).toBe(201);
    const multi = dataOf(permanent, virtualAccount).accountNumber;
    const openSingle = async (refCode: string, duration: number) => {
      const res = await call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts/single-use', {
        headers: owner,
        body: { firstName: 'Uche', lastName: 'Nwosu', refCode, amount: 75_000, duration },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return dataOf(res, singleUseAccount).accountNumber;
    };
    const listed = async () => {
      const res = await call(sandbox, 'GET', `${VIRTUAL_ACCOUNTS}?limit=100`);
      expect(res.status).toBe(200);
      return pageOf(res, virtualAccountRow).data;
    };
    const rowOf = async (accountNumber: string) =>
      (await listed()).find((v) => v.accountNumber === accountNumber);
    const paid = await openSingle('ctl-su-paid', 3600);
    const late = await openSingle('ctl-su-late', 5);
    for (const number of [paid, late]) {
      expect(await rowOf(number)).toMatchObject({
        type: 'single_use',
        reservedAmount: 75_000,
        usedBy: null,
        state: 'open',
      });
    }

    const payment = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: paid, amount: 75_000 },
    });
    expect(payment.status).toBe(201);
    const { transactionReference } = dataOf(payment, paymentReceived);
    expect(await rowOf(paid)).toMatchObject({ usedBy: transactionReference, state: 'used' });

    expect((await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 5_000 } })).status).toBe(
      200,
    );
    expect(await rowOf(late)).toMatchObject({ usedBy: null, state: 'expired', reservedAmount: 75_000 });
    expect((await rowOf(paid))?.state).toBe('used');
    expect(await rowOf(multi)).toMatchObject({ reservedAmount: null, usedBy: null, state: 'open' });
    // Newest first like the rest.
    expect((await listed()).map((v) => v.accountNumber)).toEqual([late, paid, multi, FIXTURE_ACCOUNT]);
    // Used stays used past its expiry too.
    expect(
      (await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 3_600_000 } })).status,
    ).toBe(200);
    expect((await rowOf(paid))?.state).toBe('used');
    await sandbox.close();
  });
});
