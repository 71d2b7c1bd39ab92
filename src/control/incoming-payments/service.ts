import type { Deps } from '../../deps.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { incomingCharge } from '../../domain/fees.js';
import { pruneDeliveries } from '../../engine/delivery-log.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import { post } from '../../ledger/ledger.js';
import type { DeliveryRecord, WebhookPayload } from '../../store/records.js';
import type { PaymentReceivedView } from './schemas.js';

export interface IncomingPayment {
  accountNumber: string;
  amount: number;
  accountName?: string | undefined;
  payerAccountNumber?: string | undefined;
  payerBankCode?: string | undefined;
  narration?: string | undefined;
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
): Promise<PaymentReceivedView> {
  const { store, clock, fixtures, config } = deps;
  const delivery = await store.mutate((tx) => {
    const account = tx.where('virtualAccounts', 'accountNumber', input.accountNumber)[0];
    if (!account) throw new ApiError(404, 'Virtual account not found');
    if (account.expiresAt !== null && account.expiresAt <= clock.now()) {
      throw new ApiError(409, 'This temporal virtual account has expired');
    }
    const client = tx.get('clients', account.clientId);
    if (!client) throw new ApiError(404, 'Virtual account not found');
    const charge = incomingCharge(input.amount, fixtures.fees);
    const payerName = input.accountName ?? 'Sandbox Payer';
    const payerAccount = input.payerAccountNumber ?? '0000000000';
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
      accountNumber: payerAccount,
      recipientAccountNumber: account.accountNumber,
      recpientAccountName: account.accountName,
      description: `Payment received on virtual account ${account.accountNumber}`,
      narration,
      depositorDetails: {
        accountName: payerName,
        accountNumber: payerAccount,
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
    if (record.status !== 'pending') pruneDeliveries(tx, client.id, config.deliveryLogSize);
    return record;
  });
  if (delivery.status === 'pending') webhooks.deliver(delivery.id);
  return {
    transactionReference: delivery.transactionReference,
    deliveryId: delivery.id,
    deliveryStatus: delivery.status,
  };
}
