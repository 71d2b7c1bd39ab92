import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger } from '../../src/contract/control/money.js';
import { dataOf } from '../support/answers.js';
import { http, ownerHeadersOf, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const HOUR = 3_600_000;

let dir: string;
const running: SandboxProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'money-after-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function ledgerOf(p: SandboxProcess) {
  return dataOf(await http(p, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger`), ledger);
}

describe('money after the answer, across kill -9', () => {
  // Three starts of the built process, one after another: given the time a busy machine takes to start them.
  it('a transfer acknowledged with its reversal scheduled, then kill -9: after the restart the reversal runs at its moment, once', {
    timeout: 90_000,
  }, async () => {
    const data = join(dir, 'db.json');
    const first = await startProcess(['--data', data]);
    running.push(first);
    expect((await http(first, 'POST', '/__sandbox/clock/freeze', { body: {} })).status).toBe(200);
    const rules = [{ on: 'transfer', effect: { reverse: { afterMs: HOUR, reason: 'Returned' } } }];
    expect((await http(first, 'POST', '/__sandbox/scenario/rules', { body: { rules } })).status).toBe(200);
    const headers = await ownerHeadersOf(first);
    const body = {
      amount: 150000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: 'killed-before-reversal',
      narration: 'Pay',
    };
    expect((await http(first, 'POST', TRANSFER, { headers, body })).status).toBe(200);
    const debited = (await ledgerOf(first)).balance;
    await stop(first, 'SIGKILL');

    const second = await startProcess(['--data', data]);
    running.push(second);
    // The clock was kept frozen where it stood: the reversal is still an hour away.
    expect((await ledgerOf(second)).balance).toBe(debited);
    expect((await http(second, 'POST', '/__sandbox/clock/advance', { body: { ms: HOUR } })).status).toBe(200);
    const after = await ledgerOf(second);
    const reversals = after.transactions.filter((t) => t.kind === 'reversal');
    expect(reversals).toHaveLength(1);
    expect(reversals[0]?.reverses?.retrievalReference).toBe('killed-before-reversal');
    expect(after.balance).toBe(debited + Number(reversals[0]?.amount));
    await stop(second, 'SIGKILL');

    // And once only: a third start finds nothing left to do.
    const third = await startProcess(['--data', data]);
    running.push(third);
    await http(third, 'POST', '/__sandbox/clock/advance', { body: { ms: HOUR } });
    expect((await ledgerOf(third)).transactions.filter((t) => t.kind === 'reversal')).toHaveLength(1);
    await stop(third);
  });
});
