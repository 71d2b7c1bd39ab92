import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateDocument } from '../../src/domain/records.js';
import { Store } from '../../src/store/store.js';
import { StateFileError } from '../../src/store/write-error.js';
import { baseState, customer } from '../support/store.js';

let dir: string;
let file: string;
const open = (compactAfterBytes = 1 << 30) =>
  Store.open({ file, compactAfterBytes, initialState: async () => baseState() });

/** Opens the store again, reads what `read` wants from it, and closes it. */
async function reopened<T>(read: (store: Store) => T): Promise<T> {
  const store = await open();
  try {
    return read(store);
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-'));
  file = join(dir, 'db.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('store on a file', () => {
  it('creates the snapshot from the initial state and keeps acknowledged mutations across a reopen', async () => {
    const store = await open();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1, seq: 0 });
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    await store.mutate((tx) => tx.put('customers', customer('c2')));
    await store.mutate((tx) => tx.delete('customers', 'c1'));
    await store.close();

    const again = await open();
    expect(again.all('customers').map((c) => c.id)).toEqual(['c2']);
    await again.close();
  });

  it('groups concurrent mutations into fewer fsynced writes, and every one is durable', async () => {
    const store = await open();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => store.mutate((tx) => tx.put('customers', customer(`c${i}`)))),
    );
    const { journalFlushes } = store.stats();
    expect(journalFlushes).toBeGreaterThan(0);
    expect(journalFlushes).toBeLessThan(200);
    await store.close();
    expect(await reopened((s) => s.count('customers'))).toBe(200);
  });

  it('undoes every change of a mutation that throws, and journals nothing', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('keep')));
    const before = store.stats();
    expect(() =>
      store.mutate((tx) => {
        tx.put('customers', customer('new'));
        tx.put('customers', { ...customer('keep'), name: 'changed' });
        tx.delete('customers', 'keep');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(store.all('customers')).toEqual([customer('keep')]);
    expect(store.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['keep']);
    expect(store.stats().seq).toBe(before.seq);
    await store.close();
    expect(await reopened((s) => s.all('customers'))).toEqual([customer('keep')]);
  });

  it('cuts a torn last line (a crash in the middle of a write) and carries on appending after it', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    await store.close();
    await appendFile(`${file}.wal`, '{"q":2,"o":[["customers","c2",{"id":"c2"');

    const again = await open();
    expect(again.all('customers').map((c) => c.id)).toEqual(['c1']);
    await again.mutate((tx) => tx.put('customers', customer('c3')));
    await again.close();
    expect(await reopened((s) => s.all('customers').map((c) => c.id))).toEqual(['c1', 'c3']);
  });

  it('refuses to start on a journal corrupt in the middle', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    await store.close();
    await appendFile(`${file}.wal`, 'not json\n{"q":9,"o":[]}\n');
    await expect(open()).rejects.toThrow(StateFileError);
    await expect(open()).rejects.toThrow(`${file}.wal: line 2 is not valid JSON; the journal is corrupt`);
  });

  it('compacts in the background once the journal passes the threshold, losing nothing', async () => {
    const store = await open(4096);
    for (let i = 0; i < 300; i++) await store.mutate((tx) => tx.put('customers', customer(`c${i}`)));
    await store.idle();
    const wal = await stat(`${file}.wal`);
    expect(wal.size).toBeLessThan(4096 + 512);
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as {
      seq: number;
      collections: StateDocument['collections'];
    };
    expect(snapshot.seq).toBeGreaterThan(0);
    expect(snapshot.collections.customers.length).toBeGreaterThan(0);
    await store.close();
    expect(await reopened((s) => s.count('customers'))).toBe(300);
  });

  it('writes a group and a snapshot many times the size of its write buffer whole, non-ASCII text included', async () => {
    const store = await open();
    // About 1.5 MB of journal in one group, and as much snapshot, with 2- and 3-byte UTF-8 characters.
    const name = (i: number) => `Customer ${i} ${'ọ̀ṣẹ́ ₦'.repeat(100)}`;
    await Promise.all(
      Array.from({ length: 1500 }, (_, i) =>
        store.mutate((tx) => tx.put('customers', { ...customer(`c${i}`), name: name(i) })),
      ),
    );
    const doc = baseState();
    doc.collections.customers = Array.from({ length: 1500 }, (_, i) => ({
      ...customer(`s${i}`),
      name: name(i),
    }));
    await store.replaceState(doc);
    await store.mutate((tx) => tx.put('customers', { ...customer('after'), name: name(-1) }));
    await store.close();
    const names = await reopened((s) => s.all('customers').map((c) => c.name));
    expect(names).toEqual([...doc.collections.customers.map((c) => c.name), name(-1)]);
  });

  it('replaceState writes a new snapshot and empties the journal', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('old')));
    const doc = baseState();
    doc.collections.customers = [customer('imported')];
    await store.replaceState(doc);
    expect((await stat(`${file}.wal`)).size).toBe(0);
    await store.mutate((tx) => tx.put('customers', customer('after')));
    await store.close();
    expect(await reopened((s) => s.all('customers').map((c) => c.id))).toEqual(['imported', 'after']);
  });

  it('gives each mutation its own generator from the seed and sequence number: no id repeats after a restart', async () => {
    const store = await open();
    const make = (s: Store) =>
      s.mutate((tx) => {
        const id = tx.random().uuid();
        tx.put('customers', customer(id));
        return id;
      });
    const first = await make(store);
    const second = await make(store);
    await store.close();
    const again = await open();
    const third = await make(again);
    await again.close();
    expect(new Set([first, second, third]).size).toBe(3);
    // The same seed and the same sequence of mutations give the same ids: a run is reproducible.
    await rm(file);
    await rm(`${file}.wal`);
    const fresh = await open();
    expect(await make(fresh)).toBe(first);
    await fresh.close();
  });
});

