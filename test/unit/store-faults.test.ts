import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { StoreWriteError } from '../../src/store/write-error.js';
import { type Fault, FaultyFileSystem } from '../support/faulty-fs.js';
import { baseState, customer } from '../support/store.js';

let dir: string;
let file: string;
let disk: FaultyFileSystem;

/** A store on the faulty disk; it probes for space only as often as a test asks (a probe writes, then takes it back). */
const open = (compactAfterBytes = 1 << 30, probeIntervalMs = 60_000) =>
  Store.open({
    file,
    compactAfterBytes,
    initialState: async () => baseState(),
    fs: disk,
    probeIntervalMs,
  });

/** The store as a restart loads it, through the real file system. */
async function reopenedIds(): Promise<string[]> {
  const store = await Store.open({ file, compactAfterBytes: 1 << 30, initialState: async () => baseState() });
  try {
    return store.all('customers').map((c) => c.id);
  } finally {
    await store.close();
  }
}

/** The journal ends on a whole entry, and every line of it parses. */
async function journalIsWhole(): Promise<void> {
  const text = await readFile(`${file}.wal`, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n')) if (line.trim() !== '') JSON.parse(line);
}

/** The counter a mutation increments: each one reads the last one's value, so they depend on each other. */
function increment(store: Store): Promise<number> {
  return store.mutate((tx) => {
    const current = Number(tx.get('customers', 'counter')?.phoneNo ?? '0');
    tx.put('customers', { ...customer('counter'), phoneNo: String(current + 1) });
    return current + 1;
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-faults-'));
  file = join(dir, 'db.json');
  disk = new FaultyFileSystem();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a journal write that fails', () => {
  const faults: [string, Fault | 'short'][] = [
    ['a short write (the disk fills in the middle of the line)', 'short'],
    ['ENOSPC on write', { op: 'write', code: 'ENOSPC', path: '.wal' }],
    ['EIO on write', { op: 'write', code: 'EIO', path: '.wal' }],
    ['EDQUOT on write', { op: 'write', code: 'EDQUOT', path: '.wal' }],
    ['ENOSPC on fsync', { op: 'datasync', code: 'ENOSPC', path: '.wal' }],
    ['EIO on fsync', { op: 'datasync', code: 'EIO', path: '.wal' }],
  ];

  it.each(faults)(
    '%s: refused, undone, the journal whole, and a restart loads what was acknowledged',
    async (_, fault) => {
      const store = await open();
      await store.mutate((tx) => tx.put('customers', customer('kept')));
      const before = await readFile(`${file}.wal`);
      if (fault === 'short') disk.spaceLeft = 40;
      else disk.inject(fault);

      const refused = store.mutate((tx) => tx.put('customers', customer('refused')));
      await expect(refused).rejects.toBeInstanceOf(StoreWriteError);
      await expect(refused).rejects.toThrow(
        /^The sandbox cannot write its state: .+ \((ENOSPC|EIO|EDQUOT)\)$/,
      );
      expect(store.get('customers', 'refused')).toBeUndefined();
      expect(await readFile(`${file}.wal`)).toEqual(before);
      expect(store.writeHealth().writable).toBe(false);

      disk.heal();
      await store.mutate((tx) => tx.put('customers', customer('after')));
      expect(store.writeHealth().writable).toBe(true);
      await store.close();
      await journalIsWhole();
      expect(await reopenedIds()).toEqual(['kept', 'after']);
    },
  );

  it('names the reason in words: no space left on device (ENOSPC)', async () => {
    const store = await open();
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal' });
    await expect(store.mutate((tx) => tx.put('customers', customer('x')))).rejects.toThrow(
      'The sandbox cannot write its state: no space left on device (ENOSPC)',
    );
    await store.close();
  });

  it('in the middle of group commits: every acknowledged change survives, no refused one is applied', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('first')));
    // The second journal write from here fails: some mutations are acknowledged, the rest refused.
    disk.inject({ op: 'datasync', code: 'EIO', path: '.wal', after: 1 });
    const ids = Array.from({ length: 60 }, (_, i) => `c${i}`);
    const results = await Promise.allSettled(
      ids.map((id) => store.mutate((tx) => tx.put('customers', customer(id)))),
    );
    const acknowledged = ids.filter((_, i) => results[i]?.status === 'fulfilled');
    const refused = ids.filter((_, i) => results[i]?.status === 'rejected');
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreWriteError);
    expect(store.all('customers').map((c) => c.id)).toEqual(['first', ...acknowledged]);
    await store.close();
    await journalIsWhole();
    expect(await reopenedIds()).toEqual(['first', ...acknowledged]);
  });

  it('in a group larger than the write buffer, failing after part of it is on disk: all of it refused, cut back', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('kept')));
    const before = await readFile(`${file}.wal`);
    // The first mutation goes alone; the 599 queued behind it go in one group of some 700 KB, written a buffer at
    // a time: its first buffer reaches the file, its second fails.
    disk.inject({ op: 'write', code: 'EIO', path: '.wal', after: 2 });
    const results = await Promise.allSettled(
      Array.from({ length: 600 }, (_, i) =>
        store.mutate((tx) => tx.put('customers', { ...customer(`c${i}`), name: 'x'.repeat(1000) })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', ...Array(599).fill('rejected')]);
    expect(store.all('customers').map((c) => c.id)).toEqual(['kept', 'c0']);
    expect((await readFile(`${file}.wal`)).subarray(0, before.length)).toEqual(before);
    disk.heal();
    await store.mutate((tx) => tx.put('customers', customer('after')));
    await store.close();
    await journalIsWhole();
    expect(await reopenedIds()).toEqual(['kept', 'c0', 'after']);
  });

  it('undoes the mutations queued behind the failed write too, as each was made on top of it', async () => {
    const store = await open();
    await increment(store);
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal' });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => increment(store)));
    const acknowledged = results.filter((r) => r.status === 'fulfilled').length;
    // The counter in memory says exactly what the acknowledged increments made, no more.
    expect(Number(store.get('customers', 'counter')?.phoneNo)).toBe(1 + acknowledged);
    await store.close();
    const again = await Store.open({
      file,
      compactAfterBytes: 1 << 30,
      initialState: async () => baseState(),
    });
    expect(Number(again.get('customers', 'counter')?.phoneNo)).toBe(1 + acknowledged);
    await again.close();
  });

  it('when even the cut back fails, cuts the file back before the next write', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('kept')));
    disk.spaceLeft = 25;
    disk.inject({ op: 'truncate', code: 'EIO', path: '.wal', times: 1 });
    await expect(store.mutate((tx) => tx.put('customers', customer('torn')))).rejects.toThrow(
      StoreWriteError,
    );
    // The fragment is still in the file now; the next write first removes it.
    disk.heal();
    await store.mutate((tx) => tx.put('customers', customer('next')));
    await store.close();
    await journalIsWhole();
    expect(await reopenedIds()).toEqual(['kept', 'next']);
  });

  it('comes back by itself once space returns, with no write from outside', async () => {
    const store = await open(1 << 30, 5);
    disk.spaceLeft = 0;
    await expect(store.mutate((tx) => tx.put('customers', customer('x')))).rejects.toThrow(StoreWriteError);
    const health = store.writeHealth();
    expect(health).toMatchObject({ writable: false, code: 'ENOSPC' });
    const back = store.whenWritable();
    disk.heal();
    await back;
    expect(store.writeHealth()).toEqual({ writable: true });
    // The probe left nothing in the journal that a load would see.
    await store.close();
    await journalIsWhole();
    expect(await reopenedIds()).toEqual([]);
  });
});

