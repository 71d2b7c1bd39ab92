import type {
  BulkClaimView,
  BulkItemView,
  BulkTransferView,
  BulkTransferWithItemsView,
  CreateBulkInput,
} from '../../contract/api/bulk.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { claimDecision, settledStatus } from '../../domain/bulk-state.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError, type FieldError } from '../../domain/errors.js';
import { type PageQuery, paginate } from '../../domain/pagination.js';
import type { BulkItemRecord, BulkTransferRecord, BusinessRecord } from '../../domain/records.js';
import { transactionReference } from '../../domain/references.js';
import type { BulkStatus } from '../../domain/statuses.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import type { Tx } from '../../store/store.js';
import { NO_PAYMENT_ACCOUNT } from '../accounts/accounts.js';
import { recordAudit } from '../audits/service.js';

function itemView(i: BulkItemRecord): BulkItemView {
  return {
    id: i.id,
    itemIndex: i.itemIndex,
    amount: String(i.amount),
    receiverAccountNumber: i.receiverAccountNumber,
    receiverBankCode: i.receiverBankCode,
    retrievalReference: i.retrievalReference,
    transactionReference: i.transactionReference,
    // Present only once the item has been reprocessed.
    ...(i.originalTransactionReference === null
      ? {}
      : { originalTransactionReference: i.originalTransactionReference }),
    status: i.status,
    errorMessage: i.errorMessage,
    errorCode: i.errorCode,
    providerReference: i.providerReference,
    reprocessCount: i.reprocessCount,
    processedAt: i.processedAt,
  };
}

export function batchView(b: BulkTransferRecord): BulkTransferView {
  return {
    id: b.id,
    bulkReference: b.bulkReference,
    businessId: b.businessId,
    batchName: b.batchName,
    totalItems: b.totalItems,
    completedItems: b.completedItems,
    failedItems: b.failedItems,
    status: b.status,
    failureReason: b.failureReason,
    createdAt: b.createdAt,
  };
}

/** A batch with all its items, in submission order. */
export function fullView(deps: Deps, b: BulkTransferRecord): BulkTransferWithItemsView {
  const items = deps.store.where('bulkItems', 'bulkTransferId', b.id);
  items.sort((x, y) => x.itemIndex - y.itemIndex);
  return { ...batchView(b), items: items.map(itemView) };
}

/** A transaction reference no ledger entry and no bulk item uses, nor any in `taken` (this batch's so far). */
function freshReference(tx: Tx, now: number, taken: Set<string>): string {
  for (;;) {
    const ref = transactionReference(tx.random(), now);
    if (
      !taken.has(ref) &&
      !tx.get('transactions', ref) &&
      tx.where('bulkItems', 'transactionReference', ref).length === 0
    ) {
      taken.add(ref);
      return ref;
    }
  }
}

/** The batch, scoped to the client and business: anything else is 404, as if it did not exist. */
function batchOf(tx: Pick<Tx, 'get'>, business: BusinessRecord, id: string): BulkTransferRecord {
  const batch = tx.get('bulkTransfers', id);
  if (!batch || batch.businessId !== business.id || batch.clientId !== business.clientId) {
    throw new ApiError(404, 'Bulk transfer not found');
  }
  return batch;
}

