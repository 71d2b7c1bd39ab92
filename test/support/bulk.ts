import { expect } from 'vitest';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import { type BulkTransferWithItemsView, bulkTransferWithItems } from '../../src/contract/api/bulk.js';
import type { LedgerView } from '../../src/contract/control/money.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf } from './answers.js';
import { feeFor, references } from './money.js';
import { A, call, schemeB } from './sandbox.js';

/** The bulk transfer route: create (POST), list (GET) and, with `/:id`, get. */
export const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
/** The route that processes a batch. */
export const PROCESS = `${BULK}/process`;
/** The route that reprocesses the failed items of a batch. */
export const REPROCESS = `${BULK}/reprocess`;

/** The message of a 202 to process or reprocess. */
export const QUEUED = 'Bulk transfer queued for processing';
/** The message of a 200 to process or reprocess while the batch is processing. */
export const ALREADY_PROCESSING = 'Bulk transfer is already being processed';
/** The message of a 400 to process or reprocess a completed batch. */
export const ALREADY_COMPLETED = 'Bulk transfer is already completed';

/** The bank every helper transfer goes to unless told another: the first of fixtures/banks.json. */
export const BANK = banks.banks[0]?.code ?? '';
/** The account every helper transfer goes to unless told another. */
export const RECEIVER = '0123456789';

/** Scheme B headers of client A on business A1 (approved, with a balance). */
export const keysA1 = schemeB(A.publicKey, A.secretKey, A.a1.id);
/** Scheme B headers of client A on business A2 (not approved, no payment account). */
export const keysA2 = schemeB(A.publicKey, A.secretKey, A.a2.id);

/** One transfer of a bulk transfer request. */
export interface Transfer {
  amount: number | string;
  receiverAccountNumber: string;
  receiverBankCode: string;
  retrievalReference: string;
  narration: string;
}

/** How the bulk helpers of one test file label, narrate, name and check what they make. */
export interface BulkOptions {
  /** The prefix of the retrieval references `ref` makes unless told another. */
  label: string;
  /** The narration of every transfer `transfer` makes. */
  narration: string;
  /** The batchName `create` sends unless told another. */
  batchName: string;
  /** Whether `create` and `getBatch` also expect `status: true` in the answer. */
  expectStatusTrue?: boolean;
}

/** Bulk helpers of one test file, with a retrieval reference counter of their own. */
export function bulkHelpers(options: BulkOptions) {
  const ref = references(options.label);

  /** A transfer of 100 000 kobo to RECEIVER at BANK with a fresh retrieval reference. */
  function transfer(overrides: Partial<Transfer> = {}): Transfer {
    return {
      amount: 100000,
      receiverAccountNumber: RECEIVER,
      receiverBankCode: BANK,
      retrievalReference: ref(),
      narration: options.narration,
      ...overrides,
    };
  }

  /** `n` transfers, each with a fresh retrieval reference. */
  function transfers(n: number, overrides: Partial<Transfer> = {}): Transfer[] {
    return Array.from({ length: n }, () => transfer(overrides));
  }

  /** Creates a batch of `items`; it must answer 201. */
  async function create(
    sandbox: Sandbox,
    items: Transfer[],
    headers: Record<string, string> = keysA1,
    batchName = options.batchName,
  ): Promise<BulkTransferWithItemsView> {
    const res = await call(sandbox, 'POST', BULK, { headers, body: { batchName, transfers: items } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    if (options.expectStatusTrue) expect(res.body.status).toBe(true);
    return dataOf(res, bulkTransferWithItems);
  }

  /** Reads a batch with its items; it must answer 200. */
  async function getBatch(
    sandbox: Sandbox,
    id: string,
    headers: Record<string, string> = keysA1,
  ): Promise<BulkTransferWithItemsView> {
    const res = await call(sandbox, 'GET', `${BULK}/${id}`, { headers });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    if (options.expectStatusTrue) expect(res.body.status).toBe(true);
    return dataOf(res, bulkTransferWithItems);
  }

  /**
   * Processes the batch `id` (it must answer 202), waits until the sandbox's queued work has finished, and reads
   * the batch back as it settled.
   */
  async function settleBatch(
    sandbox: Sandbox,
    id: string,
    headers: Record<string, string> = keysA1,
  ): Promise<BulkTransferWithItemsView> {
    const res = await processBatch(sandbox, id, headers);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(202);
    await drain(sandbox);
    return getBatch(sandbox, id, headers);
  }

  /** Creates a batch of `items` and answers it settled (see `settleBatch`). */
  async function settle(
    sandbox: Sandbox,
    items: Transfer[],
    headers: Record<string, string> = keysA1,
    batchName = options.batchName,
  ): Promise<BulkTransferWithItemsView> {
    const batch = await create(sandbox, items, headers, batchName);
    return settleBatch(sandbox, batch.id, headers);
  }

  return { ref, transfer, transfers, create, getBatch, settleBatch, settle };
}

/** What the items of a batch cost when they all go through: amount plus fee each. */
export function costOf(items: readonly Transfer[]): number {
  return items.reduce((sum, t) => sum + Number(t.amount) + feeFor(Number(t.amount)), 0);
}

/** Asks to process a batch; answers the response as it is. */
export function processBatch(sandbox: Sandbox, id: string, headers: Record<string, string> = keysA1) {
  return call(sandbox, 'POST', PROCESS, { headers, body: { bulkTransferId: id } });
}

/** Waits until the sandbox's queued work has finished; it must answer 200. */
export async function drain(sandbox: Sandbox): Promise<void> {
  const res = await call(sandbox, 'POST', '/__sandbox/drain');
  expect(res.status).toBe(200);
}

/** The successful bulk debits of the ledger for the retrieval references of these items. */
export function bulkDebits(
  ledger: LedgerView,
  items: readonly { retrievalReference: string }[],
): LedgerView['transactions'] {
  const wanted = new Set(items.map((i) => i.retrievalReference));
  return ledger.transactions.filter(
    (t) =>
      t.kind === 'bulk_transfer' &&
      t.status === 'successful' &&
      t.retrievalReference !== null &&
      wanted.has(t.retrievalReference),
  );
}

/** The counters of a batch are exactly the item states. */
export function expectCountersMatch(batch: BulkTransferWithItemsView): void {
  expect(batch.totalItems).toBe(batch.items.length);
  expect(batch.completedItems).toBe(batch.items.filter((i) => i.status === 'completed').length);
  expect(batch.failedItems).toBe(batch.items.filter((i) => i.status === 'failed').length);
}