describe('a whole-state replacement (reset, import) that fails', () => {
  it('brings the old state back, undoes what was made on top of the new one, and leaves the files as they were', async () => {
    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('old')));
    const snapshotBefore = await readFile(file);
    const journalBefore = await readFile(`${file}.wal`);
    disk.inject({ op: 'write', code: 'ENOSPC', path: 'db.json.tmp' });

    const doc = baseState();
    doc.collections.customers = [customer('imported')];
    const replaced = store.replaceState(doc);
    // Made on the new state while its snapshot is being written.
    const onTop = store.mutate((tx) => tx.put('customers', customer('on-top')));
    await expect(replaced).rejects.toThrow(StoreWriteError);
    await expect(onTop).rejects.toThrow(StoreWriteError);

    expect(store.all('customers').map((c) => c.id)).toEqual(['old']);
    expect(store.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['old']);
    expect(await readFile(file)).toEqual(snapshotBefore);
    expect(await readFile(`${file}.wal`)).toEqual(journalBefore);
    // No temporary file left; the lock is the open store's.
    expect(await readdir(dir)).toEqual(['db.json', 'db.json.lock', 'db.json.wal']);

    disk.heal();
    await store.replaceState(doc);
    await store.close();
    expect(await reopenedIds()).toEqual(['imported']);
  });
});

describe('a compaction that fails', () => {
  it('keeps everything in the journal, leaves no temporary file, and tries again later', async () => {
    const errors: unknown[] = [];
    const store = await Store.open({
      file,
      compactAfterBytes: 2048,
      initialState: async () => baseState(),
      fs: disk,
      onCompactionError: (error) => errors.push(error),
    });
    disk.inject({ op: 'datasync', code: 'EIO', path: 'db.json.tmp' });
    for (let i = 0; i < 40; i++) await store.mutate((tx) => tx.put('customers', customer(`c${i}`)));
    await store.idle();
    expect(errors[0]).toBeInstanceOf(StoreWriteError);
    expect(store.writeHealth().writable).toBe(true);
    for (let i = 40; i < 80; i++) await store.mutate((tx) => tx.put('customers', customer(`c${i}`)));
    await store.close();
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'db.json.wal']);
    expect(await reopenedIds()).toHaveLength(80);
    // The second compaction did go through: the snapshot holds most of the records.
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { collections: { customers: unknown[] } };
    expect(snapshot.collections.customers.length).toBeGreaterThan(40);
  });

  it('does not put changes that were then undone into the snapshot', async () => {
    const store = await open(1024);
    for (let i = 0; i < 8; i++) await store.mutate((tx) => tx.put('customers', customer(`c${i}`)));
    // This mutation passes the threshold and starts a compaction that captures it; its own write then fails.
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal' });
    const big = { ...customer('big'), name: 'x'.repeat(2000) };
    await expect(store.mutate((tx) => tx.put('customers', big))).rejects.toThrow(StoreWriteError);
    await store.idle();
    await store.close();
    expect(await reopenedIds()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
  });
});
