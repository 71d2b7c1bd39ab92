import type {
  ApprovedBusinessView,
  BalanceSetView,
  LedgerQuery,
  LedgerView,
} from '../../contract/control/money.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { paginate } from '../../domain/pagination.js';
import { ledgerBalance, post } from '../../ledger/ledger.js';
import { approveBusiness } from '../business/service.js';

/**
 * Sets a business's available balance. The difference goes through the ledger as a balance adjustment, so the
 * balance still equals the opening balance plus the ledger.
 */
export async function setBalance(deps: Deps, businessId: string, balance: number): Promise<BalanceSetView> {
  return deps.store.mutate((tx) => {
    const business = tx.get('businesses', businessId);
    if (!business) throw new ApiError(404, 'Business not found');
    const difference = balance - business.balance;
    if (difference !== 0) {
      post(tx, deps.clock, {
        businessId,
        kind: 'balance_adjustment',
        direction: difference > 0 ? 'credit' : 'debit',
        status: 'successful',
        amount: Math.abs(difference),
        charge: 0,
        retrievalReference: null,
        narration: 'Balance set through the sandbox control API',
        counterparty: null,
        errorCode: '',
        errorMessage: '',
        providerReference: null,
        fingerprint: null,
        requestId: null,
      });
    }
    return { businessId, accountBalance: String(balance) };
  });
}

/** Approves a business as the bank's back office would, opening its payment account. */
export async function approve(deps: Deps, businessId: string): Promise<ApprovedBusinessView> {
  const { isApproved, accountNumber, accountType, customerId } = await approveBusiness(deps, businessId);
  // The API's service spreads an account that may be null; an approval always opens one.
  if (!isApproved || accountNumber === undefined || accountType === undefined || customerId === undefined)
    throw new Error(`business ${businessId} has no payment account after its approval`);
  return { businessId, isApproved, accountNumber, accountType, customerId };
}

/**
 * A page of a business's ledger, newest first, with the balance it explains next to the stored one; with a
 * `retrievalReference`, only the entry of the transfer sent with it (where a failed transfer's `errorCode` and a
 * dispute's `transactionId` are read).
 */
export function ledgerOf(deps: Deps, businessId: string, query: LedgerQuery): LedgerView {
  const business = deps.store.get('businesses', businessId);
  if (!business) throw new ApiError(404, 'Business not found');
  const { retrievalReference } = query;
  const entries =
    retrievalReference === undefined
      ? deps.store.where('transactions', 'businessId', businessId)
      : deps.store
          .where('transactions', 'retrievalReference', retrievalReference)
          .filter((t) => t.businessId === businessId);
  const { data, pagination } = paginate(entries.reverse(), query, (entry) => entry);
  return {
    businessId,
    openingBalance: business.openingBalance,
    balance: business.balance,
    ledgerBalance: ledgerBalance(deps.store, businessId),
    transactions: data,
    pagination,
  };
}
