import { describe, expect, it } from 'vitest';
import { signIn } from '../../../src/contract/api/auth.js';
import { bulkTransfer, bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { accountDetails } from '../../../src/contract/api/business.js';
import {
  type ClientCredentialsView,
  credentials,
  newClientCredentials,
} from '../../../src/contract/control/clients.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { virtualAccount as virtualAccountRecord } from '../../../src/contract/control/virtual-accounts.js';
import { SandboxError } from '../../../src/errors.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { call, memorySandbox } from '../../support/sandbox.js';

const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';

/** What one parallel test worker does with its own client: transfers and a batch, then reads its state. */
async function worker(sandbox: Sandbox, me: ClientCredentialsView, tag: string) {
  const business = me.businesses[0];
  if (!business) throw new Error('a new client has a business');
  const signedIn = await call(sandbox, 'POST', '/api/v1/auth/signin', {
    body: { email: me.email, password: me.password },
  });
  expect(signedIn.status).toBe(200);
  const token = dataOf(signedIn, signIn).accessToken;
  const a = { authorization: `Bearer ${token}`, SECRET_KEY: me.secretKey, businessId: business.id };
  const b = { 'x-api-key': me.publicKey, 'x-api-secret': me.secretKey, businessId: business.id };
  const sends = Array.from({ length: 10 }, (_, i) =>
    call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers: a,
      // The same references in both workers: each client has its own reference space.
      body: {
        amount: 10_000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: `ref-${i}`,
        narration: tag,
      },
    }),
  );
  for (const res of await Promise.all(sends)) expect(res.status).toBe(200);
  const transfers = Array.from({ length: 5 }, (_, i) => ({
    amount: 20_000,
    receiverAccountNumber: '0123456789',
    receiverBankCode: '058',
    retrievalReference: `bulk-${i}`,
    narration: tag,
  }));
  const batch = await call(sandbox, 'POST', BULK, { headers: b, body: { batchName: tag, transfers } });
  const { id } = dataOf(batch, bulkTransferWithItems);
  expect(
    (await call(sandbox, 'POST', `${BULK}/process`, { headers: b, body: { bulkTransferId: id } })).status,
  ).toBe(202);
  return { a, b, business, batchId: id };
}

describe('isolated clients', () => {
  it('POST /__sandbox/clients answers like a credentials entry, with a funded approved business and members', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', '/__sandbox/clients', {
      body: { balance: 12_345_600, members: ['Viewer'] },
    });
    expect(res.status).toBe(201);
    const { virtualAccount, ...me } = dataOf(res, newClientCredentials);
    expect(me.publicKey).toMatch(/^pk_sandbox_[0-9a-f]{32}$/);
    expect(me.secretKey).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
    expect(me.businesses).toEqual([
      expect.objectContaining({
        isApproved: true,
        accountNumber: expect.stringMatching(/^\d{10}$/),
        accountBalance: '12345600',
      }),
    ]);
    expect(me.members).toEqual([expect.objectContaining({ role: 'Viewer' })]);
    const listed = dataOf(await call(sandbox, 'GET', '/__sandbox/credentials'), credentials);
    expect(listed.clients.find((c) => c.clientId === me.clientId)).toEqual(me);
    // The member signs in and has the Viewer's rules.
    const viewer = me.members[0];
    const token = await call(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: viewer?.email, password: viewer?.password },
    });
    expect(token.status).toBe(200);
    expect(virtualAccount).toEqual({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      accountName: 'Sandbox Customer',
      clientRef: expect.stringMatching(/^sandbox-/),
      systemRef: expect.stringMatching(/^STL\|[A-Za-z0-9]{14}$/),
    });
    expect(virtualAccount.accountNumber).not.toBe(me.businesses[0]?.accountNumber);
  });

  it('a new client comes with a permanent virtual account of its business, ready for an incoming payment', async () => {
    const sandbox = await memorySandbox();
    const me = await sandbox.newClient({ balance: 1_000_000 });
    const headers = await sandbox.signIn(me);
    const listed = pageOf(await call(sandbox, 'GET', '/__sandbox/virtual-accounts'), virtualAccountRecord);
    expect(listed.data.filter((v) => v.clientId === me.clientId)).toEqual([
      expect.objectContaining({
        accountNumber: me.virtualAccount.accountNumber,
        businessId: me.businesses[0]?.id,
      }),
    ]);
    const paid = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: me.virtualAccount.accountNumber, amount: 500_000 },
    });
    expect(paid.status).toBe(201);
    expect(dataOf(paid, paymentReceived).deliveryStatus).toBe('skipped');
    const details = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect(dataOf(details, accountDetails).accountBalance).toBe(String(1_000_000 + 500_000 - 2_500));
  });

  it('newClient() in code refuses a bad option with the control route’s one line, as a SandboxError', async () => {
    const sandbox = await memorySandbox();
    const refused = await call(sandbox, 'POST', '/__sandbox/clients', { body: { balance: -5 } });
    const error = await sandbox.newClient({ balance: -5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ status: 400, message: refused.body.message });
    expect((error as Error).message).toBe('balance is invalid: must be at least 0');
  });

  it.each([[{ balance: -1 }], [{ members: ['Owner'] }], [{ name: 'x' }], [{ webhookUrl: 'not a url' }]])(
    'refuses %j',
    async (body) => {
      const sandbox = await memorySandbox();
      expect((await call(sandbox, 'POST', '/__sandbox/clients', { body })).status).toBe(400);
    },
  );

  it('two parallel workers on two fresh clients never see each other', async () => {
    const sandbox = await memorySandbox();
    const [one, two] = await Promise.all([
      sandbox.newClient({ balance: 10_000_000 }),
      sandbox.newClient({ balance: 20_000_000 }),
    ]);
    const [w1, w2] = await Promise.all([worker(sandbox, one, 'one'), worker(sandbox, two, 'two')]);
    await sandbox.drain();

    const balance = async (headers: Record<string, string>) =>
      Number(
        dataOf(
          await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers }),
          accountDetails,
        ).accountBalance,
      );
    // Ten transfers of 10 000 + 1 075 fee, five items of 20 000 + 1 075.
    const spent = 10 * 11_075 + 5 * 21_075;
    expect(await balance(w1.a)).toBe(10_000_000 - spent);
    expect(await balance(w2.a)).toBe(20_000_000 - spent);

    const batches = async (headers: Record<string, string>) =>
      pageOf(await call(sandbox, 'GET', BULK, { headers }), bulkTransfer).data;
    expect((await batches(w1.b)).map((x) => x.id)).toEqual([w1.batchId]);
    expect((await batches(w2.b)).map((x) => x.id)).toEqual([w2.batchId]);
    // Each client's credentials open nothing of the other's.
    expect((await call(sandbox, 'GET', `${BULK}/${w2.batchId}`, { headers: w1.b })).status).toBe(404);
    // Another client's businessId is an invalid credential on scheme A.
    expect(
      (
        await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
          headers: { ...w1.a, businessId: w2.business.id },
        })
      ).status,
    ).toBe(401);
  });
});
