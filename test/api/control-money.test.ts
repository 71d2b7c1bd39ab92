import { beforeAll, describe, expect, it } from 'vitest';
import { bulkTransferWithItems } from '../../src/api/bulk/schemas.js';
import { accountDetails } from '../../src/api/business/schemas.js';
import { virtualAccount } from '../../src/api/virtual-accounts/schemas.js';
import { type RotatedSecretView, rotatedSecret } from '../../src/control/clients/schemas.js';
import { type OutboxMessageView, outbox as outboxSchema } from '../../src/control/outbox/schemas.js';
import { stateExport } from '../../src/control/state/schemas.js';
import { createSandbox, type Sandbox } from '../../src/sandbox.js';
import { bodyOf, dataOf } from '../support/answers.js';
import { accountBalance, ledgerOf } from '../support/money.js';
import { A, B, call, memorySandbox, ownerHeaders, schemeA, tokenFor } from '../support/sandbox.js';

const DETAILS = '/api/v1/clients/business/account-details';
const ROLES = '/api/v1/clients/members/roles';
const BUSINESSES = '/api/v1/clients/business';
const MEMBERS = '/api/v1/clients/members';
const NOW = Date.parse('2025-06-01T10:00:00.000Z');

const balancePath = (id: string) => `/__sandbox/businesses/${id}/balance`;

