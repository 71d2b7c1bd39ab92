import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { type AuditEntryView, auditEntry } from '../../../src/contract/api/audits.js';
import {
  BULK_BODY_BYTES,
  type BulkTransferView,
  type BulkTransferWithItemsView,
  bulkClaim,
  bulkTransfer,
  bulkTransferWithItems,
} from '../../../src/contract/api/bulk.js';
import { fixture } from '../../../src/contract/examples.js';
import { MAX_TEXT } from '../../../src/domain/fields.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { dataOf, type PageView, pageOf } from '../../support/answers.js';
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
  PROCESS,
  processBatch,
  QUEUED,
} from '../../support/bulk.js';
import { ledgerOf, setBalance } from '../../support/money.js';
import { onePage, pageAt } from '../../support/pagination.js';
import { A, B, call, ownerHeaders, schemeA, schemeB, tokenFor, useSandbox } from '../../support/sandbox.js';

const AUDITS = '/api/v1/clients/business/audits';
const NO_ACCOUNT = 'No payment account for this business';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '7d3f1c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c';

const BATCH_KEYS = [
  'batchName',
  'bulkReference',
  'businessId',
  'completedItems',
  'createdAt',
  'failedItems',
  'failureReason',
  'id',
  'status',
  'totalItems',
];
const ITEM_KEYS = [
  'amount',
  'errorCode',
  'errorMessage',
  'id',
  'itemIndex',
  'processedAt',
  'providerReference',
  'receiverAccountNumber',
  'receiverBankCode',
  'reprocessCount',
  'retrievalReference',
  'status',
  'transactionReference',
];

const keysB1 = schemeB(B.publicKey, B.secretKey, B.b1.id);

const { transfer, transfers, create, getBatch, settleBatch } = bulkHelpers({
  label: 'bulk',
  narration: 'Salary',
  batchName: 'Payroll',
  expectStatusTrue: true,
});

async function list(
  sandbox: Sandbox,
  headers: Record<string, string> = keysA1,
  query = '',
): Promise<PageView<BulkTransferView>> {
  const res = await call(sandbox, 'GET', `${BULK}${query}`, { headers });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe(true);
  return pageOf(res, bulkTransfer);
}

// Which credentials each bulk route refuses, with what status and message, and that a refusal changes nothing:
// test/api/http/route-auth.test.ts, generated from the route definitions.
describe("scheme B: a client's batches are its own", () => {
  const sandbox = useSandbox();
  let batchA: BulkTransferWithItemsView;
  let batchB: BulkTransferWithItemsView;
  beforeAll(async () => {
    batchA = await create(sandbox, transfers(2));
    batchB = await create(sandbox, transfers(1), keysB1);
  });

  it("lets B read its own batch with B's keys, and not A's", async () => {
    expect((await getBatch(sandbox, batchB.id, keysB1)).id).toBe(batchB.id);
    const res = await call(sandbox, 'GET', `${BULK}/${batchA.id}`, { headers: keysB1 });
    expect(res.status).toBe(404);
  });
});

