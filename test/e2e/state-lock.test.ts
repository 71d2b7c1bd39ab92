import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger as ledgerSchema } from '../../src/contract/control/money.js';
import { dataOf } from '../support/answers.js';
import { http, runCli, type SandboxProcess, startProcess, stop } from '../support/process.js';
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
