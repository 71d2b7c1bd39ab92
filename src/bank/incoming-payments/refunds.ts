import type { RefundView } from '../../contract/control/reversals.js';
import type { Deps } from '../../deps.js';
import { operator } from '../../domain/actor.js';
import { ApiError } from '../../domain/errors.js';
import type { ScheduledRecord, TransactionRecord } from '../../domain/records.js';
import { scheduleJob } from '../../engine/scheduler.js';
import { post } from '../../ledger/ledger.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';

/** Why a payment is refunded when nobody says. */
export const DEFAULT_REFUND_REASON = 'Refunded to the payer';

/** What a payment credited, which its refund takes back: the amount less the incoming charge. */
const credited = (payment: TransactionRecord) => payment.amount - payment.charge;

/** Why a payment cannot be refunded now; null when it can. */
function refundProblem(tx: Pick<Tx, 'get'>, payment: TransactionRecord): string | null {
  if (payment.refundStatus === 'refunded') return 'Payment already refunded';
  const business = tx.get('businesses', payment.businessId);
  if (!business || business.balance < credited(payment))
    return `The available balance cannot cover the refund of ${credited(payment)} kobo`;
  return null;
}

/**
 * Refunds a payment in the caller's mutation: what it credited is debited back as one ledger entry of kind `refund`
 * naming it, the payment's `refundStatus` becomes `refunded`, one audit entry is written. The caller has checked
 * `refundProblem`.
 */
function refundEntry(tx: Tx, deps: Pick<Deps, 'clock'>, payment: TransactionRecord, reason: string) {
  const business = tx.get('businesses', payment.businessId);
  if (!business) throw new ApiError(404, 'Payment not found');
  const entry = post(tx, deps.clock, {
    businessId: payment.businessId,
    kind: 'refund',
    direction: 'debit',
    status: 'successful',
    amount: credited(payment),
    charge: 0,
    retrievalReference: null,
    narration: `Refund of ${payment.id}: ${reason}`,
    counterparty: payment.counterparty,
    errorCode: '',
    errorMessage: '',
    providerReference: null,
    fingerprint: null,
    requestId: null,
    refunds: payment.id,
  });
  tx.put('transactions', { ...payment, refundStatus: 'refunded' });
  recordAudit(tx, deps, operator(business.clientId), {
    businessId: business.id,
    type: 'transaction',
    action: 'refund',
  });
  return entry;
}

/** `POST /__sandbox/incoming-payments/{transactionReference}/refund`: refunds a credited payment now. */
export async function refundPayment(
  deps: Pick<Deps, 'store' | 'clock'>,
  transactionReference: string,
  reason: string | undefined,
): Promise<RefundView> {
  const why = reason ?? DEFAULT_REFUND_REASON;
  const entry = await deps.store.mutate((tx) => {
    const payment = tx.get('transactions', transactionReference);
    if (payment?.kind !== 'incoming_payment' || payment.status !== 'successful')
      throw new ApiError(404, 'Payment not found');
    const problem = refundProblem(tx, payment);
    if (problem !== null) throw new ApiError(409, problem);
    return refundEntry(tx, deps, payment, why);
  });
  return {
    transactionReference,
    refundReference: entry.id,
    amount: String(entry.amount),
    refundStatus: 'refunded',
    reason: why,
    refundedAt: entry.createdAt,
  };
}

/**
 * A mispaid payment's refund to come, in the mutation that credits it: the payment is `pending` refund, and the job
 * is due `--refund-delay` later on the sandbox clock. The caller hands the job to the scheduler once it is durable.
 */
export function scheduleRefund(
  tx: Tx,
  deps: Pick<Deps, 'clock' | 'config'>,
  payment: TransactionRecord,
  reason: string,
): ScheduledRecord {
  tx.put('transactions', { ...payment, refundStatus: 'pending' });
  return scheduleJob(tx, deps.clock, {
    kind: 'refund',
    afterMs: deps.config.refundDelay,
    businessId: payment.businessId,
    target: payment.id,
    reason,
  });
}

/**
 * A scheduled refund, when it is due: refunded when the balance covers it, else `failed` with nothing debited; a
 * payment refunded by hand meanwhile, or gone, is left as it is.
 */
export function runRefund(deps: Pick<Deps, 'clock'>) {
  return (tx: Tx, job: ScheduledRecord): undefined => {
    const payment = tx.get('transactions', job.target);
    if (payment?.refundStatus !== 'pending') return undefined;
    if (refundProblem(tx, payment) !== null) tx.put('transactions', { ...payment, refundStatus: 'failed' });
    else refundEntry(tx, deps, payment, job.reason ?? DEFAULT_REFUND_REASON);
    return undefined;
  };
}