describe('create a bulk transfer', () => {
  const sandbox = useSandbox();

  it('answers 201 with the batch and every item pending, in submission order', async () => {
    const items = [
      transfer({ amount: 150000 }),
      transfer({
        amount: 500001,
        receiverAccountNumber: '1111111111',
        receiverBankCode: banks.banks[1]?.code,
      }),
      transfer({ amount: '250000' }),
    ];
    const started = Date.now();
    const res = await call(sandbox, 'POST', BULK, {
      headers: keysA1,
      body: { batchName: 'March payroll', transfers: items },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');
    const batch = dataOf(res, bulkTransferWithItems);
    expect(Object.keys(batch).sort()).toEqual([...BATCH_KEYS, 'items'].sort());
    expect(batch).toMatchObject({
      businessId: A.a1.id,
      batchName: 'March payroll',
      totalItems: 3,
      completedItems: 0,
      failedItems: 0,
      status: 'pending',
      failureReason: null,
    });
    expect(batch.id).toMatch(UUID);
    expect(batch.bulkReference).toMatch(/\S/);
    expect(batch.createdAt).toMatch(ISO);
    expect(Date.parse(batch.createdAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(batch.items).toHaveLength(3);
    batch.items.forEach((item, i) => {
      const sent = items[i];
      expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      expect(item).not.toHaveProperty('originalTransactionReference');
      expect(item).toEqual({
        id: expect.any(String),
        itemIndex: i,
        amount: String(sent?.amount),
        receiverAccountNumber: sent?.receiverAccountNumber,
        receiverBankCode: sent?.receiverBankCode,
        retrievalReference: sent?.retrievalReference,
        transactionReference: expect.any(String),
        status: 'pending',
        errorMessage: '',
        errorCode: '',
        providerReference: '',
        reprocessCount: 0,
        processedAt: null,
      });
      expect(item.id).not.toBe('');
      expect(item.transactionReference).toMatch(/\S/);
    });
    expect(new Set(batch.items.map((i) => i.id)).size).toBe(3);
    expect(new Set(batch.items.map((i) => i.transactionReference)).size).toBe(3);
    // GET gives the very same record.
    expect(await getBatch(sandbox, batch.id)).toEqual(batch);
  });

  it('debits nothing on create', async () => {
    const before = await ledgerOf(sandbox, A.a1.id);
    await create(sandbox, transfers(3));
    const after = await ledgerOf(sandbox, A.a1.id);
    expect(after.balance).toBe(before.balance);
    expect(after.transactions).toHaveLength(before.transactions.length);
  });

  it('gives every batch its own id and bulkReference', async () => {
    const one = await create(sandbox, transfers(1));
    const two = await create(sandbox, transfers(1));
    expect(one.id).not.toBe(two.id);
    expect(one.bulkReference).not.toBe(two.bulkReference);
  });

  const bad: readonly (readonly [string, () => Record<string, unknown>, string, string | null])[] = [
    ['an empty transfers array', () => ({ batchName: 'x', transfers: [] }), 'transfers', null],
    ['transfers missing', () => ({ batchName: 'x' }), 'transfers', null],
    ['batchName missing', () => ({ transfers: [transfer()] }), 'batchName', null],
    ['an empty batchName', () => ({ batchName: '', transfers: [transfer()] }), 'batchName', null],
    [
      'an item with amount 0',
      () => ({ batchName: 'x', transfers: [transfer(), transfer({ amount: 0 })] }),
      'transfers[1].amount',
      null,
    ],
    [
      'an item with amount 1.5',
      () => ({ batchName: 'x', transfers: [transfer(), transfer({ amount: 1.5 })] }),
      'transfers[1].amount',
      null,
    ],
    [
      'an item with a 9-digit account',
      () => ({ batchName: 'x', transfers: [transfer(), transfer({ receiverAccountNumber: '012345678' })] }),
      'transfers[1].receiverAccountNumber',
      null,
    ],
    [
      'an item with an unknown bank code',
      () => ({ batchName: 'x', transfers: [transfer(), transfer({ receiverBankCode: '999' })] }),
      'transfers[1].receiverBankCode',
      'Invalid bank code',
    ],
    [
      'an item with a bank code of two digits',
      () => ({ batchName: 'x', transfers: [transfer(), transfer({ receiverBankCode: '99' })] }),
      'transfers[1].receiverBankCode',
      'transfers[1].receiverBankCode: Invalid bank code',
    ],
    [
      'two items with the same retrievalReference',
      () => {
        const first = transfer();
        return {
          batchName: 'x',
          transfers: [first, transfer(), transfer({ retrievalReference: first.retrievalReference })],
        };
      },
      'transfers[2].retrievalReference',
      null,
    ],
    [
      '10001 items',
      () => ({ batchName: 'x', transfers: transfers(10_001) }),
      'transfers',
      'transfers is invalid: must have at most 10000 items',
    ],
  ];

  it.each(bad)('answers 400 to %s and creates nothing', async (_label, body, field, message) => {
    expect(banks.banks.some((b) => b.code === '999')).toBe(false);
    const before = (await list(sandbox)).pagination.totalCount;
    const res = await call(sandbox, 'POST', BULK, { headers: keysA1, body: body() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    if (message !== null) expect(res.body.message).toContain(message);
    expect((await list(sandbox)).pagination.totalCount).toBe(before);
  });

  /** `n` transfers whose every field is as long as it may be: what the route's bound on the body must fit. */
  const longest = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      transfer({
        amount: String(Number.MAX_SAFE_INTEGER),
        receiverBankCode: '100004',
        retrievalReference: `${i}-`.padEnd(MAX_TEXT, 'r'),
        narration: 'n'.repeat(MAX_TEXT),
      }),
    );

  it('fits 10000 transfers of the longest fields in its bound, and answers 10001 of them 400 naming the limit', async () => {
    const most = JSON.stringify({ batchName: 'b'.repeat(MAX_TEXT), transfers: longest(10_000) });
    expect(most.length).toBeLessThanOrEqual(BULK_BODY_BYTES);
    const before = (await list(sandbox)).pagination.totalCount;
    const res = await call(sandbox, 'POST', BULK, {
      headers: keysA1,
      body: { batchName: 'b'.repeat(MAX_TEXT), transfers: longest(10_001) },
    });
    // Read whole and counted: not 413.
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      message: 'transfers is invalid: must have at most 10000 items',
      data: null,
    });
    expect((await list(sandbox)).pagination.totalCount).toBe(before);
  });

  it('answers a body past its bound 400 naming the limit, not 413, whatever it holds, and creates nothing', async () => {
    const before = (await list(sandbox)).pagination.totalCount;
    const small = JSON.stringify({ batchName: 'x', transfers: [transfer()] });
    // A valid batch padded with spaces past the bound: more bytes than any batch that may be accepted.
    const padded = `${small.slice(0, -1)}${' '.repeat(BULK_BODY_BYTES - small.length + 1)}}`;
    const res = await call(sandbox, 'POST', BULK, {
      headers: { ...keysA1, 'content-type': 'application/json' },
      body: padded,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: false,
      message: `A bulk transfer takes at most 10000 transfers: this body is larger than 10000 transfers of the longest fields can be (${BULK_BODY_BYTES} bytes)`,
      data: null,
      errors: [{ field: 'transfers', message: 'must have at most 10000 items' }],
    });
    expect((await list(sandbox)).pagination.totalCount).toBe(before);
  });

  it('answers a Content-Length past its bound 400 over a socket, before the body is sent', async () => {
    const running = await startSandbox({ inMemory: true, port: 0, quiet: true, log: () => undefined });
    try {
      const answer = await new Promise<{ status: number; connection?: string; body: string }>(
        (resolve, reject) => {
          const req = http.request(
            `${running.url}${BULK}`,
            {
              method: 'POST',
              headers: {
                ...keysA1,
                'content-type': 'application/json',
                'content-length': String(BULK_BODY_BYTES + 1),
              },
            },
            (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => {
                body += chunk;
              });
              res.on('end', () => {
                resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body });
                req.destroy();
              });
            },
          );
          req.on('error', reject);
          // Only the start of the body: the answer comes from the declared length alone.
          req.write('{"batchName":"x","transfers":[');
        },
      );
      expect(answer.status).toBe(400);
      expect(answer.connection).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({
        status: false,
        message: expect.stringMatching(/at most 10000 transfers/),
      });
    } finally {
      await running.close();
    }
  });

  it('accepts items of 1 kobo and of more than ₦10 million: no range the bank does not give', async () => {
    const batch = await create(sandbox, [transfer({ amount: 1 }), transfer({ amount: 5_000_000_000 })]);
    expect(batch.items.map((i) => i.amount)).toEqual(['1', '5000000000']);
  });

  it('accepts a batch of exactly 10000 items', async () => {
    const items = transfers(10_000, { amount: 100 });
    const batch = await create(sandbox, items, keysA1, 'Ten thousand');
    expect(batch.totalItems).toBe(10_000);
    expect(batch.items).toHaveLength(10_000);
    expect(batch.items[9_999]?.itemIndex).toBe(9_999);
    expect(batch.items[9_999]?.retrievalReference).toBe(items[9_999]?.retrievalReference);
    expect(new Set(batch.items.map((i) => i.transactionReference)).size).toBe(10_000);
  });
});

