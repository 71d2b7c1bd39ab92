import { readFile, readlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';

// What the state lock (state-lock.ts) asks of the machine to tell whether a lock's holder still runs, apart from
// the lock's logic so that its tests give their own answers.

/** Who holds a lock, as its file records it: enough to tell, from another process, whether it still runs. */
export interface LockHolder {
  pid: number;
  /** `os.hostname()`: in a container, the container's. */
  host: string;
  /** `/proc/sys/kernel/random/boot_id`: another one means the machine restarted since; null where unreadable. */
  bootId: string | null;
  /** `/proc/self/ns/pid` (`pid:[4026531836]`): pids are only comparable inside one namespace; null where unreadable. */
  pidNs: string | null;
  /** Field 22 of `/proc/<pid>/stat` (clock ticks since boot): tells a reused pid from its first owner. */
  startTime: string | null;
}

/** What the lock logic needs to know of the machine, injected so that tests choose pids, hosts and time. */
export interface LockProbes {
  /** This process, as its lock records it. */
  self(): Promise<LockHolder>;
  /** Whether `pid` runs in this process's pid namespace (not a zombie), and its start time where readable. */
  process(pid: number): Promise<{ running: boolean; startTime: string | null }>;
  /** Wall-clock time, ms since the epoch: heartbeats set the lock's mtime from it, and staleness compares it. */
  now(): number;
  /** Waits `ms` while watching an uncertain lock (tests advance their clock instead of sleeping). */
  wait(ms: number): Promise<void>;
}

/** Reads `/proc/<pid>/stat`: its state letter and start time, or null where there is no such file. */
async function procStat(pid: number | 'self'): Promise<{ state: string; startTime: string } | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses: fields count from the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const startTime = fields[19];
    return state && startTime ? { state, startTime } : null;
  } catch {
    return null;
  }
}

async function readTrimmed(read: () => Promise<string>): Promise<string | null> {
  try {
    return (await read()).trim() || null;
  } catch {
    return null;
  }
}

/** The probes of this machine. */
export const systemProbes: LockProbes = {
  self: async () => ({
    pid: process.pid,
    host: hostname(),
    bootId: await readTrimmed(() => readFile('/proc/sys/kernel/random/boot_id', 'latin1')),
    pidNs: await readTrimmed(() => readlink('/proc/self/ns/pid')),
    startTime: (await procStat('self'))?.startTime ?? null,
  }),
  process: async (pid) => {
    try {
      // Signal 0 only asks whether the pid exists; EPERM says it does, as another user's.
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return { running: false, startTime: null };
    }
    const stat = await procStat(pid);
    // A zombie has exited; only its parent has not collected it yet.
    return { running: stat?.state !== 'Z' && stat?.state !== 'X', startTime: stat?.startTime ?? null };
  },
  now: () => Date.now(),
  wait: (ms) => delay(ms),
};
