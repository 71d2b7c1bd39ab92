import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeFileSystem, type StoreFile, type StoreFileSystem } from '../../src/store/file-system.js';
import { type LockHolder, type LockProbes, systemProbes } from '../../src/store/lock-probes.js';
import { StateLock } from '../../src/store/state-lock.js';
import { StateFileInUseError, StateLockPathError, StateTakenOverError } from '../../src/store/write-error.js';
import { closedAfterEachTest } from '../support/cleanups.js';
import { FaultyFileSystem } from '../support/faulty-fs.js';

const HEARTBEAT_MS = 2000;
const STALE_AFTER_MS = 10_000;
/** A whole second: every file system here keeps an mtime set to it exactly. */
const T0 = 1_800_000_000_000;

/** This process, as the tests' probes tell it. */
const ME: LockHolder = { pid: 1000, host: 'here', bootId: 'boot-1', pidNs: 'pid:[1]', startTime: '500' };
/** Another process on this host, running since tick 700. */
const OTHER: LockHolder = { ...ME, pid: 2000, startTime: '700' };

/**
 * A machine as the lock sees it: which pids run (and since when), and a clock that moves only when the lock waits,
 * so that a wait of ten seconds costs nothing. `onWait` runs at each of those waits (a holder's heartbeat, say).
 */
class Machine implements LockProbes {
  clock = T0;
  waited = 0;
  onWait: () => Promise<void> = async () => {};

  constructor(
    readonly me: LockHolder = ME,
    readonly running = new Map<number, string | null>([[OTHER.pid, OTHER.startTime]]),
  ) {}

  self = async () => this.me;
  process = async (pid: number) =>
    this.running.has(pid)
      ? { running: true, startTime: this.running.get(pid) ?? null }
      : { running: false, startTime: null };
  now = () => this.clock;
  wait = async (ms: number) => {
    this.clock += ms;
    this.waited += ms;
    await this.onWait();
  };
}

let dir: string;
let file: string;
let lockFile: string;
const held: StateLock[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-lock-'));
  file = join(dir, 'db.json');
  lockFile = `${file}.lock`;
});
afterEach(async () => {
  vi.useRealTimers();
  for (const lock of held.splice(0)) await lock.release();
  await rm(dir, { recursive: true, force: true });
});

async function acquire(machine: Machine, fs: StoreFileSystem = nodeFileSystem): Promise<StateLock> {
  const lock = await StateLock.acquire(fs, file, 'db.json', {
    probes: machine,
    heartbeatMs: HEARTBEAT_MS,
    staleAfterMs: STALE_AFTER_MS,
  });
  held.push(lock);
  return lock;
}

/** Leaves a lock file of `holder`, last touched at `mtime` (ms). */
async function leaveLock(holder: Partial<LockHolder> | string, mtime: number): Promise<void> {
  const text = typeof holder === 'string' ? holder : `${JSON.stringify({ ...holder, token: 'earlier' })}\n`;
  await writeFile(lockFile, text);
  await touch(mtime);
}

const touch = (mtime: number) => utimes(lockFile, mtime / 1000, mtime / 1000);

/** The holder the lock file names now. */
async function holderNow(): Promise<LockHolder & { token: string }> {
  return JSON.parse(await readFile(lockFile, 'utf8')) as LockHolder & { token: string };
}

describe('a lock held by a process that runs', () => {
  it.for<[string, Partial<LockHolder>]>([
    ['another process of this host, its start time as recorded', OTHER],
    ['another process of this host, without a start time', { ...OTHER, startTime: null }],
    ['this very process (the same pid and start time): a second store on one file', ME],
  ])(
    'refuses the start at once, naming the holder, and leaves its lock as it was: %s',
    async ([, holder]) => {
      const machine = new Machine();
      await leaveLock(holder, T0 - 60_000);
      const before = await readFile(lockFile);

      const error = await acquire(machine).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateFileInUseError);
      expect(error).toMatchObject({ file: 'db.json', lockFile, pid: holder.pid, host: null, status: 409 });
      expect((error as Error).message).toBe(`db.json is in use by process ${holder.pid} (lock ${lockFile})`);
      expect(machine.waited).toBe(0);
      expect(await readFile(lockFile)).toEqual(before);
      expect((await stat(lockFile)).mtimeMs).toBe(T0 - 60_000);
      expect(await readdir(dir)).toEqual(['db.json.lock']);
    },
  );
});

