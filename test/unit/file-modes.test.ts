// Every file the sandbox makes beside its state (the state file, its write-ahead journal, the lock, a temporary
// file) and a recording is readable by its owner only; a file that was there keeps its mode. Through the store's
// file layer (the fault-injecting one, over the real disk), and the modes as the disk has them.
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFile, writeFully } from '../../src/store/file-system.js';
import { Store } from '../../src/store/store.js';
import { Recording } from '../../src/upstream/recording.js';
import { FaultyFileSystem } from '../support/faulty-fs.js';
import { baseState, customer } from '../support/store.js';

let dir: string;
let file: string;
let disk: FaultyFileSystem;

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-modes-'));
  file = join(dir, 'db.json');
  disk = new FaultyFileSystem();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A store on the faulty layer that writes a snapshot after every kilobyte of journal. */
const open = () =>
  Store.open({ file, compactAfterBytes: 1024, initialState: async () => baseState(), fs: disk });

/** Enough changes to pass the compaction's threshold, and the snapshot they bring written. */
async function changes(store: Store): Promise<void> {
  for (let i = 0; i < 20; i++)
    await store.mutate((tx) => tx.put('customers', { ...customer(`c-${i}`), phoneNo: 'x'.repeat(100) }));
  await store.idle();
}

describe('the files of a state', () => {
  it('the state file, its journal and the lock are made 0600', async () => {
    const store = await open();
    try {
      await changes(store);
      expect(await modeOf(file)).toBe(0o600);
      expect(await modeOf(`${file}.wal`)).toBe(0o600);
      expect(await modeOf(`${file}.lock`)).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('a state file and a journal that exist keep their modes through a snapshot', async () => {
    await (await open()).close();
    await chmod(file, 0o644);
    await chmod(`${file}.wal`, 0o640);
    const store = await open();
    try {
      await changes(store);
      expect(await modeOf(file)).toBe(0o644);
      expect(await modeOf(`${file}.wal`)).toBe(0o640);
    } finally {
      await store.close();
    }
  });

  it('a temporary file is 0600 while it is written, a leftover one of another mode included', async () => {
    const target = join(dir, 'replaced.json');
    const seen: number[] = [];
    const write = async (out: Parameters<Parameters<typeof replaceFile>[2]>[0]) => {
      seen.push(await modeOf(`${target}.tmp`));
      await writeFully(out, Buffer.from('{}\n'));
    };
    await replaceFile(disk, target, write);
    await writeFile(`${target}.tmp`, 'left by a crash', { mode: 0o644 });
    await chmod(target, 0o600);
    await replaceFile(disk, target, write);
    expect(seen).toEqual([0o600, 0o600]);
    expect(await modeOf(target)).toBe(0o600);
  });
});

describe('a recording (--record)', () => {
  const recording = (path: string) =>
    Recording.open({ file: path, upstream: 'https://bank.example/api/v1', fs: disk, log: () => undefined });

  it('is made 0600', async () => {
    const path = join(dir, 'bank-run.json');
    await (await recording(path)).begin();
    expect(await modeOf(path)).toBe(0o600);
  });

  it('one that exists keeps its mode', async () => {
    const path = join(dir, 'kept.json');
    await writeFile(path, '{}\n', { mode: 0o644 });
    await chmod(path, 0o644);
    await (await recording(path)).begin();
    expect(await modeOf(path)).toBe(0o644);
  });
});
