import { mkdtemp, open as openFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Store, type StoreOptions } from '../../src/store/store.js';
import { StateTakenOverError, StoreWriteError } from '../../src/store/write-error.js';
import { FaultyFileSystem } from '../support/faulty-fs.js';
import { baseState, customer } from '../support/store.js';

// The store fences itself by its lock (see `StateLock` and `Durability`): once the lock path is no longer its own
// lock, it acknowledges no write, writes nothing more, and says so once. Here the lock is taken away by the test,
// as a clean-up script or another process that judged this one stale would; the real processes are in
// test/e2e/state-lock.test.ts.

const TAKEN_OVER = 'The state file was taken over by another process';

let dir: string;
let file: string;
let lockFile: string;
let wal: string;
let disk: FaultyFileSystem;
const opened: Store[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-taken-over-'));
  file = join(dir, 'db.json');
  lockFile = `${file}.lock`;
  wal = `${file}.wal`;
  disk = new FaultyFileSystem();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const store of opened.splice(0)) await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A store on the faulty disk; what it is told of a loss goes to `told`. */
async function open(options: Partial<StoreOptions> = {}) {
  const told: StateTakenOverError[] = [];
  const store = await Store.open({
    file,
    compactAfterBytes: 1 << 30,
    initialState: async () => baseState(),
    fs: disk,
    probeIntervalMs: 60_000,
    onTakenOver: (error) => told.push(error),
    ...options,
  });
  opened.push(store);
  return { store, told };
}

const put = (store: Store, id: string) => store.mutate((tx) => tx.put('customers', customer(id)));

/** The customers a restart finds, through the real file system (the lock is out of the way first). */
async function restartedIds(): Promise<string[]> {
  await rm(lockFile, { force: true, recursive: true });
  const store = await Store.open({ file, compactAfterBytes: 1 << 30, initialState: async () => baseState() });
  try {
    return store
      .all('customers')
      .map((c) => c.id)
      .sort();
  } finally {
    await store.close();
  }
}

/** Another process's lock, made where ours was (a new file: a starter that took ours over). */
async function takeOver(): Promise<void> {
  await rm(lockFile);
  const holder = {
    pid: 4242,
    host: 'there',
    bootId: null,
    pidNs: 'pid:[9]',
    startTime: null,
    token: 'theirs',
  };
  await writeFile(lockFile, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
}

describe('a store whose lock is taken away while nothing is being written', () => {
  it.for<[string, () => Promise<void>, StateTakenOverError['holder']]>([
    ['removed by hand', () => rm(lockFile), null],
    ['taken over by another process', takeOver, { pid: 4242, host: 'there' }],
  ])(
    '%s: refuses the next write (not written, not applied), says so once, refuses every later one before it runs; reads go on',
    async ([, takeAway, holder]) => {
      const { store, told } = await open();
      await put(store, 'kept');
      await takeAway();
      const lockNow = await readFile(lockFile).catch(() => null);
      const journalBefore = await readFile(wal, 'utf8');

      const refused = await put(store, 'refused').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StateTakenOverError);
      expect(refused).toBeInstanceOf(StoreWriteError);
      expect(refused).toMatchObject({
        status: 503,
        code: 'ETAKENOVER',
        message: TAKEN_OVER,
        lockFile,
        holder,
      });
      expect(store.get('customers', 'refused')).toBeUndefined();
      expect(told).toEqual([refused]);
      expect(await store.whenTakenOver()).toBe(refused);
      expect(store.writeHealth()).toMatchObject({ writable: false, code: 'ETAKENOVER', message: TAKEN_OVER });

      // From now on refused before it runs: nothing of it is applied, and nothing asks the disk.
      const from = disk.calls.length;
      let ran = false;
      await expect(
        store.mutate(() => {
          ran = true;
        }),
      ).rejects.toBe(refused);
      expect(ran).toBe(false);
      await expect(store.replaceState(baseState())).rejects.toBe(refused);
      expect(disk.calls.slice(from)).toEqual([]);
      expect(store.get('customers', 'kept')).toMatchObject({ id: 'kept' });
      expect(told).toHaveLength(1);

      // Closing leaves what is at the lock path, and the journal as it was.
      await store.close();
      expect(await readFile(lockFile).catch(() => null)).toEqual(lockNow);
      expect(await readFile(wal, 'utf8')).toBe(journalBefore);
      expect(await restartedIds()).toEqual(['kept']);
    },
  );

  it('a heartbeat finds it gone with no write going on: says so once, and the next write is refused', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { store, told } = await open({ lock: { heartbeatMs: 1000 } });
    await rm(lockFile);
    vi.advanceTimersByTime(1000);
    const error = await store.whenTakenOver();
    expect(error).toMatchObject({ message: TAKEN_OVER, holder: null });
    expect(told).toEqual([error]);
    await expect(put(store, 'late')).rejects.toBe(error);
  });
});