describe('a lock whose holder is gone is taken over at once', () => {
  it.for<[string, Partial<LockHolder>]>([
    ['its pid runs no process', { ...OTHER, pid: 3000 }],
    [
      'it was made on another boot (the host restarted), though its pid runs now',
      { ...OTHER, bootId: 'boot-0' },
    ],
    ['its pid was reused: the process there started at another time', { ...OTHER, startTime: '650' }],
    ['it is our own pid with another start time (a restarted container)', { ...ME, startTime: '20' }],
  ])('%s', async ([, holder]) => {
    const machine = new Machine();
    // Touched a moment ago: for a holder that can be checked, the heartbeat does not matter.
    await leaveLock(holder, T0);

    await acquire(machine);
    expect(machine.waited).toBe(0);
    expect(await holderNow()).toMatchObject({ ...ME, token: expect.not.stringMatching(/^earlier$/) });
    expect(await readdir(dir)).toEqual(['db.json.lock']);
  });
});

describe('a lock whose holder cannot be checked is judged by its heartbeat', () => {
  const uncertain: [string, Partial<LockHolder> | string, () => Machine][] = [
    [
      'our own pid, no start time to compare',
      { ...ME, startTime: null },
      () => new Machine({ ...ME, startTime: null }),
    ],
    ['another host', { ...OTHER, host: 'there' }, () => new Machine()],
    [
      'another pid namespace of this host (containers sharing its network)',
      { ...OTHER, pidNs: 'pid:[2]' },
      () => new Machine(),
    ],
    ['a lock file that does not say who holds it', '{"pid":', () => new Machine()],
  ];

  it.for(uncertain)(
    'one touched a moment ago is watched, and taken over once it stays untouched for the staleness window: %s',
    async ([, holder, newMachine]) => {
      const machine = newMachine();
      await leaveLock(holder, T0 - 1000);
      await acquire(machine);
      expect(machine.waited).toBeGreaterThanOrEqual(STALE_AFTER_MS - 1000);
      expect(machine.waited).toBeLessThanOrEqual(STALE_AFTER_MS);
      expect(await holderNow()).toMatchObject(machine.me);
      expect(await readdir(dir)).toEqual(['db.json.lock']);
    },
  );

  it.for(uncertain)(
    'one untouched for longer than the window is taken over at once: %s',
    async ([, holder, newMachine]) => {
      const machine = newMachine();
      await leaveLock(holder, T0 - STALE_AFTER_MS - 1000);
      await acquire(machine);
      expect(machine.waited).toBe(0);
      expect(await holderNow()).toMatchObject(machine.me);
    },
  );

  it('another host whose heartbeat goes on while it is watched holds the lock: the start is refused', async () => {
    const machine = new Machine();
    await leaveLock({ ...OTHER, host: 'there' }, T0 - 1000);
    const before = await readFile(lockFile);
    // The holder touches its lock every heartbeat.
    let beat = T0 - 1000;
    machine.onWait = async () => {
      if (machine.clock - beat < HEARTBEAT_MS) return;
      beat = machine.clock;
      await touch(beat);
    };

    const error = await acquire(machine).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateFileInUseError);
    expect((error as Error).message).toBe(
      `db.json is in use by process 2000 on host there (lock ${lockFile})`,
    );
    expect(machine.waited).toBeLessThanOrEqual(STALE_AFTER_MS);
    expect(await readFile(lockFile)).toEqual(before);
    expect(await readdir(dir)).toEqual(['db.json.lock']);
  });

  it('by default the window is ten seconds', async () => {
    const machine = new Machine();
    await leaveLock({ ...OTHER, host: 'there' }, T0 - 1000);
    held.push(await StateLock.acquire(nodeFileSystem, file, 'db.json', { probes: machine }));
    expect(machine.waited).toBeGreaterThanOrEqual(STALE_AFTER_MS - 1000);
    expect(machine.waited).toBeLessThanOrEqual(STALE_AFTER_MS);
  });

  it('a holder whose clock runs ahead (an mtime in the future) is taken over after the window, not never', async () => {
    const machine = new Machine();
    await leaveLock({ ...OTHER, host: 'there' }, T0 + 60_000);
    await acquire(machine);
    expect(machine.waited).toBeGreaterThanOrEqual(STALE_AFTER_MS);
    expect(machine.waited).toBeLessThanOrEqual(STALE_AFTER_MS + STALE_AFTER_MS / 20);
  });
});

