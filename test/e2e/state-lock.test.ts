import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  utimes,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger as ledgerSchema } from '../../src/contract/control/money.js';
import { dataOf } from '../support/answers.js';
import { wholeLedger } from '../support/money.js';
import { http, ownerHeadersOf, runCli, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

let dir: string;
const running: SandboxProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-lock-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function start(data: string): Promise<SandboxProcess> {
  const p = await startProcess(['--data', data, '--quiet']);
  running.push(p);
  return p;
}

/** Sets A1's balance: a change acknowledged by its 200, and a ledger entry that leaves this balance. */
async function setBalance(p: SandboxProcess, balance: number): Promise<void> {
  const res = await http(p, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance } });
  expect(res.status).toBe(200);
}

/** A1's balance, and what each of its balance adjustments left, newest first. */
async function moneyOf(p: SandboxProcess): Promise<{ balance: number; adjustedTo: number[] }> {
  const view = dataOf(await http(p, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger`), ledgerSchema);
  const adjustments = view.transactions.filter((t) => t.kind === 'balance_adjustment');
  return { balance: view.balance, adjustedTo: adjustments.map((t) => t.balanceAfter) };
}

/**
 * Every file under `folder`: its bytes, and its mtime unless it is the lock (which its holder's heartbeat touches).
 * The same record before and after means nothing was created, removed, truncated, written or touched.
 */
async function filesUnder(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) {
      out[path] = 'folder';
      continue;
    }
    const mtime = path.endsWith('.lock') ? '' : ` @${(await stat(path)).mtimeMs}`;
    out[path] = `${(await readFile(path)).toString('base64')}${mtime}`;
  }
  return out;
}

describe.concurrent('one process per state file', () => {
  it('a second start on a file in use exits 2 naming the file and the holder, and changes nothing; after kill -9 of the holder a start takes the file with every acknowledged change', async () => {
    const data = join(dir, 'held', 'db.json');
    const first = await start(data);
    for (let i = 1; i <= 3; i++) await setBalance(first, 100_001 * i);
    const before = await filesUnder(dirname(data));
    expect(Object.keys(before)).toContain(`${data}.lock`);

    const second = await runCli(['--data', data, '--port', '0']);
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split('\n')).toEqual([
      `banking-sandbox: ${data} is in use by process ${first.child.pid} (lock ${data}.lock); stop that process, or give this one another --data file`,
    ]);
    expect(await filesUnder(dirname(data))).toEqual(before);

    // The holder goes on serving, and writing.
    await setBalance(first, 400_004);
    expect(await stop(first, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    // Its lock stays behind, naming a process that is gone: it does not block the next start.
    expect(await readdir(dirname(data))).toContain('db.json.lock');

    const third = await start(data);
    expect(await moneyOf(third)).toEqual({
      balance: 400_004,
      adjustedTo: [400_004, 300_003, 200_002, 100_001],
    });
    expect(await stop(third)).toEqual({ code: 0, signal: null });
    expect(await readdir(dirname(data))).not.toContain('db.json.lock');
  });

  it('a symlinked state file stays a link through writes, a reset and a restart; its target holds the state', async () => {
    const link = join(dir, 'link.json');
    // Dangling at first: the state is made at the target, in a folder that does not exist yet.
    await symlink(join('volume', 'state.json'), link);
    const target = join(dir, 'volume', 'state.json');

    const first = await start(link);
    await setBalance(first, 100_001);
    // A reset writes a whole new snapshot: a temporary file renamed onto the state file.
    expect((await http(first, 'POST', '/__sandbox/reset', { body: {} })).status).toBe(200);
    await setBalance(first, 200_002);
    expect(await stop(first)).toEqual({ code: 0, signal: null });

    const second = await start(link);
    expect(await moneyOf(second)).toEqual({ balance: 200_002, adjustedTo: [200_002] });
    await setBalance(second, 300_003);
    expect(await stop(second)).toEqual({ code: 0, signal: null });

    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(join('volume', 'state.json'));
    expect(await readdir(join(dir, 'volume'))).toEqual(['state.json', 'state.json.wal']);
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ version: 1 });
    expect(await readFile(`${target}.wal`, 'utf8')).toContain('"balanceAfter":300003');
    expect((await readdir(dir)).filter((name) => name.startsWith('link.json'))).toEqual(['link.json']);
  });
});

describe('a lock path that holds no regular file', () => {
  const makers: [string, (path: string) => Promise<string | null>][] = [
    [
      'a FIFO (named pipe)',
      async (path) => {
        execFileSync('mkfifo', [path]);
        return null;
      },
    ],
    [
      'a folder',
      async (path) => {
        await mkdir(path);
        return null;
      },
    ],
    [
      'a character device',
      async (path) => {
        try {
          // The numbers of /dev/null.
          execFileSync('mknod', [path, 'c', '1', '3'], { stdio: 'pipe' });
          return null;
        } catch (error) {
          return `making a device needs root (${String((error as Error).message).split('\n')[0]})`;
        }
      },
    ],
  ];

  it.for(makers)(
    'stops the start with exit 2 and one line, without waiting on it, and changes nothing: %s',
    async ([found, make], ctx) => {
      const folder = join(dir, `not-a-file-${found.split(' ')[1]}`);
      await mkdir(folder);
      const data = join(folder, 'db.json');
      const cannot = await make(`${data}.lock`);
      if (cannot) return ctx.skip(`skipped: ${cannot}`);
      const before = await lstat(`${data}.lock`);

      const result = await runCli(['--data', data, '--port', '0']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        `banking-sandbox: ${data} cannot be locked: its lock path ${data}.lock is ${found}, not a lock file; remove it, or give this sandbox another --data file`,
      ]);
      expect(result.stdout).toBe('');
      expect(await readdir(folder)).toEqual(['db.json.lock']);
      expect((await lstat(`${data}.lock`)).ino).toBe(before.ino);
    },
  );
});

/**
 * Why this machine cannot start a process in a PID namespace of its own (`unshare -p` needs root, and a container
 * may forbid it even then), or null when it can.
 */
function cannotUnshare(): string | null {
  try {
    execFileSync('unshare', [...UNSHARE, 'true'], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `a PID namespace cannot be made here (${String((error as Error).message).split('\n')[0]})`;
  }
}

/** A PID namespace of its own (with its own /proc), and the process in it killed if `unshare` is. */
const UNSHARE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

/**
 * Resolves once the process is stopped (state `T` in /proc): a signal is delivered some time after `kill` returns,
 * and a heartbeat in between would touch the lock again.
 */
async function stopped(pid: number): Promise<void> {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command's name, which is in parentheses and may hold spaces.
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The sandbox's node process in this namespace: the one child of the `unshare` that runs it. */
async function nodeOf(p: SandboxProcess): Promise<number> {
  const pid = p.child.pid;
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(' ');
  if (children.length !== 1 || !children[0])
    throw new Error(`unshare ${pid} runs ${children.length} processes`);
  return Number(children[0]);
}

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
/** Transfers each writer keeps on its way to one sandbox. */
const WRITERS = 2;

/** A transfer sent, and its answer: a status, or the error of a request that got none (the process was gone). */
interface Sent {
  to: string;
  ref: string;
  status: number | null;
  message: unknown;
  /** Sent after the sandbox that answered was let run again (SIGCONT), or after its lock was removed. */
  late: boolean;
}

/**
 * Writers that keep sending transfers to one sandbox, each with a reference of its own, until told to stop or
 * until the sandbox is gone; `acked` resolves once `n` transfers were answered 200.
 */
function keepWriting(p: SandboxProcess, name: string, headers: Record<string, string>, sent: Sent[]) {
  let stopped = false;
  let count = 0;
  let late = false;
  const waiters: { n: number; resolve: () => void }[] = [];
  const worker = async (w: number) => {
    while (!stopped) {
      const one: Sent = { to: name, ref: `${name}-${w}-${count++}`, status: null, message: null, late };
      sent.push(one);
      try {
        const res = await http(p, 'POST', TRANSFER, {
          headers,
          body: {
            amount: 100,
            receiverAccountNumber: '0123456789',
            receiverBankCode: '058',
            retrievalReference: one.ref,
            narration: name,
          },
        });
        one.status = res.status;
        one.message = res.body.message;
      } catch (error) {
        // No answer: the sandbox stopped (or is stopping). Nothing more to send it.
        one.message = String((error as Error).cause ?? error);
        return;
      }
      const acked = sent.filter((s) => s.to === name && s.status === 200).length;
      for (const waiter of waiters.filter((x) => acked >= x.n)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const done = Promise.all(Array.from({ length: WRITERS }, (_, w) => worker(w)));
  return {
    /** Resolves once `n` transfers to this sandbox were acknowledged in all. */
    acked: (n: number) =>
      new Promise<void>((resolve) => {
        waiters.push({ n, resolve });
      }),
    /** From now on, what is sent is marked late. */
    markLate: () => {
      late = true;
    },
    stop: async () => {
      stopped = true;
      await done;
    },
    done,
  };
}

/** Every 200-acknowledged transfer is in the state a fresh start loads, exactly once. */
async function expectEveryAcknowledgedKept(data: string, sent: Sent[]): Promise<void> {
  const p = await start(data);
  const ledger = await wholeLedger((path) => http(p, 'GET', path), A.a1.id);
  const refs = ledger.transactions.map((t) => t.retrievalReference);
  const acked = sent.filter((s) => s.status === 200).map((s) => s.ref);
  expect(acked.filter((ref) => refs.filter((r) => r === ref).length !== 1)).toEqual([]);
  expect(ledger.balance).toBe(ledger.ledgerBalance);
  expect(await stop(p)).toEqual({ code: 0, signal: null });
}

/** The log lines of a process that say its state file was taken over. */
const takenOverLines = (p: SandboxProcess) =>
  p
    .stdout()
    .split('\n')
    .filter((line) => line.includes('store.taken_over'));

describe('the holder fences itself: no acknowledged write is lost to a second writer', () => {
  it('a holder paused past the staleness window in its own PID namespace, its lock taken over by another, refuses every write once it runs again and exits 1', async (ctx) => {
    const cannot = cannotUnshare();
    if (cannot) return ctx.skip(`skipped: ${cannot}`);
    const data = join(dir, 'paused', 'db.json');
    const first = await startProcess(['--data', data, '--quiet'], { prefix: UNSHARE });
    running.push(first);
    const firstNode = await nodeOf(first);
    const headers = await ownerHeadersOf(first);
    const sent: Sent[] = [];
    const toFirst = keepWriting(first, 'first', headers, sent);
    await toFirst.acked(20);

    // Paused with writes on their way; its heartbeat stops with it. The second, in a PID namespace of its own,
    // cannot check it and judges it by its lock's last touch: set a minute back, as if the pause had lasted past
    // the staleness window, so the second takes it over without waiting the window out (the window itself and its
    // default are the unit tests' business, on a clock of their own).
    process.kill(firstNode, 'SIGSTOP');
    await stopped(firstNode);
    const aMinuteAgo = (Date.now() - 60_000) / 1000;
    await utimes(`${data}.lock`, aMinuteAgo, aMinuteAgo);
    const second = await startProcess(['--data', data, '--quiet'], { prefix: UNSHARE });
    running.push(second);
    const toSecond = keepWriting(second, 'second', headers, sent);
    await toSecond.acked(10);

    toFirst.markLate();
    process.kill(firstNode, 'SIGCONT');
    expect(await first.exited).toEqual({ code: 1, signal: null });
    await toFirst.done;
    await toSecond.acked(sent.filter((s) => s.to === 'second' && s.status === 200).length + 10);
    await toSecond.stop();
    process.kill(await nodeOf(second), 'SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    expect(takenOverLines(first)).toHaveLength(1);
    expect(takenOverLines(first)[0]).toMatch(
      / error +store\.taken_over the state file was taken over by another process: its lock .+ now names process \d+/,
    );
    // What the first was asked after it ran again: never acknowledged.
    const late = sent.filter((s) => s.to === 'first' && s.late);
    expect(late.filter((s) => s.status === 200)).toEqual([]);
    for (const s of late.filter((x) => x.status !== null))
      expect(s).toMatchObject({ status: 503, message: 'The state file was taken over by another process' });
    expect(sent.filter((s) => s.status !== null && s.status !== 200 && s.status !== 503)).toEqual([]);
    await expectEveryAcknowledgedKept(data, sent);
  });

  it('a holder whose lock is removed by hand while it writes, and another starts at once, refuses every write from then on and exits 1', async () => {
    const data = join(dir, 'removed', 'db.json');
    const first = await start(data);
    const headers = await ownerHeadersOf(first);
    const sent: Sent[] = [];
    const toFirst = keepWriting(first, 'first', headers, sent);
    await toFirst.acked(20);

    await rm(`${data}.lock`);
    // Sent from now on: its write is checked after the lock is gone.
    toFirst.markLate();
    const second = await start(data);
    const toSecond = keepWriting(second, 'second', headers, sent);
    expect(await first.exited).toEqual({ code: 1, signal: null });
    await toFirst.done;
    await toSecond.acked(20);
    await toSecond.stop();
    expect(await stop(second)).toEqual({ code: 0, signal: null });

    expect(takenOverLines(first)).toHaveLength(1);
    const late = sent.filter((s) => s.to === 'first' && s.late);
    expect(late.filter((s) => s.status === 200)).toEqual([]);
    expect(sent.filter((s) => s.status !== null && s.status !== 200 && s.status !== 503)).toEqual([]);
    await expectEveryAcknowledgedKept(data, sent);
  });
});
