import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountDetails } from '../../../src/contract/api/business.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { ledgerOf, transferEntry } from '../../support/money.js';
import { A, call, memorySandbox, ownerHeaders } from '../../support/sandbox.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

/** A sandbox on a real file store, where concurrent requests interleave while their writes are fsynced. */
async function fileSandbox(): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'money-'));
  const sandbox = await createSandbox({ data: join(dir, 'db.json'), log: () => undefined });
  cleanup.push(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });
  return sandbox;
}

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';

describe('balance and ledger', () => {
  it.each([
    ['memory', memorySandbox],
    ['file', fileSandbox],
  ])(
    '50 concurrent transfers against a balance that covers only some never overdraw (%s store)',
    async (_store, make) => {
      const sandbox = await make();
      const headers = await ownerHeaders(sandbox);
      // Each transfer costs 100 000 + 1 075 kobo; the balance covers exactly 20 of them.
      const cost = 100_000 + 1_075;
      await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
        body: { balance: cost * 20 + 500 },
      });

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(sandbox, 'POST', TRANSFER, {
            headers,
            body: {
              amount: 100_000,
              receiverAccountNumber: '0123456789',
              receiverBankCode: '058',
              retrievalReference: `concurrent-${i}`,
              narration: 'race',
            },
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 400);
      expect(ok).toHaveLength(20);
      expect(refused).toHaveLength(30);
      for (const r of refused)
        expect(r.body).toStrictEqual({ status: false, message: 'Insufficient Funds', data: null });

      const view = await ledgerOf(sandbox, A.a1.id);
      expect(view.balance).toBe(500);
      // Each refusal is a failed entry with the provider's code; each success a debit, none more.
      const transfers = view.transactions.filter((t) => t.retrievalReference?.startsWith('concurrent-'));
      expect(transfers).toHaveLength(50);
      const failed = transfers.filter((t) => t.status === 'failed');
      expect(failed).toHaveLength(30);
      for (const t of failed)
        expect(t).toMatchObject({ errorCode: '51', errorMessage: 'Insufficient Funds' });
      expect(transfers.filter((t) => t.status === 'successful')).toHaveLength(20);
      expect(view.ledgerBalance).toBe(view.balance);
      const details = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
      expect(dataOf(details, accountDetails).accountBalance).toBe('500');
    },
  );

  it('stays consistent through a mixed sequence of transfers, replays, failures and adjustments', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    const send = (retrievalReference: string, amount: number, receiverAccountNumber = '0123456789') =>
      call(sandbox, 'POST', TRANSFER, {
        headers,
        body: {
          amount,
          receiverAccountNumber,
          receiverBankCode: '057',
          retrievalReference,
          narration: 'mix',
        },
      });
    let expected = 500_000_000;
    expect((await send('m1', 400_000)).status).toBe(200);
    expected -= 400_000 + 1_075;
    expect((await send('m1', 400_000)).status).toBe(200); // replay: no second debit
    expect((await send('m1', 400_001)).status).toBe(409); // same reference, other body
    expect((await send('m2', 2_000_000, '0000000091')).status).toBe(400); // magic failure: no debit
    expect((await send('m3', 6_000_000)).status).toBe(200);
    expected -= 6_000_000 + 5_375;
    await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, { body: { balance: 3_000_000 } });
    expected = 3_000_000;
    expect((await send('m4', 2_999_000)).status).toBe(400); // amount + fee > balance
    expect((await send('m5', 2_000_000)).status).toBe(200);
    expected -= 2_000_000 + 2_688;

    const view = await ledgerOf(sandbox, A.a1.id);
    expect(view.balance).toBe(expected);
    expect(view.ledgerBalance).toBe(expected);
    expect(view.transactions.filter((t) => t.status === 'failed')).toHaveLength(2);
    expect(await transferEntry(sandbox, 'm2')).toMatchObject({ status: 'failed', errorCode: '91' });
    expect(await transferEntry(sandbox, 'm4')).toMatchObject({ status: 'failed', errorCode: '51' });
  });
});