describe('list bulk transfers', () => {
  const sandbox = useSandbox();
  const created: BulkTransferWithItemsView[] = [];
  let batchA2: BulkTransferWithItemsView;
  let batchB: BulkTransferWithItemsView;
  beforeAll(async () => {
    for (const name of ['First', 'Second', 'Third'])
      created.push(await create(sandbox, transfers(2), keysA1, name));
    batchA2 = await create(sandbox, transfers(1), keysA2, 'Of A2');
    batchB = await create(sandbox, transfers(1), keysB1, 'Of B');
  });

  it('lists the batches of the business, newest first, without items, with the pagination object', async () => {
    const { data, pagination } = await list(sandbox);
    // The fixtures' batch of A1 (`failed`, made before the others) is the oldest.
    expect(data.map((b) => b.batchName)).toEqual(['Third', 'Second', 'First', 'Payroll October']);
    expect(data.slice(0, 3).map((b) => b.id)).toEqual([...created].reverse().map((b) => b.id));
    expect(data[3]).toMatchObject({ id: fixture.batch, status: 'failed', totalItems: 1, failedItems: 1 });
    for (const summary of data) {
      expect(Object.keys(summary).sort()).toEqual(BATCH_KEYS);
      expect(summary).not.toHaveProperty('items');
    }
    for (const summary of data.slice(0, 3)) {
      const full = created.find((b) => b.id === summary.id);
      const { items: _items, ...withoutItems } = full ?? { items: [] };
      expect(summary).toEqual(withoutItems);
    }
    expect(pagination).toEqual(onePage(4, 10));
  });

  it('pages with page and limit', async () => {
    const first = await list(sandbox, keysA1, '?page=1&limit=2');
    expect(first.data.map((b) => b.batchName)).toEqual(['Third', 'Second']);
    expect(first.pagination).toEqual(pageAt(1, { totalCount: 4, limit: 2, lastPage: 2 }));
    const second = await list(sandbox, keysA1, '?page=2&limit=2');
    expect(second.data.map((b) => b.batchName)).toEqual(['First', 'Payroll October']);
    expect(second.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 });
  });

  it('takes a limit past 100: the bank gives none', async () => {
    const page = await list(sandbox, keysA1, '?limit=1000');
    expect(page.pagination.limit).toBe(1000);
    expect(page.data.length).toBe(page.pagination.totalCount);
  });

  it.each(['?page=0', '?limit=0', '?limit=1.5', '?page=abc'])('answers 400 to %s', async (query) => {
    const res = await call(sandbox, 'GET', `${BULK}${query}`, { headers: keysA1 });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });

  it("keeps businesses apart: B sees only B's batch, A2 only A2's", async () => {
    const ofB = await list(sandbox, keysB1);
    expect(ofB.data.map((b) => b.id)).toEqual([batchB.id]);
    expect(ofB.pagination.totalCount).toBe(1);
    const ofA2 = await list(sandbox, keysA2);
    expect(ofA2.data.map((b) => b.id)).toEqual([batchA2.id]);
    const ofA1 = await list(sandbox);
    expect(ofA1.data.map((b) => b.id)).not.toContain(batchB.id);
    expect(ofA1.data.map((b) => b.id)).not.toContain(batchA2.id);
  });
});