/** Creates a batch: every item `pending`, in the order submitted. `requestId`: the creating request's, kept on it. */
export async function createBulk(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: CreateBulkInput,
  requestId: string | null = null,
) {
  const banks = new Set(deps.fixtures.banks.banks.map((b) => b.code));
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  input.transfers.forEach((t, i) => {
    if (!banks.has(t.receiverBankCode)) {
      errors.push({ field: `transfers[${i}].receiverBankCode`, message: 'Invalid bank code' });
    }
    const first = seen.get(t.retrievalReference);
    if (first !== undefined) {
      errors.push({
        field: `transfers[${i}].retrievalReference`,
        message: `duplicates the retrievalReference of transfers[${first}]`,
      });
    } else seen.set(t.retrievalReference, i);
  });
  const [first] = errors;
  if (first) throw new ApiError(400, `${first.field}: ${first.message}`, errors);

  // Taken with the batch's creation, in the order calls arrive; kept on the batch (see `ordinal` in records).
  const ordinal = deps.scenarios.ordinal(`batch:${business.id}`);
  const batch = await deps.store.mutate((tx) => {
    const random = tx.random();
    const now = deps.clock.now();
    const createdAt = isoAt(deps.clock);
    const record: BulkTransferRecord = {
      id: random.uuid(),
      clientId: business.clientId,
      businessId: business.id,
      bulkReference: `BLK-${createdAt.slice(0, 10).replace(/-/g, '')}-${random.digits(8)}`,
      batchName: input.batchName,
      ordinal,
      totalItems: input.transfers.length,
      completedItems: 0,
      failedItems: 0,
      status: 'pending',
      failureReason: null,
      jobId: null,
      requestId,
      createdAt,
    };
    tx.put('bulkTransfers', record);
    const taken = new Set<string>();
    input.transfers.forEach((t, itemIndex) => {
      tx.put('bulkItems', {
        id: random.uuid(),
        bulkTransferId: record.id,
        itemIndex,
        amount: t.amount,
        receiverAccountNumber: t.receiverAccountNumber,
        receiverBankCode: t.receiverBankCode,
        retrievalReference: t.retrievalReference,
        narration: t.narration,
        transactionReference: freshReference(tx, now, taken),
        originalTransactionReference: null,
        status: 'pending',
        errorMessage: '',
        errorCode: '',
        providerReference: '',
        reprocessCount: 0,
        processedAt: null,
      });
    });
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'transaction',
      action: 'create',
    });
    return record;
  });
  return fullView(deps, batch);
}

export function getBulk(deps: Deps, business: BusinessRecord, id: string) {
  return fullView(deps, batchOf(deps.store, business, id));
}

export function listBulk(deps: Deps, business: BusinessRecord, query: PageQuery) {
  return paginate(deps.store.where('bulkTransfers', 'businessId', business.id).reverse(), query, batchView);
}

/** How a process or reprocess call ended: queued (202), already running (200), or failed to start (400). */
export type ClaimOutcome =
  | { kind: 'queued'; jobId: string; itemIds: string[] }
  | { kind: 'already-processing' }
  | { kind: 'failed'; message: string };

/** The batch's `pending` items, in submission order. */
function pendingOf(tx: Pick<Tx, 'where'>, batch: BulkTransferRecord): BulkItemRecord[] {
  const pending = tx.where('bulkItems', 'bulkTransferId', batch.id).filter((i) => i.status === 'pending');
  return pending.sort((x, y) => x.itemIndex - y.itemIndex);
}

/**
 * Why the claim cannot go ahead once the state table let it through: the business has no payment account, or its
 * balance is below the sum of the items that would be queued. Null when it can. Reads only.
 */
function refusal(
  tx: Pick<Tx, 'get'>,
  batch: BulkTransferRecord,
  queued: readonly BulkItemRecord[],
): string | null {
  const business = tx.get('businesses', batch.businessId);
  if (!business?.account) return NO_PAYMENT_ACCOUNT;
  const sum = queued.reduce((total, i) => total + i.amount, 0);
  return business.balance < sum ? 'Insufficient Funds' : null;
}

/**
 * The claim itself, once `refusal` found nothing against it, inside the caller's mutation: the batch set
 * `processing` with its pending items to queue. A claim with nothing to queue settles at once to the status its
 * counters give (every item is finished), so that no batch is left `processing` with nothing to run.
 */
function claim(tx: Tx, batch: BulkTransferRecord, pending: readonly { id: string }[]): ClaimOutcome {
  const jobId = tx.random().uuid();
  const settled: BulkStatus | null =
    pending.length === 0 ? settledStatus(batch.totalItems, batch.completedItems, batch.failedItems) : null;
  tx.put('bulkTransfers', { ...batch, status: settled ?? 'processing', failureReason: null, jobId });
  return { kind: 'queued', jobId, itemIds: pending.map((i) => i.id) };
}

/** After the claim's mutation is durable: queue, or turn a failure into its 400. */
function settle(engine: BulkProcessor, outcome: ClaimOutcome): ClaimOutcome {
  if (outcome.kind === 'failed') throw new ApiError(400, outcome.message);
  if (outcome.kind === 'queued') engine.enqueue(outcome.itemIds);
  return outcome;
}

