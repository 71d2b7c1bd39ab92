import { createHash } from 'node:crypto';
import type { TransferInput, TransferResultView } from '../../contract/api/transfers.js';
import type { FiredRule, RuleEffect } from '../../contract/scenarios.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { ApiError } from '../../domain/errors.js';
import { transferFee } from '../../domain/fees.js';
import type { BusinessRecord, ScheduledRecord, TransactionRecord } from '../../domain/records.js';
import { nipSessionId } from '../../domain/references.js';
import { INSUFFICIENT_FUNDS, type TransferFailure } from '../../domain/transfer-failure.js';
import type { ScheduleSink } from '../../engine/scheduler.js';
import { post } from '../../ledger/ledger.js';
import type { Hit } from '../../scenarios/controller.js';
import type { ScenarioEvent } from '../../scenarios/matcher.js';
import type { Tx } from '../../store/store.js';
import { NO_PAYMENT_ACCOUNT } from '../accounts/accounts.js';
import { recordAudit } from '../audits/service.js';
import { scheduleReversal } from '../reversals/service.js';

export type TransferKind = 'transfer' | 'anonymous_transfer';

/** What the request a transfer came with says of it, besides its body. */
export interface TransferOptions {
  /** A ready scenario the request picked for itself. */
  scenario?: string;
  /** Hears the scenario rule that applied, if one did (the request journal shows it). */
  fired?: (rule: FiredRule) => void;
  /** The request's `x-request-id`, kept on the ledger entry; null (the default) when no request made it. */
  requestId?: string | null;
  /**
   * Hears a rule with `after: "commit"` that applied, with the event it fired on: the transfer runs as if it had
   * not, and the request's answer is lost after the commit.
   */
  lost?: (hit: Hit, key: string) => void;
  /** Where a reversal the rules scheduled goes once the transfer is durable (the world's scheduler). */
  later?: ScheduleSink;
}

/** The bank code must be one of the fixtures' CBN/NIP banks. */
export function assertKnownBank(deps: Deps, code: string): void {
  if (!deps.fixtures.banks.banks.some((b) => b.code === code)) throw new ApiError(400, 'Invalid bank code');
}

function fingerprint(kind: TransferKind, input: TransferInput): string {
  const { amount, receiverAccountNumber, receiverBankCode, narration } = input;
  return createHash('sha256')
    .update(JSON.stringify([kind, amount, receiverAccountNumber, receiverBankCode, narration]))
    .digest('hex');
}

/**
 * The answer to a transfer, built from its ledger entry (so a replay answers exactly the same): the spec's three
 * amounts when it went through, the provider's message as a 400 when it did not. Nothing else goes out (the docs
 * show exactly these fields, and `data: null` on every error): the entry's reference and error code are in the
 * ledger (`GET /__sandbox/businesses/{id}/ledger?retrievalReference=`), and its request in the journal.
 */
function outcome(entry: TransactionRecord): TransferResultView {
  if (entry.status === 'failed') throw new ApiError(400, entry.errorMessage);
  return {
    amount: String(entry.amount),
    transactionCharge: String(entry.charge),
    totalAmount: String(entry.amount + entry.charge),
  };
}

/** The earlier transfer of the business with this retrieval reference, if any (both transfer kinds share them). */
function previousTransfer(tx: Pick<Tx, 'where'>, businessId: string, retrievalReference: string) {
  return tx
    .where('transactions', 'retrievalReference', retrievalReference)
    .find((t) => t.businessId === businessId && (t.kind === 'transfer' || t.kind === 'anonymous_transfer'));
}

/**
 * Sends money from the business account. The scenario rules are asked first (a rule may fail the transfer
 * with a provider code, or delay it), unless the reference was used before. Then, within one synchronous
 * mutation: a repeated `retrievalReference` answers what the first request got (same body) or 409 (another
 * body); a failure from the rules or a balance that does not cover amount plus fee records a failed entry and
 * debits nothing; otherwise the ledger debits `amount + charge`. So two concurrent transfers can never
 * overdraw the account. A replay answers from the first entry, which keeps the first request's `requestId`.
 */
export async function sendTransfer(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: TransferInput,
  kind: TransferKind,
  { scenario: chosenScenario, fired, requestId = null, lost, later }: TransferOptions = {},
): Promise<TransferResultView> {
  assertKnownBank(deps, input.receiverBankCode);
  const print = fingerprint(kind, input);
  let ruled: TransferFailure | undefined;
  let reverse: RuleEffect['reverse'];
  let event: ScenarioEvent | undefined;
  if (!previousTransfer(deps.store, business.id, input.retrievalReference)) {
    // Keyed on the transfer's place among its business's transfers, not on the client's reference: the same
    // sequence of calls draws the same with fresh references each run.
    const ordinal = deps.scenarios.ordinal(`transfer:${business.id}`, chosenScenario);
    const key = `transfer ${ordinal}`;
    event = {
      on: 'transfer',
      clientId: business.clientId,
      businessId: business.id,
      accountNumber: input.receiverAccountNumber,
      bankCode: input.receiverBankCode,
      amount: input.amount,
      nthInBusiness: ordinal + 1,
      key,
      reference: input.retrievalReference,
      narration: input.narration,
    };
    const matched = deps.scenarios.matchAll(event, chosenScenario, fired);
    if (matched.afterCommit) lost?.(matched.afterCommit, key);
    reverse = matched.reverse?.effect.reverse;
    const effect = matched.hit?.effect;
    if (effect?.delayMs) await deps.clock.sleep(effect.delayMs);
    ruled = effect?.fail;
  }
  let scheduled: ScheduledRecord | undefined;
  const entry = await deps.store.mutate((tx) => {
    const current = tx.get('businesses', business.id);
    if (!current?.account) throw new ApiError(400, NO_PAYMENT_ACCOUNT);
    const previous = previousTransfer(tx, business.id, input.retrievalReference);
    if (previous) {
      if (previous.fingerprint !== print) {
        throw new ApiError(409, 'Duplicate retrievalReference: it was used for a different transfer');
      }
      return previous;
    }
    const charge = transferFee(input.amount, deps.fixtures.fees);
    const total = input.amount + charge;
    const failure = ruled ?? (current.balance < total ? INSUFFICIENT_FUNDS : undefined);
    const now = deps.clock.now();
    const entry = post(tx, deps.clock, {
      businessId: business.id,
      kind,
      direction: 'debit',
      status: failure ? 'failed' : 'successful',
      amount: input.amount,
      charge,
      retrievalReference: input.retrievalReference,
      narration: input.narration,
      counterparty: {
        accountNumber: input.receiverAccountNumber,
        bankCode: input.receiverBankCode,
        accountName: '',
      },
      errorCode: failure?.errorCode ?? '',
      errorMessage: failure?.errorMessage ?? '',
      providerReference: failure ? null : nipSessionId(deps.fixtures.banks.homeBankCode, tx.random(), now),
      fingerprint: print,
      requestId,
    });
    recordAudit(tx, deps, actor, { businessId: business.id, type: 'transaction', action: 'transfer' });
    // A transfer that failed is never reversed.
    if (reverse && entry.status === 'successful')
      scheduled = scheduleReversal(tx, deps.clock, entry, reverse);
    // Money that went out counts in the windows of the limits (`match.over`), in the same step as the debit, so a
    // transfer checked right after this one sees it.
    if (event && entry.status === 'successful') deps.scenarios.settled(event, chosenScenario);
    return entry;
  });
  if (scheduled) later?.add(scheduled);
  return outcome(entry);
}