describe('get a bulk transfer', () => {
  const sandbox = useSandbox();

  it('answers 200 with all items ordered by itemIndex', async () => {
    const items = [500, 400, 300, 200, 100, 600].map((n) => transfer({ amount: n * 1000 }));
    const created = await create(sandbox, items);
    const res = await call(sandbox, 'GET', `${BULK}/${created.id}`, { headers: keysA1 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');
    const batch = dataOf(res, bulkTransferWithItems);
    expect(batch.items.map((i) => i.itemIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(batch.items.map((i) => i.amount)).toEqual(items.map((t) => String(t.amount)));
    expect(batch.items.map((i) => i.retrievalReference)).toEqual(items.map((t) => t.retrievalReference));
  });

  it("answers 404 to B's batch with A's credentials, and to A's with B's", async () => {
    const ofB = await create(sandbox, transfers(1), keysB1);
    const ofA = await create(sandbox, transfers(1));
    const res = await call(sandbox, 'GET', `${BULK}/${ofB.id}`, { headers: keysA1 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
    const reverse = await call(sandbox, 'GET', `${BULK}/${ofA.id}`, { headers: keysB1 });
    expect(reverse.status).toBe(404);
  });

  it("answers 404 to A1's batch asked for with businessId A2", async () => {
    const ofA1 = await create(sandbox, transfers(1));
    const res = await call(sandbox, 'GET', `${BULK}/${ofA1.id}`, { headers: keysA2 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it.each([UNKNOWN_ID, 'not-a-uuid'])('answers 404 to an unknown id %s', async (id) => {
    const res = await call(sandbox, 'GET', `${BULK}/${id}`, { headers: keysA1 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });
});

describe('process a bulk transfer', () => {
  const sandbox = useSandbox();

  it('answers 202 queued with a jobId, completes every item after drain, then refuses with 400', async () => {
    const items = [transfer({ amount: 100000 }), transfer({ amount: 600000 }), transfer({ amount: 6000000 })];
    const batch = await create(sandbox, items);
    const before = await ledgerOf(sandbox, A.a1.id);
    const res = await processBatch(sandbox, batch.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    const data = dataOf(res, bulkClaim);
    expect(data).toEqual({ bulkTransferId: batch.id, jobId: expect.any(String) });
    expect(data.jobId).toMatch(/\S/);

    await drain(sandbox);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({
      status: 'completed',
      completedItems: 3,
      failedItems: 0,
      totalItems: 3,
      failureReason: null,
    });
    expectCountersMatch(done);
    const after = await ledgerOf(sandbox, A.a1.id);
    expect(after.balance).toBe(before.balance - costOf(items));
    expect(after.balance).toBe(after.ledgerBalance);
    expect(costOf(items)).toBe(100000 + 1075 + 600000 + 2688 + 6000000 + 5375);

    const again = await processBatch(sandbox, batch.id);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ status: false, message: ALREADY_COMPLETED, data: null });
    await drain(sandbox);
    expect(await getBatch(sandbox, batch.id)).toEqual(done);
    expect((await ledgerOf(sandbox, A.a1.id)).balance).toBe(after.balance);
  });

  it.each([
    ['bulkTransferId missing', {}],
    ['a non-UUID bulkTransferId', { bulkTransferId: 'batch-1' }],
    ['a numeric bulkTransferId', { bulkTransferId: 42 }],
  ])('answers 400 to %s', async (_label, body) => {
    const res = await call(sandbox, 'POST', PROCESS, { headers: keysA1, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'bulkTransferId' })]),
    );
  });

  it('answers 404 to an unknown bulkTransferId', async () => {
    const res = await processBatch(sandbox, UNKNOWN_ID);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it("answers 404 to another business's batch and leaves it pending", async () => {
    const ofA1 = await create(sandbox, transfers(2));
    const ofB = await create(sandbox, transfers(1), keysB1);
    for (const [id, headers] of [
      [ofA1.id, keysA2],
      [ofA1.id, keysB1],
      [ofB.id, keysA1],
    ] as const) {
      const res = await processBatch(sandbox, id, headers);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, data: null });
    }
    await drain(sandbox);
    expect(await getBatch(sandbox, ofA1.id)).toEqual(ofA1);
    expect(await getBatch(sandbox, ofB.id, keysB1)).toEqual(ofB);
  });

  it('claims a batch once: of ten concurrent calls one gets 202, nine get 200; each item is debited once', async () => {
    const items = transfers(5, { amount: 200000 });
    const batch = await create(sandbox, items);
    const before = await ledgerOf(sandbox, A.a1.id);
    const answers = await Promise.all(Array.from({ length: 10 }, () => processBatch(sandbox, batch.id)));
    const queued = answers.filter((r) => r.status === 202);
    const already = answers.filter((r) => r.status === 200);
    expect(queued).toHaveLength(1);
    expect(already).toHaveLength(9);
    expect(queued[0]?.body).toMatchObject({ status: true, message: QUEUED });
    expect(queued[0]?.body.data).toEqual({ bulkTransferId: batch.id, jobId: expect.any(String) });
    for (const r of already) {
      expect(r.body).toMatchObject({ status: true, message: ALREADY_PROCESSING });
      expect(r.body.data).toEqual({ bulkTransferId: batch.id });
      expect(r.body.data).not.toHaveProperty('jobId');
    }

    await drain(sandbox);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'completed', completedItems: 5, failedItems: 0 });
    const ledger = await ledgerOf(sandbox, A.a1.id);
    const debits = bulkDebits(ledger, items);
    expect(debits).toHaveLength(5);
    expect(new Set(debits.map((d) => d.retrievalReference)).size).toBe(5);
    for (const d of debits)
      expect({ amount: d.amount, charge: d.charge }).toEqual({ amount: 200000, charge: 1075 });
    expect(ledger.balance).toBe(before.balance - costOf(items));
    expect(ledger.balance).toBe(ledger.ledgerBalance);
  });

  it('answers 400 No payment account for this business to A2 and marks the batch failed', async () => {
    const batch = await create(sandbox, transfers(2), keysA2);
    const res = await processBatch(sandbox, batch.id, keysA2);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: NO_ACCOUNT, data: null });
    await drain(sandbox);
    const failed = await getBatch(sandbox, batch.id, keysA2);
    expect(failed).toMatchObject({
      status: 'failed',
      failureReason: NO_ACCOUNT,
      completedItems: 0,
      failedItems: 0,
    });
    for (const item of failed.items) expect(item).toMatchObject({ status: 'pending', processedAt: null });
    expectCountersMatch(failed);
    // Failing to start again is still a 400, not "already being processed".
    const again = await processBatch(sandbox, batch.id, keysA2);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: NO_ACCOUNT });
  });

  it('answers 400 Insufficient Funds below the sum of the items, and a topped-up retry completes', async () => {
    const items = transfers(3, { amount: 300000 });
    const batch = await create(sandbox, items);
    await setBalance(sandbox, A.a1.id, 899_999);
    const res = await processBatch(sandbox, batch.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: 'Insufficient Funds', data: null });
    await drain(sandbox);
    const failed = await getBatch(sandbox, batch.id);
    expect(failed).toMatchObject({
      status: 'failed',
      failureReason: 'Insufficient Funds',
      completedItems: 0,
      failedItems: 0,
    });
    for (const item of failed.items) {
      expect(item).toMatchObject({ status: 'pending', processedAt: null, errorMessage: '', errorCode: '' });
    }
    const untouched = await ledgerOf(sandbox, A.a1.id);
    expect(untouched.balance).toBe(899_999);
    expect(bulkDebits(untouched, items)).toHaveLength(0);

    await setBalance(sandbox, A.a1.id, 10_000_000);
    const retry = await processBatch(sandbox, batch.id);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ status: true, message: QUEUED });
    expect(retry.body.data).toEqual({ bulkTransferId: batch.id, jobId: expect.any(String) });
    await drain(sandbox);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({
      status: 'completed',
      completedItems: 3,
      failedItems: 0,
      failureReason: null,
    });
    for (const item of done.items) expect(item.reprocessCount).toBe(0);
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.balance).toBe(10_000_000 - costOf(items));
    expect(ledger.balance).toBe(ledger.ledgerBalance);
  });

  it('completes a batch on a balance of exactly amount plus fee per item, leaving 0', async () => {
    const items = transfers(2, { amount: 100000 });
    const batch = await create(sandbox, items);
    await setBalance(sandbox, A.a1.id, 200000 + 2 * 1075);
    expect(await settleBatch(sandbox, batch.id)).toMatchObject({ status: 'completed', completedItems: 2 });
    expect((await ledgerOf(sandbox, A.a1.id)).balance).toBe(0);
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });

  it('never touches items that are not pending: processing a settled batch leaves its items as they are', async () => {
    const items = [transfer(), transfer({ receiverAccountNumber: '0000000051' }), transfer()];
    const batch = await create(sandbox, items);
    const settled = await settleBatch(sandbox, batch.id);
    expect(settled).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 1 });
    const before = await ledgerOf(sandbox, A.a1.id);

    const res = await processBatch(sandbox, batch.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: true, message: QUEUED });
    await drain(sandbox);
    const after = await getBatch(sandbox, batch.id);
    expect(after.items).toEqual(settled.items);
    expect(after).toMatchObject({ status: 'partially_completed', completedItems: 2, failedItems: 1 });
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.balance).toBe(before.balance);
    expect(ledger.transactions).toHaveLength(before.transactions.length);
  });
});

