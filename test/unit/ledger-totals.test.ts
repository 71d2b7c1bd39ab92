import { describe, expect, it } from 'vitest';
import { LedgerTotals } from '../../src/dashboard/ledger-totals.js';
import type { StoreChange } from '../../src/store/store.js';

// The live feed's ledger balances: summed once per business, then kept by each new entry's effect.

interface Entry {
  id: string;
  businessId: string;
  status: 'successful' | 'failed';
  direction: 'debit' | 'credit';
  amount: number;
  charge: number;
}

/** A store of one business (opening balance 10 000 kobo) and its entries, counting the walks of its ledger. */
function fakeStore() {
  const entries = new Map<string, Entry>();
  const business = { id: 'b1', openingBalance: 10_000 };
  let walks = 0;
  const store = {
    get: (collection: string, id: string) =>
      collection === 'businesses' ? (id === business.id ? business : undefined) : entries.get(id),
    where: (_collection: string, _field: string, businessId: string) => {
      walks++;
      return [...entries.values()].filter((e) => e.businessId === businessId);
    },
  };
  const add = (entry: Entry): StoreChange => {
    entries.set(entry.id, entry);
    return { collection: 'transactions', id: entry.id, created: true };
  };
  return { store, entries, add, walks: () => walks };
}

const entry = (id: string, fields: Partial<Entry> = {}): Entry => ({
  id,
  businessId: 'b1',
  status: 'successful',
  direction: 'debit',
  amount: 1_000,
  charge: 50,
  ...fields,
});

describe('LedgerTotals', () => {
  it('sums a business once, then adds each new entry without walking its ledger again', () => {
    const { store, add, walks } = fakeStore();
    const totals = new LedgerTotals(store as never);
    expect(totals.of('b1')).toBe(10_000);
    totals.heard([add(entry('t1'))]);
    totals.heard([add(entry('t2', { direction: 'credit', amount: 5_000 }))]);
    // A failed entry moves nothing.
    totals.heard([add(entry('t3', { status: 'failed' }))]);
    expect(totals.of('b1')).toBe(10_000 - 1_050 + 4_950);
    expect(walks()).toBe(1);
  });

  it('sums again a business whose entry changed, and every business after an entry went or the state was replaced', () => {
    const { store, entries, add, walks } = fakeStore();
    const totals = new LedgerTotals(store as never);
    totals.of('b1');
    totals.heard([add(entry('t1'))]);
    entries.set('t1', entry('t1', { status: 'failed' }));
    totals.heard([{ collection: 'transactions', id: 't1', created: false }]);
    expect(totals.of('b1')).toBe(10_000);
    expect(walks()).toBe(2);
    entries.delete('t1');
    totals.heard([{ collection: 'transactions', id: 't1', created: true }]);
    expect(totals.of('b1')).toBe(10_000);
    expect(walks()).toBe(3);
    totals.heard('replaced');
    totals.of('b1');
    expect(walks()).toBe(4);
  });

  it('does not start a total for a business nobody asked for, and ignores other collections', () => {
    const { store, add, walks } = fakeStore();
    const totals = new LedgerTotals(store as never);
    totals.heard([add(entry('t1')), { collection: 'businesses', id: 'b1', created: false }]);
    expect(walks()).toBe(0);
    expect(totals.of('b1')).toBe(10_000 - 1_050);
  });
});
