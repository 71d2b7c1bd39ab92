import type { ReversalView } from '../../contract/control/reversals.js';
import type { Deps } from '../../deps.js';
import { operator } from '../../domain/actor.js';
import { type Clock, isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import type { ScheduledRecord, TransactionRecord } from '../../domain/records.js';
import { scheduleJob } from '../../engine/scheduler.js';
import { post } from '../../ledger/ledger.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';

/** Why a transfer is reversed when nobody says. */
export const DEFAULT_REVERSAL_REASON = 'Reversed by the receiving bank';

/** The ledger kinds of money sent out: what a reversal gives back. */
const SENT = new Set<TransactionRecord['kind']>(['transfer', 'anonymous_transfer', 'bulk_transfer']);

const NOT_SUCCESSFUL = 'Only a successful transfer can be reversed';

/**
 * The transfer a business's `retrievalReference` names: a single transfer (the reference is unique among those), or
 * an item of one of its batches (`bulkTransferId` picks the batch where items of several share the reference). Its
 * ledger entry, once it is one that can be reversed: 404 for none, 409 for several, for a reversed one, or for one
 * that did not succeed (failed, or an item not `completed`).
 */
function transferNamed(
  tx: Pick<Tx, 'get' | 'where'>,
  businessId: string,
  retrievalReference: string,
  bulkTransferId: string | undefined,
): TransactionRecord {
  if (!tx.get('businesses', businessId)) throw new ApiError(404, 'Business not found');
  type Found = { entry: TransactionRecord | undefined; batch: string | null };
  const found: Found[] = [];
  if (bulkTransferId === undefined)
    for (const t of tx.where('transactions', 'retrievalReference', retrievalReference))
      if (t.businessId === businessId && (t.kind === 'transfer' || t.kind === 'anonymous_transfer'))
        found.push({ entry: t, batch: null });
  for (const batch of tx.where('bulkTransfers', 'businessId', businessId)) {
    if (bulkTransferId !== undefined && batch.id !== bulkTransferId) continue;
    for (const item of tx.where('bulkItems', 'bulkTransferId', batch.id)) {
      if (item.retrievalReference !== retrievalReference) continue;
      const entry =
        item.status === 'completed' ? tx.get('transactions', item.transactionReference) : undefined;
      found.push({ entry, batch: batch.id });
    }
  }
  const [only, ...more] = found;
  if (!only) throw new ApiError(404, 'Transfer not found');
  if (more.length > 0) {
    const names = found.map((f) => (f.batch === null ? 'a single transfer' : `batch ${f.batch}`));
    throw new ApiError(
      409,
      `retrievalReference names more than one transfer of this business (${names.join(', ')}): give bulkTransferId`,
    );
  }
  const entry = only.entry;
  if (entry?.reversedAt !== undefined) throw new ApiError(409, 'Transfer already reversed');
  if (entry?.status !== 'successful') throw new ApiError(409, NOT_SUCCESSFUL);
  return entry;
}

/** A reversal as the control API answers it: the original's reference and amounts (strings, as on the wire). */
function view(entry: TransactionRecord): ReversalView {
  return {
    retrievalReference: entry.retrievalReference ?? '',
    transactionReference: entry.id,
    amount: String(entry.amount),
    transactionCharge: String(entry.charge),
    totalAmount: String(entry.amount + entry.charge),
    reason: entry.reversalReason ?? DEFAULT_REVERSAL_REASON,
    reversedAt: entry.reversedAt ?? '',
  };
}

/**
 * Reverses a successful transfer in the caller's mutation: its amount and charge back to the business as one ledger
 * entry of kind `reversal` naming it, the original marked `reversedAt` and `reversalReason`, one audit entry. Throws
 * the 409 of a transfer that cannot be reversed (already reversed, not successful, not money sent out).
 */
export function reverseEntry(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  entry: TransactionRecord,
  reason: string,
): TransactionRecord {
  if (entry.reversedAt !== undefined) throw new ApiError(409, 'Transfer already reversed');
  if (entry.status !== 'successful' || !SENT.has(entry.kind)) throw new ApiError(409, NOT_SUCCESSFUL);
  const business = tx.get('businesses', entry.businessId);
  if (!business) throw new ApiError(404, 'Business not found');
  const reference = entry.retrievalReference ?? '';
  post(tx, deps.clock, {
    businessId: entry.businessId,
    kind: 'reversal',
    direction: 'credit',
    status: 'successful',
    // What the transfer took, given back whole: its charge is no income of a reversal's.
    amount: entry.amount + entry.charge,
    charge: 0,
    retrievalReference: null,
    narration: `Reversal of ${reference}: ${reason}`,
    counterparty: entry.counterparty,
    errorCode: '',
    errorMessage: '',
    providerReference: null,
    fingerprint: null,
    requestId: null,
    reverses: { retrievalReference: reference, transactionReference: entry.id },
  });
  const reversed: TransactionRecord = { ...entry, reversedAt: isoAt(deps.clock), reversalReason: reason };
  tx.put('transactions', reversed);
  recordAudit(tx, deps, operator(business.clientId), {
    businessId: business.id,
    type: 'transaction',
    action: 'reversal',
  });
  return reversed;
}

/** `POST /__sandbox/businesses/{businessId}/transfers/{retrievalReference}/reverse`: reverses it now. */
export async function reverseTransfer(
  deps: Pick<Deps, 'store' | 'clock'>,
  businessId: string,
  retrievalReference: string,
  { reason, bulkTransferId }: { reason?: string | undefined; bulkTransferId?: string | undefined },
): Promise<ReversalView> {
  const reversed = await deps.store.mutate((tx) => {
    const entry = transferNamed(tx, businessId, retrievalReference, bulkTransferId);
    return reverseEntry(tx, deps, entry, reason ?? DEFAULT_REVERSAL_REASON);
  });
  return view(reversed);
}

/**
 * Schedules the reversal of a transfer that has just succeeded (a rule's `reverse`), in the caller's mutation, so
 * that the transfer and its reversal to come are kept together.
 */
export function scheduleReversal(
  tx: Tx,
  clock: Clock,
  entry: TransactionRecord,
  reverse: { afterMs: number; reason?: string | undefined },
): ScheduledRecord {
  return scheduleJob(tx, clock, {
    kind: 'reversal',
    afterMs: reverse.afterMs,
    businessId: entry.businessId,
    target: entry.id,
    reason: reverse.reason ?? null,
  });
}

/**
 * A scheduled reversal, when it is due: the transfer is reversed unless it was already (by hand meanwhile) or is
 * gone (a reset). Never throws for those: the job is simply done.
 */
export function runReversal(deps: Pick<Deps, 'clock'>) {
  return (tx: Tx, job: ScheduledRecord): undefined => {
    const entry = tx.get('transactions', job.target);
    if (!entry || entry.reversedAt !== undefined || entry.status !== 'successful') return undefined;
    reverseEntry(tx, deps, entry, job.reason ?? DEFAULT_REVERSAL_REASON);
    return undefined;
  };
}