describe('process while a batch is processing', () => {
  const sandbox = useSandbox({ bulkItemDelay: 50 });

  it('answers 200 already being processed, without a jobId and without a balance check', async () => {
    const items = transfers(3, { amount: 100000 });
    const batch = await create(sandbox, items);
    const first = await processBatch(sandbox, batch.id);
    expect(first.status).toBe(202);

    const again = await processBatch(sandbox, batch.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: true, message: ALREADY_PROCESSING });
    expect(again.body.data).toEqual({ bulkTransferId: batch.id });

    const running = await getBatch(sandbox, batch.id);
    expect(running.status).toBe('processing');
    expectCountersMatch(running);

    // A balance that could never cover the batch: still "already being processed", never 400.
    await setBalance(sandbox, A.a1.id, 0);
    const broke = await processBatch(sandbox, batch.id);
    expect(broke.status).toBe(200);
    expect(broke.body).toMatchObject({ status: true, message: ALREADY_PROCESSING });
    expect(broke.body.data).not.toHaveProperty('jobId');

    await drain(sandbox);
    const done = await getBatch(sandbox, batch.id);
    expect(['completed', 'failed', 'partially_completed']).toContain(done.status);
    expect(done.failureReason).toBeNull();
    expectCountersMatch(done);
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.balance).toBeGreaterThanOrEqual(0);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(bulkDebits(ledger, items).length).toBe(done.completedItems);
  });
});

