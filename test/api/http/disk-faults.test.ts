import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clock } from '../../../src/contract/control/clock.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { type Answered, dataOf } from '../../support/answers.js';
import {
  BANK,
  bulkDebits,
  bulkHelpers,
  drain,
  expectCountersMatch,
  processBatch,
  RECEIVER,
} from '../../support/bulk.js';
import { FaultyFileSystem } from '../../support/faulty-fs.js';
import { accountBalance, feeFor, ledgerOf } from '../../support/money.js';
import { startReceiver } from '../../support/receiver.js';
import { A, call, ownerHeaders } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';
import { delivery, FAST, incomingPayment, webhookSetup } from '../../support/webhooks.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const FULL = 'The sandbox cannot write its state: no space left on device (ENOSPC)';
const { ref, transfers, create, getBatch } = bulkHelpers({
  label: 'disk',
  narration: 'Disk fault',
  batchName: 'Disk faults',
});

let dir: string;
let disk: FaultyFileSystem;
let sandbox: Sandbox;
/** Resolves when the sandbox logs that a write was refused (its store undid it): something to wait on. */
let refusedWrite: Promise<void>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'disk-faults-'));
  disk = new FaultyFileSystem();
  let refused = () => {};
  refusedWrite = new Promise((resolve) => {
    refused = resolve;
  });
  const log = (line: string) => {
    if (/ error +store\.write_failing The sandbox cannot write its state/.test(line)) refused();
  };
  sandbox = await createSandbox({ data: join(dir, 'db.json'), log, ...FAST }, undefined, {
    storeFs: disk,
    probeIntervalMs: 5,
  });
});
afterEach(async () => {
  disk.heal();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

function transferBody(retrievalReference: string, amount = 250000) {
  return {
    amount,
    receiverAccountNumber: RECEIVER,
    receiverBankCode: BANK,
    retrievalReference,
    narration: 'x',
  };
}

describe('writes on a full disk', () => {
  it('refuse a transfer with 503 and the envelope, change nothing, keep reads working, and come back', async () => {
    const headers = await ownerHeaders(sandbox);
    const before = Number(await accountBalance(sandbox, headers));
    disk.spaceLeft = 0;
    const retrievalReference = ref();

    const refused = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody(retrievalReference),
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ status: false, message: FULL, data: null });
    expect(Number(await accountBalance(sandbox, headers))).toBe(before);
    expect(
      (await ledgerOf(sandbox)).transactions.some((t) => t.retrievalReference === retrievalReference),
    ).toBe(false);
    const health = await call(sandbox, 'GET', '/__sandbox/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', reason: FULL });

    disk.heal();
    await sandbox.store.whenWritable();
    expect((await call(sandbox, 'GET', '/__sandbox/health')).body).toMatchObject({ status: 'ok' });
    // The same reference again is a new transfer, debited once: the refused one never happened.
    const again = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(retrievalReference) });
    expect(again.status).toBe(200);
    expect(Number(await accountBalance(sandbox, headers))).toBe(before - 250000 - feeFor(250000));
    const ledger = await ledgerOf(sandbox);
    expect(ledger.transactions.filter((t) => t.retrievalReference === retrievalReference)).toHaveLength(1);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
  });

  it('refuse a reset and a state import with 503, and the state stays as it was', async () => {
    const headers = await ownerHeaders(sandbox);
    const made = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(ref()) });
    expect(made.status).toBe(200);
    const exported = await call(sandbox, 'GET', '/__sandbox/state');
    disk.spaceLeft = 0;

    const reset = await call(sandbox, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(503);
    expect(reset.body.message).toBe(FULL);
    const imported = await call(sandbox, 'PUT', '/__sandbox/state', { body: exported.body });
    expect(imported.status).toBe(503);
    expect((await call(sandbox, 'GET', '/__sandbox/state')).body).toEqual(exported.body);
    // The refused reset emptied nothing: the transfer is still in the journal, and so is the refused reset.
    const journal = (await call(sandbox, 'GET', '/__sandbox/requests')).body.data as { path: string }[];
    expect(journal.map((e) => e.path)).toEqual(expect.arrayContaining([TRANSFER, '/__sandbox/reset']));
  });

  it('a bulk item whose result cannot be written stays open and runs when space returns, debited once', async () => {
    const items = transfers(12);
    const batch = await create(sandbox, items);
    // The claim is written; every write after it fails until the disk is healed.
    disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal', after: 1, times: 1_000_000 });
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await refusedWrite;
    const stuck = await getBatch(sandbox, batch.id);
    expect(stuck.completedItems + stuck.failedItems).toBe(0);
    expectCountersMatch(stuck);

    disk.heal();
    await drain(sandbox);
    const settled = await getBatch(sandbox, batch.id);
    expect(settled.status).toBe('completed');
    expect(settled.completedItems).toBe(12);
    expectCountersMatch(settled);
    const ledger = await ledgerOf(sandbox);
    expect(bulkDebits(ledger, items)).toHaveLength(12);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
  });

  it('a webhook attempt that cannot be recorded is attempted again when space returns', async () => {
    const receiver = await startReceiver();
    try {
      const { account } = await webhookSetup(sandbox, receiver.url, { type: 'permanent', reference: ref() });
      disk.inject({ op: 'write', code: 'ENOSPC', path: '.wal', after: 1, times: 1_000_000 });
      const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 500000 });
      expect(paid.status).toBe(201);
      const id = dataOf(paid, paymentReceived).deliveryId;
      await refusedWrite;
      expect((await delivery(sandbox, id)).status).toBe('pending');

      disk.heal();
      await drain(sandbox);
      const done = await delivery(sandbox, id);
      expect(done.status).toBe('delivered');
      expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver.close();
    }
  });
});

