import { ledgerBalance, ledgerEffect } from '../ledger/ledger.js';
import type { Store, StoreChange } from '../store/store.js';

/**
 * The ledger balance of each business the live feed has shown (opening balance plus every entry), kept current by
 * adding each new entry's effect as the store reports it. Summing a business's whole ledger for each frame would
 * cost a walk of every entry ten times a second while transfers flow: a busy business has hundreds of thousands.
 * It lives while the feed listens: a feed with no page to serve drops it, having stopped hearing the changes.
 */
export class LedgerTotals {
  private readonly totals = new Map<string, number>();

  constructor(private readonly store: Pick<Store, 'get' | 'where'>) {}

  /** A business's ledger balance: summed once, then kept. */
  of(businessId: string): number {
    let total = this.totals.get(businessId);
    if (total === undefined) {
      total = ledgerBalance(this.store, businessId);
      this.totals.set(businessId, total);
    }
    return total;
  }

  /** The store's changes, as its listeners get them. */
  heard(changes: readonly StoreChange[] | 'replaced'): void {
    if (changes === 'replaced') {
      this.totals.clear();
      return;
    }
    for (const { collection, id, created } of changes) {
      if (collection !== 'transactions') continue;
      const entry = this.store.get('transactions', id);
      // An entry gone (a write undone) or changed after it was made: its business is summed again when asked; a
      // gone one's business is not known any more, so every one is.
      if (!entry) this.totals.clear();
      else if (!created) this.totals.delete(entry.businessId);
      else {
        const total = this.totals.get(entry.businessId);
        if (total !== undefined) this.totals.set(entry.businessId, total + ledgerEffect(entry));
      }
    }
  }

  clear(): void {
    this.totals.clear();
  }
}
