// The programmatic API used as docs/testing.md's "Start it from code" shows it, imported by the package's
// own name (Node resolves it to dist/ through package.json "exports", with its type declarations).

import { startSandbox } from 'banking-sandbox';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../src/contract/api/auth.js';
import { accountDetails } from '../../src/contract/api/business.js';
import { virtualAccount } from '../../src/contract/api/virtual-accounts.js';
import { activeScenario } from '../../src/contract/control/scenarios.js';
import { answerOf, dataOf } from '../support/answers.js';

describe('the programmatic API, as the docs show it', () => {
  it('starts a sandbox on a free port with a memory store, and drives it', async () => {
    const sandbox = await startSandbox(); // memory store, a free port, no request log lines
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.config.inMemory).toBe(true);
      const me = await sandbox.newClient({ balance: 10_000_000 }); // keys and a funded business of its own
      const res = await fetch(`${sandbox.url}/api/v1/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: me.email, password: me.password }),
      });
      expect(res.status).toBe(200);
      const { accessToken } = dataOf(await answerOf(res), signIn);
      const business = me.businesses[0];
      const headers = {
        authorization: `Bearer ${accessToken}`,
        SECRET_KEY: me.secretKey,
        businessId: business?.id ?? '',
        'content-type': 'application/json',
      };
      const va = await fetch(`${sandbox.url}/api/v1/clients/business/virtual-accounts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ firstName: 'Ada', lastName: 'Obi', type: 'permanent', reference: 'readme' }),
      });
      const { accountNumber } = dataOf(await answerOf(va), virtualAccount);

      await sandbox.incomingPayment({ accountNumber, amount: 500_000 }); // a virtual account's number
      await sandbox.setScenario('flaky-bank'); // a ready scenario, a scenario object, or null for the start-up one
      expect(
        dataOf(await answerOf(await fetch(`${sandbox.url}/__sandbox/scenario`)), activeScenario).name,
      ).toBe('flaky-bank');
      await sandbox.clock.advance(60_000); // the virtual clock: what comes due in the minute runs
      await sandbox.drain(); // batches settled, webhooks delivered, everything on disk

      const details = await fetch(`${sandbox.url}/api/v1/clients/business/account-details`, { headers });
      const { accountBalance } = dataOf(await answerOf(details), accountDetails);
      expect(accountBalance).toBe(String(10_000_000 + 500_000 - 2_500));
      expect((await sandbox.credentials()).some((c) => c.clientId === me.clientId)).toBe(true);

      await sandbox.reset(); // back to the fixtures
      expect((await sandbox.credentials()).some((c) => c.clientId === me.clientId)).toBe(false);
    } finally {
      await sandbox.close();
    }
    await expect(fetch(`${sandbox.url}/__sandbox/health`)).rejects.toThrow();
  });
});
