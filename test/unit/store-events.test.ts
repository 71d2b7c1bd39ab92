import { describe, expect, it } from 'vitest';
import { type RequestEntry, RequestJournal } from '../../src/http/request-log.js';
import { Store, type StoreChange } from '../../src/store/store.js';
import { journalEntry } from '../support/journal.js';
import { baseState, customer } from '../support/store.js';

const memory = () =>
  Store.open({ file: null, compactAfterBytes: 1 << 30, initialState: async () => baseState() });

type Event = readonly StoreChange[] | 'replaced';

/** A store with a listener that records every call. */
async function watched(): Promise<{ store: Store; events: Event[]; off: () => void }> {
  const store = await memory();
  const events: Event[] = [];
  const off = store.subscribe((changes) => {
    events.push(changes === 'replaced' ? changes : [...changes]);
  });
  return { store, events, off };
}

describe('Store.subscribe', () => {
  it('tells the listener the {collection, id, created} of every record a mutation put or deleted, once per commit', async () => {
    const { store, events } = await watched();
    await store.mutate((tx) => {
      tx.put('customers', customer('c1'));
      tx.put('customers', customer('c2'));
    });
    expect(events).toEqual([
      [
        { collection: 'customers', id: 'c1', created: true },
        { collection: 'customers', id: 'c2', created: true },
      ],
    ]);

    await store.mutate((tx) => {
      tx.delete('customers', 'c1');
      tx.put('customers', { ...customer('c2'), name: 'Renamed' });
      tx.put('roles', { id: 'r1', name: 'Auditor' });
    });
    expect(events).toHaveLength(2);
    // A deletion and an update are not new records; the role is.
    expect(events[1]).toEqual([
      { collection: 'customers', id: 'c1', created: false },
      { collection: 'customers', id: 'c2', created: false },
      { collection: 'roles', id: 'r1', created: true },
    ]);
  });

  it('calls in commit order, synchronously, with the committed state readable', async () => {
    const store = await memory();
    const seen: { ids: string[]; names: (string | undefined)[] }[] = [];
    store.subscribe((changes) => {
      if (changes === 'replaced') throw new Error('unexpected replaced');
      seen.push({
        ids: changes.map((c) => c.id),
        names: changes.map((c) => store.get('customers', c.id)?.name),
      });
    });
    const first = store.mutate((tx) => tx.put('customers', customer('a')));
    // Told before the mutation's promise resolves (it is told before the change is durable).
    expect(seen).toEqual([{ ids: ['a'], names: ['Customer a'] }]);
    const second = store.mutate((tx) => tx.put('customers', { ...customer('a'), name: 'Second' }));
    const third = store.mutate((tx) => tx.delete('customers', 'a'));
    await Promise.all([first, second, third]);
    expect(seen).toEqual([
      { ids: ['a'], names: ['Customer a'] },
      { ids: ['a'], names: ['Second'] },
      { ids: ['a'], names: [undefined] },
    ]);
  });

  it('tells nothing of a mutation that throws, which is rolled back', async () => {
    const { store, events } = await watched();
    await store.mutate((tx) => tx.put('customers', customer('kept')));
    events.length = 0;
    expect(() =>
      store.mutate((tx) => {
        tx.put('customers', customer('lost'));
        tx.delete('customers', 'kept');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(events).toEqual([]);
    expect(store.get('customers', 'lost')).toBeUndefined();
    expect(store.get('customers', 'kept')).toBeDefined();
    // The next commit carries only its own changes, none of the rolled-back ones.
    await store.mutate((tx) => tx.put('customers', customer('next')));
    expect(events).toEqual([[{ collection: 'customers', id: 'next', created: true }]]);
  });

  it('tells nothing of a mutation that changes nothing', async () => {
    const { store, events } = await watched();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    events.length = 0;
    const seq = store.stats().seq;
    const read = await store.mutate((tx) => tx.get('customers', 'c1')?.id);
    expect(read).toBe('c1');
    await store.mutate((tx) => tx.random().uuid());
    await store.mutate(() => undefined);
    expect(events).toEqual([]);
    expect(store.stats().seq).toBe(seq);
  });

  it("tells 'replaced' after replaceState", async () => {
    const { store, events } = await watched();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    events.length = 0;
    const doc = baseState();
    await store.replaceState(doc);
    expect(events).toEqual(['replaced']);
    expect(store.get('customers', 'c1')).toBeUndefined();
    // Mutations after the replacement are told as usual.
    await store.mutate((tx) => tx.put('customers', customer('c2')));
    expect(events).toEqual(['replaced', [{ collection: 'customers', id: 'c2', created: true }]]);
  });

  it('stops telling a listener once unsubscribed, and keeps telling the others', async () => {
    const store = await memory();
    const one: Event[] = [];
    const two: Event[] = [];
    const offOne = store.subscribe((changes) => one.push(changes));
    const offTwo = store.subscribe((changes) => two.push(changes));
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);

    offOne();
    await store.mutate((tx) => tx.put('customers', customer('c2')));
    await store.replaceState(baseState());
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(3);
    expect(two[2]).toBe('replaced');

    offTwo();
    offTwo();
    await store.mutate((tx) => tx.put('customers', customer('c3')));
    expect(two).toHaveLength(3);
  });
});

function entry(n: number): RequestEntry {
  return journalEntry({
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    method: 'GET',
    path: `/r/${n}`,
    status: 200,
    durationMs: n,
    requestId: `req-${n}`,
    warnings: [],
  });
}

describe('RequestJournal.subscribe', () => {
  it('tells the listener each entry added from then on, in order', () => {
    const journal = new RequestJournal(10);
    journal.add(entry(0));
    const seen: RequestEntry[] = [];
    journal.subscribe((e) => seen.push(e));
    const added = [entry(1), entry(2), entry(3)];
    for (const e of added) journal.add(e);
    expect(seen).toEqual(added);
    expect(seen[0]).toBe(added[0]);
  });

  it('stops telling a listener once unsubscribed, and keeps telling the others', () => {
    const journal = new RequestJournal(10);
    const one: string[] = [];
    const two: string[] = [];
    const offOne = journal.subscribe((e) => one.push(e.requestId));
    journal.subscribe((e) => two.push(e.requestId));
    journal.add(entry(1));
    offOne();
    journal.add(entry(2));
    expect(one).toEqual(['req-1']);
    expect(two).toEqual(['req-1', 'req-2']);
    // Unsubscribing does not stop the journal keeping entries.
    expect(journal.entries().map((e) => e.requestId)).toEqual(['req-2', 'req-1']);
  });

  it('keeps only capacity entries in the ring while the listener hears every one', () => {
    const journal = new RequestJournal(3);
    const seen: string[] = [];
    journal.subscribe((e) => seen.push(e.requestId));
    for (let n = 1; n <= 8; n++) journal.add(entry(n));
    expect(seen).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5', 'req-6', 'req-7', 'req-8']);
    expect(journal.size).toBe(3);
    expect(journal.entries().map((e) => e.requestId)).toEqual(['req-8', 'req-7', 'req-6']);
  });

  it('tells nothing on clear', () => {
    const journal = new RequestJournal(3);
    const seen: RequestEntry[] = [];
    journal.add(entry(1));
    journal.subscribe((e) => seen.push(e));
    journal.clear();
    expect(seen).toEqual([]);
    expect(journal.size).toBe(0);
    journal.add(entry(2));
    expect(seen.map((e) => e.requestId)).toEqual(['req-2']);
    expect(journal.entries().map((e) => e.requestId)).toEqual(['req-2']);
  });
});
