import type { Deps } from '../../deps.js';
import { makeNuban } from '../../domain/nuban.js';
import type { Tx } from '../../store/store.js';

// What every capability that holds or moves money shares about the accounts of the home bank.

/** The refusal of a business not approved yet: it has no payment account to send from or receive to. */
export const NO_PAYMENT_ACCOUNT = 'No payment account for this business';

/** A fresh NUBAN of the home bank, unused by any account or virtual account. */
export function newAccountNumber(tx: Tx, deps: Pick<Deps, 'fixtures' | 'store'>): string {
  const bank = deps.fixtures.banks.homeBankCode;
  const taken = (n: string) =>
    tx.where('virtualAccounts', 'accountNumber', n).length > 0 ||
    deps.store.all('businesses').some((b) => b.account?.accountNumber === n);
  for (;;) {
    const candidate = makeNuban(bank, tx.random().digits(9));
    if (!taken(candidate)) return candidate;
  }
}
