import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';

// The answer lost after the commit over a real connection: the fault breaks it with nothing sent, the journal says
// status 0 and keeps the committed answer, and the app's retry with the same reference gets that answer.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

describe('an answer lost after the commit, over a connection', () => {
  it.each(['reset', 'empty', 'garbage'] as const)(
    '%s: nothing answered, status 0 and the committed answer in the journal, the retry answers Transfer successful',
    async (kind) => {
      const sandbox = await startSandbox({ log: () => undefined });
      running.push(sandbox);
      const me = await sandbox.newClient({ balance: 1_000_000 });
      await me.scenarioRules([{ on: 'transfer', effect: { after: 'commit', fault: { kind } }, times: 1 }]);
      const headers = { ...(await sandbox.signIn(me)), 'content-type': 'application/json' };
      const send = () =>
        fetch(`${sandbox.url}${TRANSFER}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            amount: 150_000,
            receiverAccountNumber: '0123456785',
            receiverBankCode: '058',
            retrievalReference: `lost-${kind}`,
            narration: 'Lost',
          }),
        });
      await expect(send()).rejects.toThrow();
      const [entry] = await sandbox.requests({ path: '/funds/transfer', clientId: me.clientId });
      expect(entry?.status).toBe(0);
      expect(entry?.fault).toBe(kind);
      expect(entry?.committed).toMatchObject({ status: 200, body: { message: 'Transfer successful' } });
      const retry = await send();
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as { message: string }).message).toBe('Transfer successful');
      const businessId = me.businesses[0]?.id ?? '';
      const ledger = await sandbox.ledger(businessId, { retrievalReference: `lost-${kind}` });
      expect(ledger.transactions).toHaveLength(1);
      expect(ledger.balance).toBe(1_000_000 - 151_075);
    },
  );
});