describe('a store whose lock is taken over while a write is on its way', () => {
  it('refuses that write and every one queued behind it, and acknowledges none; only the write on its way reached the journal', async () => {
    const { store, told } = await open();
    await put(store, 'kept');
    // The write is held on its way to disk, past the check before it.
    const hold = disk.hold('datasync', '.wal');
    const onItsWay = put(store, 'on-its-way').catch((e: unknown) => e);
    await hold.reached;
    const queued = [put(store, 'queued-1'), put(store, 'queued-2')].map((p) => p.catch((e: unknown) => e));
    await takeOver();
    hold.release();

    const error = await onItsWay;
    expect(error).toBeInstanceOf(StateTakenOverError);
    expect(await Promise.all(queued)).toEqual([error, error]);
    expect(told).toEqual([error]);
    for (const id of ['on-its-way', 'queued-1', 'queued-2'])
      expect(store.get('customers', id)).toBeUndefined();
    const journal = await readFile(wal, 'utf8');
    expect(journal).toContain('"on-its-way"');
    expect(journal).not.toContain('queued-');
  });

  it('refuses a reset whose snapshot would go in place, and leaves the snapshot as it was', async () => {
    const { store } = await open();
    await put(store, 'kept');
    const snapshotBefore = await readFile(file, 'utf8');
    const from = disk.calls.length;
    const hold = disk.hold('datasync', 'db.json.tmp');
    const reset = store.replaceState(baseState()).catch((e: unknown) => e);
    await hold.reached;
    await rm(lockFile);
    hold.release();

    expect(await reset).toBeInstanceOf(StateTakenOverError);
    expect(disk.calls.slice(from)).not.toContain(`rename ${file}`);
    expect(await readFile(file, 'utf8')).toBe(snapshotBefore);
    expect(store.get('customers', 'kept')).toMatchObject({ id: 'kept' });
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'db.json.wal']);
  });

  it('gives up a compaction before its snapshot goes in place, without a compaction failure to report', async () => {
    const compactionErrors: unknown[] = [];
    const { store } = await open({
      compactAfterBytes: 1024,
      onCompactionError: (error) => compactionErrors.push(error),
    });
    await store.mutate((tx) => {
      for (let i = 0; i < 20; i++) tx.put('customers', customer(`c${i}`));
    });
    const from = disk.calls.length;
    const hold = disk.hold('datasync', 'db.json.tmp');
    // The journal is past the threshold now: this write starts a compaction, which writes once it is on disk.
    await put(store, 'c20');
    await hold.reached;
    const snapshotBefore = await readFile(file, 'utf8');
    const journalBefore = await readFile(wal, 'utf8');
    await rm(lockFile);
    hold.release();
    await store.whenTakenOver();
    await store.idle();

    expect(disk.calls.slice(from)).not.toContain(`rename ${file}`);
    expect(await readFile(file, 'utf8')).toBe(snapshotBefore);
    expect(await readFile(wal, 'utf8')).toBe(journalBefore);
    expect(compactionErrors).toEqual([]);
    expect(await restartedIds()).toHaveLength(21);
  });
});

describe('a check of the lock that cannot be made', () => {
  it('refuses the write as a write failure (EIO), not as a take-over, and writes come back', async () => {
    const { store, told } = await open();
    disk.inject({ op: 'stat', code: 'EIO', path: '.lock' });
    const refused = await put(store, 'refused').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreWriteError);
    expect(refused).not.toBeInstanceOf(StateTakenOverError);
    expect(refused).toMatchObject({
      code: 'EIO',
      message: 'The sandbox cannot write its state: input/output error (EIO)',
    });
    await put(store, 'later');
    expect(store.writeHealth()).toEqual({ writable: true });
    expect(told).toEqual([]);
    expect(await restartedIds()).toEqual(['later']);
  });
});

describe('start-up', () => {
  it('copies the journal to a new file, without a torn last line: an earlier holder that writes on through its open file reaches nothing a start reads', async () => {
    const first = await open();
    await put(first.store, 'c1');
    await put(first.store, 'c2');
    await first.store.close();
    // A holder that was paused with the journal open, and the start of a line it was writing.
    const earlier = await openFile(wal, 'a');
    await earlier.write('{"q":3,"o":[["customers","torn"');
    const before = await stat(wal);
    const whole = (await readFile(wal, 'utf8')).replace(/\{"q":3.*$/, '');

    const second = await open();
    const after = await stat(wal);
    expect(after.ino).not.toBe(before.ino);
    expect(await readFile(wal, 'utf8')).toBe(whole);
    await earlier.write(
      `,null]]}\n${JSON.stringify({ q: 4, o: [['customers', 'late', customer('late')]] })}\n`,
    );
    await earlier.close();
    await put(second.store, 'c3');
    await second.store.close();

    expect(await restartedIds()).toEqual(['c1', 'c2', 'c3']);
    expect(await readFile(wal, 'utf8')).not.toContain('late');
  });

  it('on a disk too full for that copy, keeps the journal the file it is, cut back to its whole entries', async () => {
    const first = await open();
    await put(first.store, 'c1');
    await first.store.close();
    const earlier = await openFile(wal, 'a');
    await earlier.write('{"q":2,"o":[["customers","torn"');
    await earlier.close();
    const before = await stat(wal);
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal.tmp' });

    const second = await open();
    expect((await stat(wal)).ino).toBe(before.ino);
    expect(await readFile(wal, 'utf8')).not.toContain('torn');
    expect(await readdir(dir)).not.toContain('db.json.wal.tmp');
    await put(second.store, 'c2');
    await second.store.close();
    expect(await restartedIds()).toEqual(['c1', 'c2']);
  });
});
