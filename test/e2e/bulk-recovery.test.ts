import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkTransfer, bulkTransferWithItems } from '../../src/contract/api/bulk.js';
import { dataOf, pageOf } from '../support/answers.js';
import { wholeLedger } from '../support/money.js';
import { http, type SandboxProcess, startProcess, stop, waitForOutput } from '../support/process.js';
import { A } from '../support/sandbox.js';

const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
const ITEMS = 2000;
const AMOUNT = 1000;
const FEE = 1075;
const headers = { 'x-api-key': A.publicKey, 'x-api-secret': A.secretKey, businessId: A.a1.id };
// Slow enough that the kill lands in the middle of the batch.
const args = (data: string) => ['--data', data, '--bulk-concurrency', '2', '--bulk-item-delay', '2'];

let dir: string;
const running: SandboxProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-recovery-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('bulk transfer recovery', () => {
  it('after kill -9 in the middle of a 2 000-item batch, a restart finishes it: every item debited exactly once', async () => {
    const data = join(dir, 'db.json');
    const first = await startProcess(args(data));
    running.push(first);
    const transfers = Array.from({ length: ITEMS }, (_, i) => ({
      amount: AMOUNT,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `recovery-${i}`,
      narration: 'recovery',
    }));
    const created = await http(first, 'POST', BULK, { headers, body: { batchName: 'Recovery', transfers } });
    expect(created.status).toBe(201);
    const id = dataOf(created, bulkTransferWithItems).id;
    expect(
      (await http(first, 'POST', `${BULK}/process`, { headers, body: { bulkTransferId: id } })).status,
    ).toBe(202);

    // Wait (by asking, not sleeping) until a part of the batch is done, then kill without warning.
    let done = 0;
    while (done < 200) {
      const list = await http(first, 'GET', BULK, { headers });
      done = pageOf(list, bulkTransfer).data[0]?.completedItems ?? 0;
    }
    expect(done).toBeLessThan(ITEMS);
    first.child.kill('SIGKILL');
    await first.exited;

    // The delay only makes the kill land in the middle of the batch. The restart runs at the defaults (8 items at
    // a time, no delay): what is left of the batch is finished in a fraction of a second instead of waiting
    // 2 ms an item two at a time, and resumed items are claimed eight at a time, a harder case for "exactly once".
    const second = await startProcess(['--data', data]);
    running.push(second);
    expect((await http(second, 'POST', '/__sandbox/drain?timeoutMs=60000')).status).toBe(200);
    const batch = dataOf(await http(second, 'GET', `${BULK}/${id}`, { headers }), bulkTransferWithItems);
    expect(batch).toMatchObject({ status: 'completed', completedItems: ITEMS, failedItems: 0 });
    expect(batch.items.every((i) => i.status === 'completed')).toBe(true);

    const ledger = await wholeLedger((path) => http(second, 'GET', path), A.a1.id);
    const debits = ledger.transactions.filter((t) => t.kind === 'bulk_transfer' && t.status === 'successful');
    expect(debits).toHaveLength(ITEMS);
    expect(new Set(debits.map((t) => t.id))).toEqual(new Set(batch.items.map((i) => i.transactionReference)));
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    // The fixture balance (after the fixtures' own payments), less exactly one debit an item.
    expect(ledger.balance).toBe(A.a1.balance - ITEMS * (AMOUNT + FEE));
    // The log says what the restart took up and when the batch it finished settled.
    const out = second.stdout();
    expect(out).toMatch(
      / info {3}sandbox\.resumed resuming \d+ bulk transfer item\(s\) and 0 webhook delivery/,
    );
    expect(out).toMatch(
      new RegExp(
        ` info {3}batch\\.started ${id} "Recovery" \\(".*"\\): \\d+ of ${ITEMS} items, .*, resumed after a restart`,
      ),
    );
    await waitForOutput(
      second,
      new RegExp(
        ` info {3}batch\\.settled ${id} "Recovery": completed, ${ITEMS} completed, 0 failed, in \\d+ ms on the sandbox clock since it was resumed`,
      ),
    );
    await stop(second);
  }, 60_000);
});