describe('set balance', () => {
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    headers = await ownerHeaders(sandbox);
  });

  it.each([12345, 0, 900_000_000_000])(
    'sets %i: 200, shown by account-details, a balance_adjustment entry',
    async (balance) => {
      const before = (await ledgerOf(sandbox)).transactions.length;
      const res = await call(sandbox, 'PUT', balancePath(A.a1.id), { body: { balance } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(true);
      expect(await accountBalance(sandbox, headers)).toBe(String(balance));
      const after = await ledgerOf(sandbox);
      expect(after.balance).toBe(balance);
      expect(after.ledgerBalance).toBe(balance);
      expect(after.transactions).toHaveLength(before + 1);
      const adjustment = after.transactions.find(
        (t) => t.kind === 'balance_adjustment' && t.balanceAfter === balance,
      );
      expect(adjustment).toMatchObject({ kind: 'balance_adjustment', status: 'successful' });
    },
  );

  it('records a credit when raising and a debit when lowering', async () => {
    await call(sandbox, 'PUT', balancePath(A.a1.id), { body: { balance: 1000 } });
    await call(sandbox, 'PUT', balancePath(A.a1.id), { body: { balance: 5000 } });
    let entries = (await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'balance_adjustment');
    const raise = entries.find((t) => t.balanceAfter === 5000);
    expect(raise).toMatchObject({ direction: 'credit', amount: 4000 });
    await call(sandbox, 'PUT', balancePath(A.a1.id), { body: { balance: 1500 } });
    entries = (await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'balance_adjustment');
    const lower = entries.find((t) => t.balanceAfter === 1500);
    expect(lower).toMatchObject({ direction: 'debit', amount: 3500 });
    const l = await ledgerOf(sandbox);
    expect(l.balance).toBe(l.ledgerBalance);
    expect(l).toMatchObject({ openingBalance: expect.any(Number), transactions: expect.any(Array) });
  });

  it('sets the balance of a business without a payment account too, and keeps the ledger in step', async () => {
    const res = await call(sandbox, 'PUT', balancePath(A.a2.id), { body: { balance: 7777 } });
    expect(res.status).toBe(200);
    const l = await ledgerOf(sandbox, A.a2.id);
    expect(l.balance).toBe(7777);
    expect(l.ledgerBalance).toBe(7777);
    expect(l.transactions.some((t) => t.kind === 'balance_adjustment')).toBe(true);
  });

  it.each([
    ['negative', { balance: -1 }],
    ['non-integer', { balance: 10.5 }],
    ['missing', {}],
    ['a string of letters', { balance: 'lots' }],
    ['null', { balance: null }],
  ])('answers 400 to a %s balance and changes nothing', async (_label, body) => {
    const before = await accountBalance(sandbox, headers);
    const beforeLedger = (await ledgerOf(sandbox)).transactions.length;
    const res = await call(sandbox, 'PUT', balancePath(A.a1.id), { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(await accountBalance(sandbox, headers)).toBe(before);
    expect((await ledgerOf(sandbox)).transactions).toHaveLength(beforeLedger);
  });

  it('answers 404 to an unknown business', async () => {
    const res = await call(sandbox, 'PUT', balancePath('no-such-business'), { body: { balance: 100 } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect((await call(sandbox, 'GET', '/__sandbox/businesses/no-such-business/ledger')).status).toBe(404);
  });

  it("touches only the named business: B's balance is unchanged", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(dataOf(res, accountDetails).accountBalance).toBe('250000000');
  });
});

describe('rotate secret, no grace period', () => {
  let sandbox: Sandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await createSandbox({ inMemory: true, log: () => undefined }, { now: () => NOW });
    token = await tokenFor(sandbox, A.owner);
  });

  let rotation: RotatedSecretView;
  it('answers 200 with clientId, a new sk_sandbox_ key and previousSecretValidUntil', async () => {
    const res = await call(sandbox, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    rotation = dataOf(res, rotatedSecret);
    expect(Object.keys(rotation).sort()).toEqual(['clientId', 'previousSecretValidUntil', 'secretKey']);
    expect(rotation.clientId).toBe(A.id);
    expect(rotation.secretKey).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
    expect(rotation.secretKey).not.toBe(A.secretKey);
    expect(rotation.previousSecretValidUntil).toBe(new Date(NOW).toISOString());
  });

  it('the new secret works and the old one gives 401 at once', async () => {
    const fresh = await call(sandbox, 'GET', ROLES, { headers: schemeA(token, rotation.secretKey, A.a1.id) });
    expect(fresh.status).toBe(200);
    const old = await call(sandbox, 'GET', ROLES, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ status: false, data: null });
  });

  it('get-keys reports the new secret', async () => {
    const res = await call(sandbox, 'GET', '/api/v1/clients/settings/get-keys', {
      headers: schemeA(token, rotation.secretKey, A.a1.id),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ secretKey: rotation.secretKey, publicKey: A.publicKey });
  });

  it('leaves B alone', async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', ROLES, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(res.status).toBe(200);
  });

  it('rotating again retires the second key too', async () => {
    const res = await call(sandbox, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`);
    const next = dataOf(res, rotatedSecret);
    expect(next.secretKey).not.toBe(rotation.secretKey);
    expect(
      (await call(sandbox, 'GET', ROLES, { headers: schemeA(token, rotation.secretKey, A.a1.id) })).status,
    ).toBe(401);
    expect(
      (await call(sandbox, 'GET', ROLES, { headers: schemeA(token, next.secretKey, A.a1.id) })).status,
    ).toBe(200);
  });

  it('answers 404 to an unknown client', async () => {
    const res = await call(sandbox, 'POST', '/__sandbox/clients/no-such-client/rotate-secret');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });
});

describe('rotate secret with a 60 s grace period', () => {
  it('keeps the old key working until the clock passes 60 s, then 401', async () => {
    let t = NOW;
    const sandbox = await createSandbox(
      { inMemory: true, secretGrace: 60, log: () => undefined },
      { now: () => t },
    );
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`);
    expect(res.status).toBe(200);
    const rotation = dataOf(res, rotatedSecret);
    expect(rotation.previousSecretValidUntil).toBe(new Date(NOW + 60_000).toISOString());

    const withOld = () => call(sandbox, 'GET', ROLES, { headers: schemeA(token, A.secretKey, A.a1.id) });
    const withNew = () =>
      call(sandbox, 'GET', ROLES, { headers: schemeA(token, rotation.secretKey, A.a1.id) });
    expect((await withOld()).status).toBe(200);
    expect((await withNew()).status).toBe(200);
    t += 59_000;
    expect((await withOld()).status).toBe(200);
    t += 2_000;
    expect((await withOld()).status).toBe(401);
    expect((await withNew()).status).toBe(200);
  });
});

