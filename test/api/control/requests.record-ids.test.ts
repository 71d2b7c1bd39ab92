import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { clientBulkTransferWithItems } from '../../../src/contract/control/bulk-transfers.js';
import { stateExport } from '../../../src/contract/control/state.js';
import { bulkTransferRecord, transactionRecord } from '../../../src/domain/records.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { bodyOf, dataOf } from '../../support/answers.js';
import { BANK, bulkHelpers, drain, keysA1, processBatch } from '../../support/bulk.js';
import { ledgerOf, references, setBalance, transferEntry } from '../../support/money.js';
import { A, call, memorySandbox, ownerHeaders } from '../../support/sandbox.js';
import { incomingPayment, webhookSetup } from '../../support/webhooks.js';

// The records know the request that made them: a transfer's ledger entry and a batch keep the `x-request-id` the
// sandbox answered with; what the sandbox made itself keeps null.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const ref = references('reqid');
const bulk = bulkHelpers({ label: 'reqid-bulk', narration: 'Request ids', batchName: 'Request ids' });

let sandbox: Sandbox;
let headers: Record<string, string>;
beforeEach(async () => {
  sandbox = await memorySandbox();
  headers = await ownerHeaders(sandbox);
});

const transfer = (retrievalReference: string, requestId?: string) =>
  call(sandbox, 'POST', TRANSFER, {
    headers: requestId === undefined ? headers : { ...headers, 'x-request-id': requestId },
    body: {
      amount: 150000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: BANK,
      retrievalReference,
      narration: 'Invoice 42',
    },
  });

/** The ledger entry of the transfer sent with `retrievalReference` (the ledger's own filter finds it). */
const entryOf = (retrievalReference: string) => transferEntry(sandbox, retrievalReference);

/** The state export, and its transactions and batches read with the store's own record schemas. */
async function exportState() {
  const exported = bodyOf(await call(sandbox, 'GET', '/__sandbox/state'), stateExport);
  return {
    exported,
    transactions: z.array(transactionRecord).parse(exported.collections.transactions),
    bulkTransfers: z.array(bulkTransferRecord).parse(exported.collections.bulkTransfers),
  };
}

describe('a transfer’s ledger entry', () => {
  it('keeps the x-request-id the sandbox answered with, and the answer does not show it', async () => {
    const reference = ref();
    const res = await transfer(reference);
    expect(res.status).toBe(200);
    const answered = res.headers.get('x-request-id');
    expect(answered).toMatch(/\S/);
    expect((await entryOf(reference)).requestId).toBe(answered);
    expect(JSON.stringify(res.body)).not.toContain('requestId');
  });

  it('keeps the first request’s id when the transfer is replayed', async () => {
    const reference = ref();
    expect((await transfer(reference, 'first-call')).status).toBe(200);
    expect((await transfer(reference, 'second-call')).status).toBe(200);
    expect((await entryOf(reference)).requestId).toBe('first-call');
  });

  it('keeps the id of a failed transfer too', async () => {
    await setBalance(sandbox, A.a1.id, 0);
    const reference = ref();
    expect((await transfer(reference, 'broke-call')).status).toBe(400);
    expect(await entryOf(reference)).toMatchObject({ status: 'failed', requestId: 'broke-call' });
  });
});

describe('what the sandbox made itself', () => {
  it('keeps null: a balance adjustment, an incoming payment', async () => {
    await setBalance(sandbox, A.a1.id, 1_000_000);
    const { account } = await webhookSetup(sandbox, null, { type: 'permanent', reference: ref() });
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 50_000 });
    expect(paid.status).toBe(201);
    const kinds = (await ledgerOf(sandbox)).transactions
      .filter((t) => t.kind === 'balance_adjustment' || t.kind === 'incoming_payment')
      .map((t) => [t.kind, t.requestId]);
    // After the two payments the fixtures give A1, which no request made either.
    expect(kinds).toEqual([
      ['incoming_payment', null],
      ['balance_adjustment', null],
      ['incoming_payment', null],
      ['incoming_payment', null],
    ]);
  });
});

describe('a bulk transfer', () => {
  it('keeps the id of the request that created it; its items’ debits, made in the background, keep null', async () => {
    const items = bulk.transfers(2);
    const res = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/bulk-transfer', {
      headers: { ...keysA1, 'x-request-id': 'batch-call' },
      body: { batchName: 'Request ids', transfers: items },
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain('requestId');
    const id = (res.body.data as { id: string }).id;
    expect((await processBatch(sandbox, id)).status).toBe(202);
    await drain(sandbox);
    const batch = dataOf(
      await call(sandbox, 'GET', `/__sandbox/bulk-transfers/${id}`),
      clientBulkTransferWithItems,
    );
    expect(batch.requestId).toBe('batch-call');
    const list = await call(sandbox, 'GET', '/__sandbox/bulk-transfers');
    expect((list.body.data as { id: string; requestId: unknown }[]).find((b) => b.id === id)?.requestId).toBe(
      'batch-call',
    );
    const debits = (await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'bulk_transfer');
    expect(debits.map((t) => t.requestId)).toEqual([null, null]);
  });
});

describe('the state', () => {
  it('round-trips the ids through export and import', async () => {
    const reference = ref();
    await transfer(reference, 'kept-call');
    await bulk.create(sandbox, bulk.transfers(1), { ...keysA1, 'x-request-id': 'kept-batch' });
    const { exported, transactions, bulkTransfers } = await exportState();
    expect(transactions.find((t) => t.retrievalReference === reference)?.requestId).toBe('kept-call');
    expect(bulkTransfers.map((b) => b.requestId)).toContain('kept-batch');
    await call(sandbox, 'POST', '/__sandbox/reset');
    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: exported })).status).toBe(200);
    expect((await entryOf(reference)).requestId).toBe('kept-call');
    const again = await exportState();
    expect(again.bulkTransfers.map((b) => b.requestId)).toContain('kept-batch');
  });

  it('loads a state written before the ids were kept: null', async () => {
    const reference = ref();
    await transfer(reference, 'old-call');
    await bulk.create(sandbox, bulk.transfers(1), keysA1);
    const { exported, transactions, bulkTransfers } = await exportState();
    const strip = <T extends { requestId?: unknown }>(records: T[]) =>
      records.map(({ requestId: _dropped, ...rest }) => rest);
    const old = {
      ...exported,
      collections: {
        ...exported.collections,
        transactions: strip(transactions),
        bulkTransfers: strip(bulkTransfers),
      },
    };
    expect(JSON.stringify(old.collections.transactions)).not.toContain('requestId');
    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: old })).status).toBe(200);
    expect((await entryOf(reference)).requestId).toBeNull();
    const list = await call(sandbox, 'GET', '/__sandbox/bulk-transfers');
    // The batch made here, and the fixtures' own.
    expect((list.body.data as { requestId: unknown }[]).map((b) => b.requestId)).toEqual([null, null]);
  });
});
