import { afterEach, describe, expect, it } from 'vitest';
import { driftReport } from '../../../src/contract/control/drift.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { call, memorySandbox } from '../../support/sandbox.js';
import { startFakeUpstream } from '../../support/upstream.js';

// The real bank with one route overridden: with --upstream, the rules a tester sets apply first, and what a rule
// answers is answered by the sandbox, never forwarded nor checked for drift; the rest goes upstream as before.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const DETAILS = '/api/v1/clients/business/account-details';
const open: { sandbox: Sandbox; close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.sandbox.close();
    await o.close();
  }
});

async function bankAndSandbox(scenario?: string) {
  const fake = await startFakeUpstream((req) =>
    req.url.endsWith('/account-details')
      ? {
          status: 200,
          body: {
            status: true,
            message: 'Account details retrieved successfully',
            data: { accountNumber: '1', accountBalance: '5' },
          },
        }
      : {
          status: 200,
          body: {
            status: true,
            message: 'Transfer successful',
            data: { amount: '1', transactionCharge: '0', totalAmount: '1' },
          },
        },
  );
  const sandbox = await memorySandbox({ upstream: fake.base, ...(scenario ? { scenario } : {}) });
  open.push({ sandbox, close: fake.close });
  return { fake, sandbox };
}

const transfer = {
  amount: 7777,
  receiverAccountNumber: '0000000051',
  receiverBankCode: '058',
  retrievalReference: 'up-1',
  narration: 'x',
};

describe('--upstream with rules a tester set', () => {
  it('a call a rule answers is answered here, not forwarded and not in the drift report; the rest goes upstream', async () => {
    const { fake, sandbox } = await bankAndSandbox();
    const rules = [
      {
        on: 'http',
        match: { path: '/funds/transfer$', body: { amount: '^7777$' } },
        effect: { http: { status: 504, message: 'Local timeout' } },
      },
    ];
    expect((await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules } })).status).toBe(200);
    const secrets = { authorization: 'Bearer app-token-9f8e7d6c5b4a', SECRET_KEY: 'sk_live_app_secret_0001' };
    const local = await call(sandbox, 'POST', TRANSFER, { headers: secrets, body: transfer });
    expect([local.status, local.body.message]).toEqual([504, 'Local timeout']);
    // The app's credentials reach neither the drift report nor the journal whole.
    const drift = JSON.stringify((await call(sandbox, 'GET', '/__sandbox/drift')).body);
    const journal = JSON.stringify(await sandbox.requests({}));
    for (const secret of ['app-token-9f8e7d6c5b4a', 'sk_live_app_secret_0001']) {
      expect(drift).not.toContain(secret);
      expect(journal).not.toContain(secret);
    }
    expect(fake.received).toHaveLength(0);
    const forwarded = await call(sandbox, 'POST', TRANSFER, { body: { ...transfer, amount: 100 } });
    expect([forwarded.status, forwarded.body.message]).toEqual([200, 'Transfer successful']);
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]?.body.toString()).toContain('"amount":100');
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(200);
    const report = dataOf(await call(sandbox, 'GET', '/__sandbox/drift'), driftReport);
    const calls = report.routes.reduce((n, r) => n + r.calls, 0);
    expect(calls).toBe(2);
    const [entry] = await sandbox.requests({ status: 504 });
    expect(entry?.upstream).toBe(false);
  });

  it('a transfer rule that fails a transfer answers it here as the bank refuses one; another transfer goes upstream', async () => {
    const { fake, sandbox } = await bankAndSandbox();
    const rules = [
      {
        on: 'transfer',
        match: { accountNumber: '0123456789' },
        effect: { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } },
      },
    ];
    expect((await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules } })).status).toBe(200);
    const failed = await call(sandbox, 'POST', TRANSFER, {
      body: { ...transfer, receiverAccountNumber: '0123456789' },
    });
    expect(failed.status).toBe(400);
    expect(failed.body).toEqual({ status: false, message: 'Beneficiary Bank not available', data: null });
    expect(fake.received).toHaveLength(0);
    expect(
      (await call(sandbox, 'POST', TRANSFER, { body: { ...transfer, receiverAccountNumber: '1234567890' } }))
        .status,
    ).toBe(200);
    expect(fake.received).toHaveLength(1);
  });

  it('the start-up default’s magic values never shadow the real bank; --scenario does apply first', async () => {
    const plain = await bankAndSandbox();
    expect((await call(plain.sandbox, 'POST', TRANSFER, { body: transfer })).status).toBe(200);
    expect(plain.fake.received).toHaveLength(1);
    const chosen = await bankAndSandbox('provider-outage');
    const refused = await call(chosen.sandbox, 'POST', TRANSFER, { body: transfer });
    expect(refused.status).toBe(503);
    expect(chosen.fake.received).toHaveLength(0);
    expect((await call(chosen.sandbox, 'GET', DETAILS)).status).toBe(200);
    expect(chosen.fake.received).toHaveLength(1);
  });
});