describe('audit log of bulk transfers', () => {
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  beforeAll(async () => {
    owner = await ownerHeaders(sandbox);
  });

  async function audits(): Promise<{ data: AuditEntryView[]; total: number }> {
    const res = await call(sandbox, 'GET', `${AUDITS}?limit=100`, { headers: owner });
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, auditEntry);
    return { data, total: pagination.totalCount };
  }

  it('writes a transaction entry on create (create) and another on process (process)', async () => {
    const start = await audits();
    const batch = await create(sandbox, transfers(2));
    const afterCreate = await audits();
    expect(afterCreate.total).toBe(start.total + 1);
    expect(afterCreate.data[0]).toMatchObject({ type: 'transaction', action: 'create' });

    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await drain(sandbox);
    const afterProcess = await audits();
    expect(afterProcess.total).toBe(afterCreate.total + 1);
    expect(afterProcess.data[0]).toMatchObject({ type: 'transaction', action: 'process' });
    expect(afterProcess.data[0]?.id).not.toBe(afterCreate.data[0]?.id);
  });

  it("does not show A1's bulk entries to B", async () => {
    const ofB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const res = await call(sandbox, 'GET', `${AUDITS}?limit=100`, { headers: ofB });
    expect(res.status).toBe(200);
    expect(pageOf(res, auditEntry).data.filter((a) => a.type === 'transaction')).toHaveLength(0);
  });
});