/**
 * The real file system, but `rename` tells `reached` and waits for `gate` first: a starter held between its
 * judgement of a lock and its move of it.
 */
function renameAfter(reached: () => void, gate: Promise<unknown>): StoreFileSystem {
  return {
    ...nodeFileSystem,
    rename: async (from, to) => {
      reached();
      await gate;
      await nodeFileSystem.rename(from, to);
    },
  };
}

describe('starters racing to take over one stale lock', () => {
  it('end with exactly one holder, however they interleave', async () => {
    for (let round = 0; round < 20; round++) {
      await leaveLock({ ...OTHER, pid: 3000 }, T0);
      // Two processes of this host: each sees the other run.
      const running = new Map<number, string | null>([
        [1000, '500'],
        [1001, '501'],
      ]);
      const a = new Machine(ME, running);
      const b = new Machine({ ...ME, pid: 1001, startTime: '501' }, running);
      const results = await Promise.allSettled([acquire(a), acquire(b)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected');
      expect(lost?.status === 'rejected' && lost.reason).toBeInstanceOf(StateFileInUseError);
      expect(await readdir(dir)).toEqual(['db.json.lock']);
      const winner = won[0]?.status === 'fulfilled' ? won[0].value : null;
      await winner?.release();
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('one that moves aside the lock the other just made puts it back, and is refused', async () => {
    await leaveLock({ ...OTHER, pid: 3000 }, T0);
    const running = new Map<number, string | null>([
      [1000, '500'],
      [1001, '501'],
    ]);
    const a = new Machine(ME, running);
    const b = new Machine({ ...ME, pid: 1001, startTime: '501' }, running);
    // B judges the stale lock first, and moves "it" only once A has taken it over and made its own.
    let aHolds: (lock: StateLock) => void = () => {};
    const aHeld = new Promise<StateLock>((resolve) => {
      aHolds = resolve;
    });
    let bJudged: () => void = () => {};
    const bAboutToMove = new Promise<void>((resolve) => {
      bJudged = resolve;
    });
    const bStarted = acquire(b, renameAfter(bJudged, aHeld)).catch((e: unknown) => e);
    await bAboutToMove;
    const lockA = await acquire(a);
    const made = await stat(lockFile);
    aHolds(lockA);

    expect(await bStarted).toBeInstanceOf(StateFileInUseError);
    expect(await holderNow()).toMatchObject({ pid: 1000 });
    // The very file A made (A's heartbeat touches it through its open handle), and nothing left beside it.
    expect((await stat(lockFile)).ino).toBe(made.ino);
    expect(await readdir(dir)).toEqual(['db.json.lock']);
    await lockA.release();
    expect(await readdir(dir)).toEqual([]);
  });
});

/** The real file system; each open file tells `touched` when its times are set. */
function watchedTouches(touched: (mtime: Date) => void): StoreFileSystem {
  return {
    ...nodeFileSystem,
    open: async (path, flags) => {
      const file = await nodeFileSystem.open(path, flags);
      const watched: StoreFile = {
        write: (data, offset, length) => file.write(data, offset, length),
        read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
        datasync: () => file.datasync(),
        truncate: (length) => file.truncate(length),
        stat: () => file.stat(),
        utimes: async (atime, mtime) => {
          await file.utimes(atime, mtime);
          touched(mtime);
        },
        chmod: (mode) => file.chmod(mode),
        close: () => file.close(),
      };
      return watched;
    },
  };
}

describe('the holder', () => {
  it('touches its lock every heartbeat, and at release stops and removes it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const machine = new Machine();
    let touched: (mtime: Date) => void = () => {};
    const lock = await acquire(
      machine,
      watchedTouches((mtime) => touched(mtime)),
    );
    for (let beat = 1; beat <= 2; beat++) {
      const next = new Promise<Date>((resolve) => {
        touched = resolve;
      });
      machine.clock += HEARTBEAT_MS;
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect((await next).getTime()).toBe(machine.clock);
      expect((await stat(lockFile)).mtimeMs).toBe(machine.clock);
    }
    expect(vi.getTimerCount()).toBe(1);
    await lock.release();
    expect(vi.getTimerCount()).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('at release leaves a lock that is no longer its own', async () => {
    const lock = await acquire(new Machine());
    const theirs = `${JSON.stringify({ ...OTHER, host: 'there', token: 'theirs' })}\n`;
    await writeFile(lockFile, theirs);
    await lock.release();
    expect(await readFile(lockFile, 'utf8')).toBe(theirs);
  });
});

describe('the probes of this machine', () => {
  it('tell this process as its lock records it, and a process that ended from one that runs', async () => {
    const me = await systemProbes.self();
    expect(me).toMatchObject({ pid: process.pid, host: hostname() });
    if (process.platform === 'linux') {
      expect(me.bootId).toMatch(/^[0-9a-f-]{36}$/);
      expect(me.pidNs).toMatch(/^pid:\[\d+\]$/);
      expect(me.startTime).toMatch(/^\d+$/);
    }
    expect(await systemProbes.process(process.pid)).toEqual({ running: true, startTime: me.startTime });
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    expect(await systemProbes.process(child.pid ?? 0)).toEqual({ running: false, startTime: null });
  });
});

/** Resolves with the error the lock is lost with, once its `onLost` listeners are told. */
function lostOf(lock: StateLock): Promise<StateTakenOverError> {
  return new Promise((resolve) => lock.onLost(resolve));
}

/** A second process's lock, as another starter would leave it after taking ours over: a new file at the path. */
async function takeOver(holder: Partial<LockHolder>): Promise<void> {
  await rm(lockFile);
  await writeFile(lockFile, `${JSON.stringify({ ...holder, token: 'theirs' })}\n`, { flag: 'wx' });
}

describe('the holder fences itself', () => {
  it('confirms its lock with a stat and a read of the path, as long as the path holds that very file with its token', async () => {
    const disk = new FaultyFileSystem();
    const lock = await acquire(new Machine(), disk);
    const from = disk.calls.length;
    await lock.confirm();
    await lock.confirm();
    expect(disk.calls.slice(from)).toEqual([
      `stat ${lockFile}`,
      `readFile ${lockFile}`,
      `stat ${lockFile}`,
      `readFile ${lockFile}`,
    ]);
  });

  it.for<[string, () => Promise<void>, StateTakenOverError['holder']]>([
    ['removed by hand (a clean-up script)', () => rm(lockFile), null],
    [
      'taken over by a process of another PID namespace',
      () => takeOver({ ...OTHER, pidNs: 'pid:[2]' }),
      { pid: OTHER.pid, host: OTHER.host },
    ],
    [
      'taken over by another host',
      () => takeOver({ ...OTHER, host: 'there' }),
      { pid: OTHER.pid, host: 'there' },
    ],
    [
      // The same file number, as a lock moved aside, removed, and its number given to the lock that took over.
      'rewritten in place with another holder’s token',
      () => writeFile(lockFile, `${JSON.stringify({ ...OTHER, pidNs: 'pid:[2]', token: 'theirs' })}\n`),
      { pid: OTHER.pid, host: OTHER.host },
    ],
    [
      'replaced by a file that names nobody',
      async () => {
        await rm(lockFile);
        await writeFile(lockFile, 'not a lock\n');
      },
      { pid: null, host: null },
    ],
  ])(
    'once its lock is %s: confirm throws StateTakenOverError saying who is there, tells onLost once, and from then on refuses at once',
    async ([, replace, holder]) => {
      const disk = new FaultyFileSystem();
      const lock = await acquire(new Machine(), disk);
      const told: StateTakenOverError[] = [];
      lock.onLost((error) => told.push(error));
      await replace();
      const theirs = await readFile(lockFile).catch(() => null);

      const error = await lock.confirm().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateTakenOverError);
      expect(error).toMatchObject({
        status: 503,
        code: 'ETAKENOVER',
        message: 'The state file was taken over by another process',
        lockFile,
        holder,
      });
      expect(told).toEqual([error]);
      // Later checks ask nothing of the disk; a listener that comes late is told at once.
      const from = disk.calls.length;
      await expect(lock.confirm()).rejects.toBe(error);
      expect(disk.calls.slice(from)).toEqual([]);
      expect(await lostOf(lock)).toBe(error);
      expect(told).toHaveLength(1);
      // What is at the path now is not ours to remove.
      await lock.release();
      expect(await readFile(lockFile).catch(() => null)).toEqual(theirs);
    },
  );

  it('a stat or a read of the path that fails (EIO) is thrown as it came: whether the lock is ours cannot be told, and it is not lost for that', async () => {
    const disk = new FaultyFileSystem();
    const lock = await acquire(new Machine(), disk);
    let lost = false;
    lock.onLost(() => {
      lost = true;
    });
    disk.inject({ op: 'stat', code: 'EIO', path: '.lock' });
    await expect(lock.confirm()).rejects.toMatchObject({ code: 'EIO' });
    await expect(lock.confirm()).resolves.toBeUndefined();
    // A read of it too.
    disk.inject({ op: 'readFile', code: 'EIO', path: '.lock' });
    await expect(lock.confirm()).rejects.toMatchObject({ code: 'EIO' });
    await expect(lock.confirm()).resolves.toBeUndefined();
    expect(lost).toBe(false);
  });

  it.for<[string, () => Promise<void>]>([
    ['removed', () => rm(lockFile)],
    ['taken over by another process', () => takeOver({ ...OTHER, pidNs: 'pid:[2]' })],
    [
      // The same file (inode) with another token: only the heartbeat, which reads the bytes, can tell.
      'rewritten in place with another holder’s token',
      () => writeFile(lockFile, `${JSON.stringify({ ...OTHER, token: 'theirs' })}\n`),
    ],
    [
      'replaced by a FIFO',
      async () => {
        await rm(lockFile);
        execFileSync('mkfifo', [lockFile]);
      },
    ],
  ])(
    'a heartbeat finds its lock %s with no write going on: tells onLost, touches it no more and stops beating',
    async ([, replace]) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const machine = new Machine();
      const touches: number[] = [];
      const lock = await acquire(
        machine,
        watchedTouches((mtime) => touches.push(mtime.getTime())),
      );
      const lost = lostOf(lock);
      await replace();

      machine.clock += HEARTBEAT_MS;
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(await lost).toMatchObject({ code: 'ETAKENOVER', lockFile });
      expect(touches).toEqual([]);
      expect(vi.getTimerCount()).toBe(0);
      await expect(lock.confirm()).rejects.toBeInstanceOf(StateTakenOverError);
    },
  );
});

describe('a lock path that holds no regular file', () => {
  const { later } = closedAfterEachTest();
  /** Makes something other than a file at the lock path; answers why it cannot, where this machine does not let it. */
  const makers: [string, string, () => Promise<string | null>][] = [
    [
      'a FIFO',
      'a FIFO (named pipe)',
      async () => {
        execFileSync('mkfifo', [lockFile]);
        return null;
      },
    ],
    [
      'a folder',
      'a folder',
      async () => {
        await mkdir(lockFile);
        return null;
      },
    ],
    [
      'a character device',
      'a character device',
      async () => {
        try {
          // The numbers of /dev/null: harmless to open and to read.
          execFileSync('mknod', [lockFile, 'c', '1', '3'], { stdio: 'pipe' });
          return null;
        } catch (error) {
          return `making a device needs root (${String((error as Error).message).split('\n')[0]})`;
        }
      },
    ],
    [
      'a socket',
      'a socket',
      async () => {
        const server = createServer();
        await new Promise<void>((resolve) => server.listen(lockFile, resolve));
        // Closed after the test: closing it removes the socket file.
        later(() => new Promise((resolve) => server.close(resolve)));
        return null;
      },
    ],
  ];

  it.for(makers)(
    'refuses the start at once with StateLockPathError naming what is there, and leaves it as it was: %s',
    async ([, found, make], ctx) => {
      const cannot = await make();
      if (cannot) return ctx.skip(`skipped: ${cannot}`);
      const before = await lstat(lockFile);
      const machine = new Machine();

      const error = await acquire(machine).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateLockPathError);
      expect(error).toMatchObject({ file: 'db.json', lockFile, found, status: 409 });
      expect((error as Error).message).toBe(
        `db.json cannot be locked: its lock path ${lockFile} is ${found}, not a lock file`,
      );
      expect(machine.waited).toBe(0);
      const after = await lstat(lockFile);
      expect({ ino: after.ino, mode: after.mode }).toEqual({ ino: before.ino, mode: before.mode });
      expect(await readdir(dir)).toEqual(['db.json.lock']);
    },
  );
});
