import type { Deps } from '../../deps.js';
import { makeNuban } from '../../domain/nuban.js';
import type { Tx } from '../../store/store.js';

// What every capability that holds or moves money shares about the accounts of the home bank.

/** The refusal of a business not approved yet: it has no payment account to send from or receive to. */
export const NO_PAYMENT_ACCOUNT = 'No payment account for this business';

/**
 * A fresh NUBAN of the home bank, unused by any account or virtual account: two lookups, whatever the number of
 * businesses (a suite that makes a client a test must not slow down as they pile up).
 */
export function newAccountNumber(tx: Tx, deps: Pick<Deps, 'fixtures'>): string {
  const bank = deps.fixtures.banks.homeBankCode;
  const taken = (n: string) =>
    tx.countWhere('virtualAccounts', 'accountNumber', n) > 0 ||
    tx.countWhere('businesses', 'accountNumber', n) > 0;
  for (;;) {
    const candidate = makeNuban(bank, tx.random().digits(9));
    if (!taken(candidate)) return candidate;
  }
}
