import type { IncomingPayment, PaymentReceivedView } from '../../contract/control/incoming-payments.js';
import type { Deps } from '../../deps.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { incomingCharge } from '../../domain/fees.js';
import type {
  DeliveryRecord,
  ScheduledRecord,
  VirtualAccountRecord,
  WebhookPayload,
} from '../../domain/records.js';
import { pruneDeliveries } from '../../engine/delivery-log.js';
import type { ScheduleSink } from '../../engine/scheduler.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import { post } from '../../ledger/ledger.js';
import { accountState } from '../virtual-accounts/service.js';
import { scheduleRefund } from './refunds.js';

/** The payer's account number a webhook names when the payment did not say it. */
const UNKNOWN_PAYER_ACCOUNT = '0000000000';

/**
 * Why the account should not take a payment (a 409 unless it is to be refunded): a temporal or single-use account
 * past its expiry, a single-use account that took its payment already, or an amount other than the one it reserves.
 * Null when it takes it.
 */
function mispaidBecause(account: VirtualAccountRecord, amount: number, now: number): string | null {
  const kind = account.type === 'single_use' ? 'single-use' : 'temporal';
  switch (accountState(account, now)) {
    case 'used':
      return 'This single-use virtual account has already received its payment';
    case 'expired':
      return `This ${kind} virtual account has expired`;
    case 'open':
      break;
  }
  if (account.reservedAmount !== null && amount !== account.reservedAmount)
    return `This single-use virtual account takes exactly ${account.reservedAmount} kobo, not ${amount}`;
  return null;
}

/**
 * Money arrives on a virtual account: the business is credited the amount less the incoming charge, the
 * ledger records the credit, and one webhook delivery of the spec's payload is created in the same mutation
 * (`skipped` when the client has no webhook URL), then handed to the dispatcher.
 */
export async function receivePayment(
  deps: Deps,
  webhooks: WebhookDispatcher,
  input: IncomingPayment,
  later?: ScheduleSink,
): Promise<PaymentReceivedView> {
  const { store, clock, fixtures, config } = deps;
  let refund: ScheduledRecord | undefined;
  const delivery = await store.mutate((tx) => {
    const account = tx.where('virtualAccounts', 'accountNumber', input.accountNumber)[0];
    if (!account) throw new ApiError(404, 'Virtual account not found');
    const mispaid = mispaidBecause(account, input.amount, clock.now());
    if (mispaid !== null && input.mispaid !== 'refund') throw new ApiError(409, mispaid);
    const client = tx.get('clients', account.clientId);
    if (!client) throw new ApiError(404, 'Virtual account not found');
    const charge = incomingCharge(input.amount, fixtures.fees);
    const payerName = input.accountName ?? 'Sandbox Payer';
    // The ledger keeps what the payment said (no payer account: ''); the webhook payload has an account number
    // whatever happens, so it sends ten zeros for an unknown payer.
    const payerAccount = input.payerAccountNumber ?? '';
    const payerBank = input.payerBankCode ?? '058';
    const narration = input.narration ?? `Transfer to ${account.accountName}`;
    const entry = post(tx, clock, {
      businessId: account.businessId,
      kind: 'incoming_payment',
      direction: 'credit',
      status: 'successful',
      amount: input.amount,
      charge,
      retrievalReference: null,
      narration,
      counterparty: { accountNumber: payerAccount, bankCode: payerBank, accountName: payerName },
      virtualAccountNumber: account.accountNumber,
      errorCode: '',
      errorMessage: '',
      providerReference: null,
      fingerprint: null,
      requestId: null,
    });
    const bankName = fixtures.banks.banks.find((b) => b.code === payerBank)?.name ?? '';
    const payload: WebhookPayload = {
      transactionReference: entry.id,
      virtualAccountRef: account.clientRef,
      transactionDate: entry.createdAt,
      amount: input.amount,
      charge,
      availableBalance: entry.balanceAfter,
      ledgerBalance: entry.balanceAfter,
      accountName: payerName,
      accountNumber: payerAccount || UNKNOWN_PAYER_ACCOUNT,
      recipientAccountNumber: account.accountNumber,
      recpientAccountName: account.accountName,
      description: `Payment received on virtual account ${account.accountNumber}`,
      narration,
      depositorDetails: {
        accountName: payerName,
        accountNumber: payerAccount || UNKNOWN_PAYER_ACCOUNT,
        bankCode: payerBank,
        bankName,
      },
    };
    const record: DeliveryRecord = {
      id: tx.random().uuid(),
      clientId: client.id,
      businessId: account.businessId,
      transactionReference: entry.id,
      ordinal: deps.scenarios.ordinal(`delivery:${account.businessId}`),
      url: client.webhookUrl,
      payload,
      status: client.webhookUrl ? 'pending' : 'skipped',
      attempts: [],
      attemptsLeft: client.webhookUrl ? config.webhookAttempts : 0,
      nextAttemptAt: client.webhookUrl ? clock.now() : null,
      createdAt: isoAt(clock),
    };
    tx.put('deliveries', record);
    // Money the account should not have taken goes back later; the account stays as it was (a single-use one still
    // waits for its one right payment).
    if (mispaid !== null) refund = scheduleRefund(tx, deps, entry, mispaid);
    // A single-use account has taken its one payment: from now on it refuses any other.
    else if (account.type === 'single_use') tx.put('virtualAccounts', { ...account, usedBy: entry.id });
    if (record.status !== 'pending') pruneDeliveries(tx, client.id, config.deliveryLogSize);
    return record;
  });
  if (refund) later?.add(refund);
  if (delivery.status === 'pending') webhooks.deliver(delivery.id);
  return {
    transactionReference: delivery.transactionReference,
    deliveryId: delivery.id,
    deliveryStatus: delivery.status,
  };
}
