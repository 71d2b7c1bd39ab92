import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateDocument } from '../../src/domain/records.js';
import type { StoreChange } from '../../src/store/collections.js';
import { Durability, type StateInMemory } from '../../src/store/durability.js';
import type { JournalEntry } from '../../src/store/journal.js';
import type { Snapshot } from '../../src/store/snapshot-file.js';
import { StoreWriteError } from '../../src/store/write-error.js';
import { type WriteHealth, WriteHealthMonitor } from '../../src/store/write-health.js';
import { FaultyFileSystem } from '../support/faulty-fs.js';
import { baseState, customer } from '../support/store.js';

let dir: string;
let file: string;
let wal: string;
let disk: FaultyFileSystem;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'durability-'));
  file = join(dir, 'db.json');
  wal = `${file}.wal`;
  disk = new FaultyFileSystem();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A state in memory of the test's own: it records what durability does to it. A commit here is a customer put
 * into `doc`, and its undo takes it out again.
 */
class TestState implements StateInMemory {
  doc: StateDocument = baseState();
  seq = 0;
  readonly replayed: number[] = [];
  readonly told: (readonly StoreChange[] | 'replaced')[] = [];
  readonly undone: number[] = [];

  load(doc: Pick<StateDocument, 'collections'>, seq: number): void {
    this.doc = { version: 1, collections: structuredClone(doc.collections) };
    this.seq = seq;
  }
  replay(entry: JournalEntry): void {
    if (entry.q <= this.seq) return;
    this.replayed.push(entry.q);
    this.seq = entry.q;
  }
  capture(): Snapshot {
    return { ...structuredClone(this.doc), seq: this.seq };
  }
  rewind(seq: number): void {
    this.seq = seq;
  }
  emit(changes: readonly StoreChange[] | 'replaced'): void {
    this.told.push(changes);
  }

  /** Makes commit `seq+1`, putting customer `id`, as the store's mutate does; answers its acknowledgement. */
  put(durability: Durability, id: string): Promise<void> {
    const seq = ++this.seq;
    this.doc.collections.customers.push(customer(id));
    const ops = [JSON.stringify(['customers', id, customer(id)])];
    const undo = () => {
      this.undone.push(seq);
      this.doc.collections.customers = this.doc.collections.customers.filter((c) => c.id !== id);
    };
    return durability.append(seq, ops, undo, [{ collection: 'customers', id, created: true }]);
  }
}

/** Durability over the faulty disk; the probe runs only when a test calls it. */
async function open(compactAfterBytes = 1 << 30) {
  const state = new TestState();
  const reports: WriteHealth[] = [];
  let durability: Durability | null = null;
  const health = new WriteHealthMonitor({
    probe: () => durability?.probe(),
    probeIntervalMs: 3_600_000,
    onWriteHealth: (h) => reports.push(h),
  });
  const errors: unknown[] = [];
  durability = await Durability.open(
    {
      file,
      compactAfterBytes,
      initialState: async () => baseState(),
      fs: disk,
      onCompactionError: (error) => errors.push(error),
    },
    state,
    health,
  );
  return { durability, state, health, reports, errors };
}

/** The snapshot on disk now. */
async function snapshotOnDisk(): Promise<Snapshot> {
  return JSON.parse(await readFile(file, 'utf8')) as Snapshot;
}

/** The sequence numbers of the journal's entries now. */
async function journalSeqs(): Promise<number[]> {
  const text = await readFile(wal, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as JournalEntry).q);
}

/** How many times a snapshot was put in place (renamed onto the state file). */
const snapshotWrites = () => disk.calls.filter((call) => call === `rename ${file}`).length;

describe('Durability: start and close', () => {
  it('starts afresh from the initial state as snapshot 0, holds the lock until closed, and replays on reopen', async () => {
    const first = await open();
    expect(await snapshotOnDisk()).toMatchObject({ version: 1, seq: 0 });
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'db.json.lock', 'db.json.wal']);
    await first.state.put(first.durability, 'c1');
    await first.state.put(first.durability, 'c2');
    await first.durability.close();
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'db.json.wal']);

    const again = await open();
    expect(again.state.seq).toBe(2);
    expect(again.state.replayed).toEqual([1, 2]);
    await again.durability.close();
  });
});