describe('outbox filters', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    const headersA = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    for (const [headers, businessName] of [
      [headersA, 'Adebayo Exports'],
      [headersA, 'Adebayo Imports'],
      [headersB, 'Bello Exports'],
    ] as const) {
      const res = await call(sandbox, 'POST', BUSINESSES, { headers, body: { businessName } });
      expect(res.status).toBe(201);
    }
    const invite = await call(sandbox, 'POST', MEMBERS, {
      headers: headersA,
      body: { email: 'invitee@adebayo.test', memberRoleId: '7a1e0000-0000-4000-8000-000000000003' },
    });
    expect(invite.status).toBe(201);
  });

  const outbox = async (query: string): Promise<OutboxMessageView[]> => {
    const res = await call(sandbox, 'GET', `/__sandbox/outbox${query}`);
    expect(res.status).toBe(200);
    return dataOf(res, outboxSchema);
  };

  it('lists everything without filters', async () => {
    const all = await outbox('');
    expect(all).toHaveLength(4);
    expect(all.filter((m) => m.type === 'bvn_otp')).toHaveLength(3);
    expect(all.filter((m) => m.type === 'member_invitation')).toHaveLength(1);
  });

  it('filters by type', async () => {
    const otps = await outbox('?type=bvn_otp');
    expect(otps).toHaveLength(3);
    expect(otps.every((m) => m.type === 'bvn_otp')).toBe(true);
    const invitations = await outbox('?type=member_invitation');
    expect(invitations.map((m) => m.to)).toEqual(['invitee@adebayo.test']);
  });

  it('filters by recipient', async () => {
    const toA = await outbox(`?to=${A.owner.email}`);
    expect(toA).toHaveLength(2);
    expect(toA.every((m) => m.to === A.owner.email && m.type === 'bvn_otp')).toBe(true);
    expect(await outbox(`?to=${B.owner.email}`)).toHaveLength(1);
    expect(await outbox('?to=nobody@nowhere.test')).toEqual([]);
  });

  it('combines type and recipient', async () => {
    const otpsToA = await outbox(`?type=bvn_otp&to=${A.owner.email}`);
    expect(otpsToA).toHaveLength(2);
    expect(otpsToA.every((m) => typeof m.data.otp === 'string')).toBe(true);
    expect(await outbox(`?type=member_invitation&to=${A.owner.email}`)).toEqual([]);
    expect(await outbox('?type=bvn_otp&to=invitee@adebayo.test')).toEqual([]);
  });
});

describe('state import keeps the invariants across records', () => {
  async function exported(sandbox: Awaited<ReturnType<typeof memorySandbox>>) {
    return bodyOf(await call(sandbox, 'GET', '/__sandbox/state'), stateExport);
  }

  it('refuses a transaction of no business, and a batch whose counters disagree with its items', async () => {
    const sandbox = await memorySandbox();
    const headers = { 'x-api-key': A.publicKey, 'x-api-secret': A.secretKey, businessId: A.a1.id };
    const transfers = [0, 1].map((i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `inv-${i}`,
      narration: 'x',
    }));
    const base = '/api/v1/clients/business/customers/funds/bulk-transfer';
    const created = await call(sandbox, 'POST', base, { headers, body: { batchName: 'Inv', transfers } });
    await call(sandbox, 'POST', `${base}/process`, {
      headers,
      body: { bulkTransferId: dataOf(created, bulkTransferWithItems).id },
    });
    await sandbox.drain();
    const before = await exported(sandbox);

    const orphan = structuredClone(before);
    const entry = orphan.collections.transactions?.[0];
    if (!entry) throw new Error('the batch made ledger entries');
    entry.businessId = 'no-such-business';
    const refused = await call(sandbox, 'PUT', '/__sandbox/state', { body: orphan });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/belongs to no business/);

    const miscounted = structuredClone(before);
    const batch = miscounted.collections.bulkTransfers?.[0];
    if (!batch) throw new Error('there is a batch');
    batch.completedItems = 0;
    const refused2 = await call(sandbox, 'PUT', '/__sandbox/state', { body: miscounted });
    expect(refused2.status).toBe(400);
    expect(refused2.body.message).toMatch(/counts .* but its items make/);
    expect(await exported(sandbox)).toEqual(before);
  });
});

describe('balances stay exact', () => {
  it('refuses an incoming payment that would take a balance past 2^53 - 1 kobo, and the export still imports', async () => {
    const sandbox = await memorySandbox();
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const va = await call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
      headers,
      body: { firstName: 'Big', lastName: 'Money', type: 'permanent', reference: 'max-safe' },
    });
    const { accountNumber } = dataOf(va, virtualAccount);
    await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: Number.MAX_SAFE_INTEGER - 1_000_000 },
    });
    const paid = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber, amount: 5_000_000 },
    });
    expect(paid.status).toBe(400);
    expect(paid.body.message).toMatch(/largest amount/);
    const state = (await call(sandbox, 'GET', '/__sandbox/state')).body;
    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: state })).status).toBe(200);
  });
});