export async function processBulk(
  deps: Deps,
  engine: BulkProcessor,
  actor: Actor,
  business: BusinessRecord,
  id: string,
) {
  const outcome = await deps.store.mutate((tx): ClaimOutcome => {
    const batch = batchOf(tx, business, id);
    const decision = claimDecision(batch.status);
    if (decision === 'already-processing') return { kind: 'already-processing' };
    if (decision === 'already-completed') throw new ApiError(400, 'Bulk transfer is already completed');
    const pending = pendingOf(tx, batch);
    const refused = refusal(tx, batch, pending);
    if (refused !== null) {
      // The spec's state table: a process refused after the claim leaves the batch `failed` with the reason.
      tx.put('bulkTransfers', { ...batch, status: 'failed', failureReason: refused });
      return { kind: 'failed', message: refused };
    }
    const result = claim(tx, batch, pending);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'transaction',
      action: 'process',
    });
    return result;
  });
  return settle(engine, outcome);
}

/**
 * Puts failed items back to `pending` (all of them, or the one `itemId`), each with a new transaction reference,
 * the first one kept, `reprocessCount + 1` and cleared errors, and claims the batch like a process call: one
 * decision in one mutation. Every check (state table, items, payment account, balance over the items that would
 * be pending) comes before the first write to an item. A batch-level reprocess refused after the claim (no payment
 * account, `Insufficient Funds`) sets the batch `failed` with that `failureReason`, as the spec says, and touches
 * no item; every other refusal (and a single item's, whatever the reason) changes nothing at all.
 */
export async function reprocessBulk(
  deps: Deps,
  engine: BulkProcessor,
  actor: Actor,
  business: BusinessRecord,
  id: string,
  itemId: string | undefined,
) {
  const outcome = await deps.store.mutate((tx): ClaimOutcome => {
    const batch = batchOf(tx, business, id);
    const decision = claimDecision(batch.status);
    if (decision === 'already-processing') return { kind: 'already-processing' };
    if (decision === 'already-completed') throw new ApiError(400, 'Bulk transfer is already completed');
    const items = tx.where('bulkItems', 'bulkTransferId', batch.id);
    let chosen: BulkItemRecord[];
    if (itemId === undefined) {
      chosen = items.filter((i) => i.status === 'failed');
      if (chosen.length === 0) throw new ApiError(400, 'There are no failed items to reprocess');
    } else {
      const item = items.find((i) => i.id === itemId);
      if (!item) throw new ApiError(404, 'Bulk transfer item not found');
      if (item.status !== 'failed')
        throw new ApiError(400, `Only failed items can be reprocessed; this one is ${item.status}`);
      chosen = [item];
    }
    const pending = [...pendingOf(tx, batch), ...chosen].sort((x, y) => x.itemIndex - y.itemIndex);
    const refused = refusal(tx, batch, pending);
    if (refused !== null) {
      // A single item's reprocess refused changes nothing at all; a batch-level one is refused after the claim,
      // and leaves the batch `failed` with the reason, as the spec says (its items untouched).
      if (itemId !== undefined) throw new ApiError(400, refused);
      tx.put('bulkTransfers', { ...batch, status: 'failed', failureReason: refused });
      return { kind: 'failed', message: refused };
    }

    const now = deps.clock.now();
    const taken = new Set<string>();
    for (const item of chosen) {
      tx.put('bulkItems', {
        ...item,
        status: 'pending',
        originalTransactionReference: item.originalTransactionReference ?? item.transactionReference,
        transactionReference: freshReference(tx, now, taken),
        reprocessCount: item.reprocessCount + 1,
        errorMessage: '',
        errorCode: '',
        providerReference: '',
        processedAt: null,
      });
    }
    const reopened = { ...batch, failedItems: batch.failedItems - chosen.length };
    const result = claim(tx, reopened, pending);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'transaction',
      action: 'reprocess',
    });
    return result;
  });
  return settle(engine, outcome);
}

/** A claim as the bank answers it. */
export function claimAnswer(
  id: string,
  outcome: ClaimOutcome,
): { status: 202; data: BulkClaimView } | { data: BulkClaimView } {
  return outcome.kind === 'queued'
    ? { status: 202, data: { bulkTransferId: id, jobId: outcome.jobId } }
    : { data: { bulkTransferId: id } };
}