/** Where the clock stands and whether it is frozen (its offset from real time grows while it is frozen). */
const clockOf = (res: Answered) => {
  const { now, frozen } = dataOf(res, clock);
  return { now, frozen };
};

describe('what a refused reset, import or advance leaves', () => {
  it('a refused reset leaves the clock, the scenario and the queued bulk items as they were', async () => {
    await sandbox.close();
    sandbox = await createSandbox(
      { data: join(dir, 'db.json'), log: () => undefined, bulkConcurrency: 2, bulkItemDelay: 50 },
      undefined,
      { storeFs: disk, probeIntervalMs: 5 },
    );
    expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: true } })).status).toBe(
      200,
    );
    expect((await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'happy-path' } })).status).toBe(
      200,
    );
    const items = transfers(12);
    const batch = await create(sandbox, items);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const clockBefore = dataOf(await call(sandbox, 'GET', '/__sandbox/clock'), clock);

    disk.spaceLeft = 0;
    const reset = await call(sandbox, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(503);
    expect((await call(sandbox, 'GET', '/__sandbox/clock')).body.data).toMatchObject({
      frozen: true,
      now: clockBefore.now,
    });
    expect((await call(sandbox, 'GET', '/__sandbox/scenario')).body.data).toMatchObject({
      name: 'happy-path',
    });

    disk.heal();
    // A write already on its way to the full disk still fails, and undoes what is queued behind it: the first one
    // that gets through says the disk is back.
    await sandbox.store.whenWritable();
    // The items the reset took off the queue are back on it: one advance runs them all.
    await sandbox.clock.advance(60_000);
    await drain(sandbox);
    const settled = await getBatch(sandbox, batch.id);
    expect(settled.completedItems).toBe(12);
    expectCountersMatch(settled);
  });

  it('a refused clock advance moves nothing', async () => {
    expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: true } })).status).toBe(
      200,
    );
    const before = await call(sandbox, 'GET', '/__sandbox/clock');
    disk.spaceLeft = 0;
    const advanced = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 3_600_000 } });
    expect(advanced.status).toBe(503);
    expect(advanced.body.message).toBe(FULL);
    expect(clockOf(await call(sandbox, 'GET', '/__sandbox/clock'))).toEqual(clockOf(before));
  });

  it('a refused import leaves the clock where it was', async () => {
    expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: true } })).status).toBe(
      200,
    );
    const exported = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const before = await call(sandbox, 'GET', '/__sandbox/clock');
    const meta = exported.collections.meta[0];
    if (meta) meta.clock = { offsetMs: 86_400_000, frozenAt: null };
    disk.spaceLeft = 0;
    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: exported })).status).toBe(503);
    expect(clockOf(await call(sandbox, 'GET', '/__sandbox/clock'))).toEqual(clockOf(before));
  });
});

describe('the state file after faults', () => {
  it('holds exactly what was acknowledged: a restart loads it', async () => {
    const headers = await ownerHeaders(sandbox);
    const acknowledged: string[] = [];
    for (let i = 0; i < 6; i++) {
      if (i === 3) disk.spaceLeft = 100;
      if (i === 5) disk.heal();
      const reference = ref();
      const res = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference, 100000) });
      expect([200, 503]).toContain(res.status);
      if (res.status === 200) acknowledged.push(reference);
    }
    expect(acknowledged).toHaveLength(4);
    await sandbox.close();
    const again = await createSandbox({ data: join(dir, 'db.json'), log: () => undefined });
    sandbox = again;
    const ledger = await ledgerOf(again);
    const debited = ledger.transactions.filter((t) => t.kind === 'transfer').map((t) => t.retrievalReference);
    expect(debited.sort()).toEqual([...acknowledged].sort());
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect((await readFile(join(dir, 'db.json.wal'), 'utf8')).endsWith('\n')).toBe(true);
    expect(A.a1.id).toBe(ledger.businessId);
  });
});