describe('Durability: commits', () => {
  it('acknowledges a commit only once its line is written and fsynced and the lock found still its own, in the journal format', async () => {
    const { durability, state } = await open();
    const from = disk.calls.length;
    let seenAtAck: string[] = [];
    const acked = state.put(durability, 'c1').then(() => {
      seenAtAck = disk.calls.slice(from);
    });
    // Nothing is acknowledged in the same turn, whatever the disk.
    expect(seenAtAck).toEqual([]);
    await acked;
    // The lock: a stat and a read of its path before the write and after (see the fencing tests).
    const lock = [`stat ${file}.lock`, `readFile ${file}.lock`];
    expect(seenAtAck).toEqual([...lock, `write ${wal}`, `datasync ${wal}`, ...lock]);
    expect(await readFile(wal, 'utf8')).toBe(
      `{"q":1,"o":[${JSON.stringify(['customers', 'c1', customer('c1')])}]}\n`,
    );
    expect(durability.journalFlushes).toBe(1);
    await durability.close();
  });

  it('asks the lock once a write when writes follow each other back to back: the check after one stands for the next', async () => {
    const { durability, state } = await open();
    const inFlight = disk.hold('datasync', '.wal');
    const from = disk.calls.length;
    const first = state.put(durability, 'c0');
    await inFlight.reached;
    const next = ['c1', 'c2'].map((id) => state.put(durability, id));
    inFlight.release();
    await Promise.all([first, ...next]);
    const lock = [`stat ${file}.lock`, `readFile ${file}.lock`];
    expect(disk.calls.slice(from)).toEqual([
      ...lock,
      `write ${wal}`,
      `datasync ${wal}`,
      ...lock,
      `write ${wal}`,
      `datasync ${wal}`,
      ...lock,
    ]);
    // After a pause, the next write asks before it writes again.
    const later = disk.calls.length;
    await state.put(durability, 'c3');
    expect(disk.calls.slice(later)).toEqual([...lock, `write ${wal}`, `datasync ${wal}`, ...lock]);
    await durability.close();
  });

  it('writes the commits queued behind a write in flight together, in one write', async () => {
    const { durability, state } = await open();
    const all = ['c0', 'c1', 'c2', 'c3', 'c4'].map((id) => state.put(durability, id));
    await Promise.all(all);
    // The first alone; the four made while it was in flight in one more.
    expect(durability.journalFlushes).toBe(2);
    expect(await journalSeqs()).toEqual([1, 2, 3, 4, 5]);
    await durability.close();
  });

  it('a failed write undoes its commit and every one after it, newest first, and refuses each', async () => {
    const { durability, state, health, reports } = await open();
    await state.put(durability, 'kept');
    const before = await readFile(wal);
    disk.inject({ op: 'datasync', code: 'EIO', path: '.wal' });
    const results = await Promise.allSettled(['a', 'b', 'c'].map((id) => state.put(durability, id)));

    for (const r of results) {
      expect(r.status).toBe('rejected');
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreWriteError);
    }
    // 'a' was in flight, 'b' and 'c' made on top of it: all undone, the newest first.
    expect(state.undone).toEqual([4, 3, 2]);
    expect(state.seq).toBe(1);
    expect(state.doc.collections.customers.map((c) => c.id)).toEqual(['kept']);
    // The listeners are told once, of every change undone.
    expect(state.told).toEqual([
      ['a', 'b', 'c'].map((id) => ({ collection: 'customers', id, created: true })),
    ]);
    expect(await readFile(wal)).toEqual(before);
    expect(health.current()).toMatchObject({ writable: false, code: 'EIO' });
    expect(reports).toHaveLength(1);

    // The next commit reuses the sequence number, and writing again is writable again.
    await state.put(durability, 'after');
    expect(health.current()).toEqual({ writable: true });
    expect(reports).toHaveLength(2);
    expect(await journalSeqs()).toEqual([1, 2]);
    await durability.close();
  });

  it('a whole new state that cannot be written puts the old one back and leaves both files as they were', async () => {
    const { durability, state } = await open();
    await state.put(durability, 'old');
    const snapshotBefore = await readFile(file);
    const journalBefore = await readFile(wal);
    disk.inject({ op: 'rename', code: 'ENOSPC', path: 'db.json' });
    let undone = false;
    state.seq++;
    await expect(
      durability.replace(state.seq, { ...baseState(), seq: state.seq }, () => {
        undone = true;
      }),
    ).rejects.toBeInstanceOf(StoreWriteError);
    expect(undone).toBe(true);
    expect(state.seq).toBe(1);
    expect(state.told).toEqual(['replaced']);
    expect(await readFile(file)).toEqual(snapshotBefore);
    expect(await readFile(wal)).toEqual(journalBefore);
    await durability.close();
  });

  it('a whole new state written empties the journal', async () => {
    const { durability, state } = await open();
    await state.put(durability, 'old');
    state.seq++;
    await durability.replace(state.seq, { ...baseState(), seq: state.seq }, () => {});
    expect(await snapshotOnDisk()).toMatchObject({ seq: 2, collections: { customers: [] } });
    expect(await readFile(wal, 'utf8')).toBe('');
    await durability.close();
  });

  it('its probe learns that writes work again, and leaves nothing in the journal', async () => {
    const { durability, state, health } = await open();
    await state.put(durability, 'kept');
    disk.spaceLeft = 0;
    await expect(state.put(durability, 'x')).rejects.toBeInstanceOf(StoreWriteError);
    const back = health.whenWritable();
    durability.probe();
    await durability.idle();
    expect(health.current().writable).toBe(false);
    disk.heal();
    durability.probe();
    await back;
    await durability.idle();
    expect(await journalSeqs()).toEqual([1]);
    expect((await readFile(wal, 'utf8')).endsWith('\n')).toBe(true);
    await durability.close();
  });
});

