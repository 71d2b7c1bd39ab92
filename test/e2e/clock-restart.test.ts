import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClockView, clock } from '../../src/contract/control/clock.js';
import { ledger as ledgerSchema } from '../../src/contract/control/money.js';
import { dataOf } from '../support/answers.js';
import { http, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

const DAY = 24 * 3_600_000;

let dir: string;
const running: SandboxProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clock-restart-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function start(data: string): Promise<SandboxProcess> {
  const p = await startProcess(['--data', data]);
  running.push(p);
  return p;
}

async function clockOf(p: SandboxProcess): Promise<ClockView> {
  const res = await http(p, 'GET', '/__sandbox/clock');
  expect(res.status).toBe(200);
  return dataOf(res, clock);
}

/** Sets A1's balance (a ledger entry stamped by the clock) and answers that entry's time. */
async function ledgerEntryAt(p: SandboxProcess, balance: number): Promise<string> {
  const set = await http(p, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance } });
  expect(set.status).toBe(200);
  const ledger = await http(p, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger`);
  const [newest] = dataOf(ledger, ledgerSchema).transactions;
  return newest?.createdAt ?? '';
}

describe('the clock across a restart', () => {
  it('keeps a frozen clock where it stood and a running one ahead by its offset: time never runs backwards', async () => {
    const data = join(dir, 'db.json');
    const first = await start(data);
    expect((await http(first, 'POST', '/__sandbox/clock/freeze', { body: {} })).status).toBe(200);
    expect((await http(first, 'POST', '/__sandbox/clock/advance', { body: { ms: 10 * DAY } })).status).toBe(
      200,
    );
    const before = await clockOf(first);
    const earlier = await ledgerEntryAt(first, 1_000_000);
    expect(earlier).toBe(before.now);
    expect(await stop(first)).toEqual({ code: 0, signal: null });

    const second = await start(data);
    const after = await clockOf(second);
    expect(after).toMatchObject({ frozen: true, now: before.now });
    const later = await ledgerEntryAt(second, 2_000_000);
    expect(Date.parse(later)).toBeGreaterThanOrEqual(Date.parse(earlier));

    // Let it run: it goes on from where it stood, ten days ahead of real time, and stays ahead after a restart.
    expect((await http(second, 'POST', '/__sandbox/clock/freeze', { body: { frozen: false } })).status).toBe(
      200,
    );
    const runningBefore = await clockOf(second);
    expect(await stop(second)).toEqual({ code: 0, signal: null });

    const third = await start(data);
    const runningAfter = await clockOf(third);
    expect(runningAfter.frozen).toBe(false);
    expect(Date.parse(runningAfter.now)).toBeGreaterThanOrEqual(Date.parse(runningBefore.now));
    expect(runningAfter.offsetMs).toBeGreaterThan(9 * DAY);
    expect(Date.parse(await ledgerEntryAt(third, 3_000_000))).toBeGreaterThan(Date.parse(later));
    await stop(third);
  });
});
