import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { RECEIVER } from '../../support/bulk.js';
import { ledgerOf } from '../../support/money.js';
import { A, call, ownerHeaders } from '../../support/sandbox.js';

// A sandbox whose state file is taken from it (its lock removed by hand here; by another process in
// test/e2e/state-lock.test.ts): every request that would change the state is answered 503 with the envelope,
// reads go on, the health says why, and the log says so once. In code nothing exits: the handle's store refuses
// writes and `store.whenTakenOver()` resolves (the CLI exits on it).

const TAKEN_OVER = 'The state file was taken over by another process';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';

let dir: string;
let sandbox: Sandbox;
let lines: Record<string, unknown>[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'taken-over-'));
  lines = [];
  sandbox = await createSandbox({
    data: join(dir, 'db.json'),
    logFormat: 'json',
    log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
});
afterEach(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a sandbox whose state file is taken from it', () => {
  it('answers every write 503 with the envelope, goes on answering reads, degrades its health and logs it once', async () => {
    const headers = await ownerHeaders(sandbox);
    const transfer = (retrievalReference: string) =>
      call(sandbox, 'POST', TRANSFER, {
        headers,
        body: {
          amount: 10_000,
          receiverAccountNumber: RECEIVER,
          receiverBankCode: '058',
          retrievalReference,
          narration: 'x',
        },
      });
    expect((await transfer('before')).status).toBe(200);
    await rm(join(dir, 'db.json.lock'));

    const refusals = [
      await transfer('after'),
      await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance: 1 } }),
      await call(sandbox, 'POST', '/__sandbox/reset'),
      await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1000 } }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ status: false, message: TAKEN_OVER, data: null });
    }
    const error = await sandbox.store.whenTakenOver();
    expect(error.message).toBe(TAKEN_OVER);

    const ledger = await ledgerOf(sandbox);
    expect(ledger.transactions.map((t) => t.retrievalReference).filter(Boolean)).toEqual(['before']);
    const health = await call(sandbox, 'GET', '/__sandbox/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', reason: TAKEN_OVER });

    const events = lines.filter((line) => typeof line.event === 'string' && line.event.startsWith('store.'));
    expect(events).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        event: 'store.taken_over',
        lockFile: join(dir, 'db.json.lock'),
        holderPid: null,
        holderHost: null,
        removed: true,
        message: `the state file was taken over by another process: its lock ${join(dir, 'db.json.lock')} was removed; this process writes nothing more and answers every write 503 (the banking-sandbox command exits 1)`,
      },
    ]);
    // Nothing was made at the lock path on its behalf.
    expect(await readdir(dir)).not.toContain('db.json.lock');
  });
});