describe('store in memory', () => {
  const memory = () =>
    Store.open({ file: null, compactAfterBytes: 1, initialState: async () => baseState() });

  it('keeps indexes true through put, update and delete', async () => {
    const store = await memory();
    await store.mutate((tx) => {
      tx.put('customers', customer('c1', 'b1'));
      tx.put('customers', customer('c2', 'b1'));
      tx.put('customers', customer('c3', 'b2'));
    });
    await store.mutate((tx) => tx.put('customers', customer('c1', 'b2')));
    await store.mutate((tx) => tx.delete('customers', 'c3'));
    expect(store.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['c2']);
    expect(store.where('customers', 'businessId', 'b2').map((c) => c.id)).toEqual(['c1']);
    expect(() => store.where('customers', 'name', 'x')).toThrow(/not indexed/);
  });

  it('counts and walks an index lazily, and lets the walk delete the record it is on', async () => {
    const store = await memory();
    await store.mutate((tx) => {
      for (const id of ['c1', 'c2', 'c3', 'c4']) tx.put('customers', customer(id, 'b1'));
    });
    expect(store.countWhere('customers', 'businessId', 'b1')).toBe(4);
    expect(store.countWhere('customers', 'businessId', 'nobody')).toBe(0);
    const seen: string[] = [];
    await store.mutate((tx) => {
      for (const c of tx.eachWhere('customers', 'businessId', 'b1')) {
        seen.push(c.id);
        if (c.id === 'c1' || c.id === 'c2') tx.delete('customers', c.id);
        if (c.id === 'c3') break;
      }
    });
    expect(seen).toEqual(['c1', 'c2', 'c3']);
    expect(store.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['c3', 'c4']);
    expect(store.countWhere('customers', 'businessId', 'b1')).toBe(2);
    expect(() => store.countWhere('customers', 'name', 'x')).toThrow(/not indexed/);
  });

  it('freezes records, refuses changes outside mutate and nested mutations', async () => {
    const store = await memory();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    const record = store.get('customers', 'c1');
    expect(Object.isFrozen(record)).toBe(true);
    expect(() => store.mutate(() => store.mutate(() => undefined))).toThrow(/nested/);
  });

  it('replaceState takes the records it is given, frozen: the state cannot be changed through them', async () => {
    const store = await memory();
    const doc = baseState();
    const given = customer('c-given');
    doc.collections.customers = [given];
    await store.replaceState(doc);
    expect(() => {
      given.name = 'Changed after';
    }).toThrow(TypeError);
    doc.collections.customers.push(customer('c-late'));
    expect(store.get('customers', 'c-given')).toEqual(customer('c-given'));
    expect(store.get('customers', 'c-late')).toBeUndefined();
  });

  it('treats ids like __proto__ as plain keys', async () => {
    const store = await memory();
    expect(store.get('customers', '__proto__')).toBeUndefined();
    expect(store.get('customers', 'constructor')).toBeUndefined();
    await store.mutate((tx) => tx.put('customers', customer('__proto__')));
    expect(store.get('customers', '__proto__')?.id).toBe('__proto__');
    expect(({} as Record<string, unknown>).businessId).toBeUndefined();
  });
});