describe('Durability: compaction', () => {
  it('rewrites the snapshot from the state once it is on disk, and drops the journal entries it holds', async () => {
    const { durability, state } = await open(1);
    await state.put(durability, 'c1');
    const second = state.put(durability, 'c2');
    durability.compactIfDue();
    await second;
    await durability.idle();
    expect(await snapshotOnDisk()).toMatchObject({ seq: 2 });
    expect((await snapshotOnDisk()).collections.customers.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(durability.journalBytes).toBe(0);
    expect(await readFile(wal, 'utf8')).toBe('');
    await durability.close();
  });

  it('does nothing below the threshold', async () => {
    const { durability, state } = await open();
    await state.put(durability, 'c1');
    durability.compactIfDue();
    await durability.idle();
    expect(snapshotWrites()).toBe(1);
    expect(await journalSeqs()).toEqual([1]);
    await durability.close();
  });

  it('gives up when a whole new state replaces the one it captured while it waits', async () => {
    const { durability, state, errors } = await open(1);
    await state.put(durability, 'c1');
    // In flight when the compaction captures the state (with c2) and waits for it to be on disk; the reset is
    // queued behind it and takes the snapshot's lock first.
    const second = state.put(durability, 'c2');
    durability.compactIfDue();
    state.seq++;
    const reset = durability.replace(state.seq, { ...baseState(), seq: state.seq }, () => {});
    await Promise.all([second, reset]);
    await durability.idle();
    expect(errors).toEqual([]);
    // The first start's snapshot and the reset's: none from the compaction, which would have put c1 and c2 back.
    expect(snapshotWrites()).toBe(2);
    expect(await snapshotOnDisk()).toMatchObject({ seq: 3, collections: { customers: [] } });
    await durability.close();
  });

  it('gives up when what it captured is undone', async () => {
    const { durability, state } = await open(1);
    await state.put(durability, 'c1');
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal' });
    const refused = state.put(durability, 'c2');
    durability.compactIfDue();
    await expect(refused).rejects.toBeInstanceOf(StoreWriteError);
    await durability.idle();
    expect(snapshotWrites()).toBe(1);
    expect(await snapshotOnDisk()).toMatchObject({ seq: 0 });
    expect(await journalSeqs()).toEqual([1]);
    await durability.close();
  });

  it('keeps the journal whole when its snapshot cannot be written, and tells why', async () => {
    const { durability, state, errors, health } = await open(1);
    await state.put(durability, 'c1');
    disk.inject({ op: 'datasync', code: 'EIO', path: 'db.json.tmp' });
    durability.compactIfDue();
    await durability.idle();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(StoreWriteError);
    // A background write that failed is not a commit refused: writes still work.
    expect(health.current()).toEqual({ writable: true });
    expect(await journalSeqs()).toEqual([1]);
    expect(await readdir(dir)).not.toContain('db.json.tmp');
    await durability.close();
  });
});
