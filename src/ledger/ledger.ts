import { type Clock, isoAt } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import type { TransactionRecord } from '../domain/records.js';
import { transactionReference } from '../domain/references.js';
import type { Store, Tx } from '../store/store.js';

export const BALANCE_TOO_LARGE =
  'The balance would exceed the largest amount the sandbox can hold (2^53 - 1 kobo)';

/**
 * What a posting says; the ledger adds the balance after and the time, and the id unless one is given. Only an
 * incoming payment names the virtual account it arrived on.
 */
export type Posting = Omit<
  TransactionRecord,
  'id' | 'balanceAfter' | 'createdAt' | 'virtualAccountNumber'
> & {
  id?: string;
  virtualAccountNumber?: string;
};

/** The signed change an entry makes to its business's balance: failed entries change nothing. */
export function ledgerEffect(
  t: Pick<TransactionRecord, 'status' | 'direction' | 'amount' | 'charge'>,
): number {
  if (t.status !== 'successful') return 0;
  return t.direction === 'debit' ? -(t.amount + t.charge) : t.amount - t.charge;
}

/**
 * Writes a ledger entry and moves the business's balance by its effect, in the caller's mutation. The caller
 * checks the balance first: an entry that would take it below zero is a bug, and throws.
 */
export function post(tx: Tx, clock: Clock, posting: Posting): TransactionRecord {
  const business = tx.get('businesses', posting.businessId);
  if (!business) throw new Error(`no business ${posting.businessId}`);
  const balanceAfter = business.balance + ledgerEffect(posting);
  if (balanceAfter < 0) throw new Error(`posting would overdraw business ${business.id}`);
  // Past 2^53 kobo amounts stop being exact: the sandbox refuses to hold more than that.
  if (!Number.isSafeInteger(balanceAfter)) throw new ApiError(400, BALANCE_TOO_LARGE);
  const now = clock.now();
  let id = posting.id;
  // A given id (a bulk item's transaction reference) must be new: a second entry would be a second debit.
  if (id !== undefined && tx.get('transactions', id)) throw new Error(`ledger entry ${id} exists already`);
  while (id === undefined || tx.get('transactions', id)) id = transactionReference(tx.random(), now);
  const entry: TransactionRecord = {
    ...posting,
    id,
    balanceAfter,
    virtualAccountNumber: posting.virtualAccountNumber ?? null,
    createdAt: isoAt(clock),
  };
  tx.put('transactions', entry);
  if (balanceAfter !== business.balance) tx.put('businesses', { ...business, balance: balanceAfter });
  return entry;
}

/** The balance the ledger explains: the opening balance plus every entry's effect. */
export function ledgerBalance(store: Pick<Store, 'get' | 'where'>, businessId: string): number {
  const business = store.get('businesses', businessId);
  if (!business) throw new Error(`no business ${businessId}`);
  let balance = business.openingBalance;
  for (const t of store.where('transactions', 'businessId', businessId)) balance += ledgerEffect(t);
  return balance;
}
