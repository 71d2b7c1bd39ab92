import { beforeAll, describe, expect, it } from 'vitest';
import clients from '../../../fixtures/clients.json' with { type: 'json' };
import { bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { accountDetails, createdBusiness } from '../../../src/contract/api/business.js';
import { subscription } from '../../../src/contract/api/subscriptions.js';
import { transferResult } from '../../../src/contract/api/transfers.js';
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { type RotatedSecretView, rotatedSecret } from '../../../src/contract/control/clients.js';
import { ledger } from '../../../src/contract/control/money.js';
import { type OutboxMessageView, outboxMessage } from '../../../src/contract/control/outbox.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { accountBalance, feeFor, ledgerOf, transferEntry } from '../../support/money.js';
import { onePage } from '../../support/pagination.js';
import {
  A,
  B,
  call,
  memorySandbox,
  ownerHeaders,
  schemeA,
  tokenFor,
  useSandbox,
} from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';

const DETAILS = '/api/v1/clients/business/account-details';
const ROLES = '/api/v1/clients/members/roles';
const BUSINESSES = '/api/v1/clients/business';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const SUBSCRIPTIONS = '/api/v1/clients/business/subscriptions';
const MEMBERS = '/api/v1/clients/members';
const NOW = Date.parse('2025-06-01T10:00:00.000Z');

const balancePath = (id: string) => `/__sandbox/businesses/${id}/balance`;

describe('set balance', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
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
  const sandbox = useSandbox();
  beforeAll(async () => {
    const headersA = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    for (const [headers, businessName] of [
      [headersA, 'Adebayo Exports'],
      [headersA, 'Adebayo Imports'],
      [headersB, 'Bello Exports'],
    ] as const) {
      const res = await call(sandbox, 'POST', BUSINESSES, {
        headers,
        body: { businessName, countryId: 'NG', isNewBusiness: true },
      });
      expect(res.status).toBe(201);
      // The registration OTP is sent when a BVN is validated for the business (the docs' flow).
      const validated = await call(sandbox, 'POST', `${BUSINESSES}/validate-bvn`, {
        headers,
        body: { bvn: '12345678901', businessId: dataOf(res, createdBusiness).business.id },
      });
      expect(validated.status).toBe(200);
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
    return pageOf(res, outboxMessage).data;
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
    return stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
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
    const entry = orphan.collections.transactions[0];
    if (!entry) throw new Error('the batch made ledger entries');
    entry.businessId = 'no-such-business';
    const refused = await call(sandbox, 'PUT', '/__sandbox/state', { body: orphan });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/belongs to no business/);

    const miscounted = structuredClone(before);
    const batchId = dataOf(created, bulkTransferWithItems).id;
    const batch = miscounted.collections.bulkTransfers.find((b) => b.id === batchId);
    if (!batch) throw new Error('there is the batch made here');
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

describe('ledger filtered by retrievalReference', () => {
  const sandbox = useSandbox();
  let headersA: Record<string, string>;
  let headersB: Record<string, string>;
  const ledgerPath = (businessId: string, reference: string) =>
    `/__sandbox/businesses/${businessId}/ledger?retrievalReference=${encodeURIComponent(reference)}`;
  const send = (
    headers: Record<string, string>,
    retrievalReference: string,
    receiverAccountNumber = '0123456789',
  ) =>
    call(sandbox, 'POST', TRANSFER, {
      headers,
      body: {
        amount: 150_000,
        receiverAccountNumber,
        receiverBankCode: '058',
        retrievalReference,
        narration: 'Ledger',
      },
    });

  beforeAll(async () => {
    headersA = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    for (const reference of ['ledger-1', 'ledger-2', 'shared-ref'])
      expect((await send(headersA, reference)).status).toBe(200);
    expect((await send(headersB, 'shared-ref')).status).toBe(200);
  });

  it("answers only the transfer's entry, whose id is its transaction reference; the balances stay the business's", async () => {
    const res = await call(sandbox, 'GET', ledgerPath(A.a1.id, 'ledger-2'));
    expect(res.status).toBe(200);
    const filtered = dataOf(res, ledger);
    expect(filtered.transactions).toHaveLength(1);
    const [entry] = filtered.transactions;
    expect(entry).toMatchObject({
      businessId: A.a1.id,
      kind: 'transfer',
      direction: 'debit',
      status: 'successful',
      amount: 150_000,
      charge: feeFor(150_000),
      retrievalReference: 'ledger-2',
    });
    const whole = await ledgerOf(sandbox);
    expect(whole.transactions.find((t) => t.retrievalReference === 'ledger-2')).toEqual(entry);
    expect(filtered).toMatchObject({
      businessId: A.a1.id,
      balance: whole.balance,
      ledgerBalance: whole.ledgerBalance,
      openingBalance: whole.openingBalance,
    });
    // The helper the other tests use reads the same entry.
    expect(await transferEntry(sandbox, 'ledger-2')).toEqual(entry);
    expect((await transferEntry(sandbox, 'ledger-1')).id).not.toBe(entry?.id);
  });

  it("is scoped to the business: the same reference in B1 is B1's entry", async () => {
    const a = await transferEntry(sandbox, 'shared-ref', A.a1.id);
    const b = await transferEntry(sandbox, 'shared-ref', B.b1.id);
    expect(a.businessId).toBe(A.a1.id);
    expect(b.businessId).toBe(B.b1.id);
    expect(a.id).not.toBe(b.id);
  });

  it('holds what the answer of a transfer no longer carries: a failed one keeps its errorCode and errorMessage', async () => {
    const ok = await send(headersA, 'ledger-ok');
    expect(ok.status).toBe(200);
    expect(Object.keys(dataOf(ok, transferResult)).sort()).toEqual([
      'amount',
      'totalAmount',
      'transactionCharge',
    ]);
    const failed = await send(headersA, 'ledger-failed', '0000000007');
    expect(failed.status).toBe(400);
    expect(failed.body).toEqual({ status: false, message: 'Invalid Account', data: null });
    expect(await transferEntry(sandbox, 'ledger-failed')).toMatchObject({
      status: 'failed',
      errorCode: '07',
      errorMessage: 'Invalid Account',
      retrievalReference: 'ledger-failed',
    });
  });

  it('answers an empty list to a reference nobody sent, and 404 to an unknown business', async () => {
    const none = await call(sandbox, 'GET', ledgerPath(A.a1.id, 'never-sent'));
    expect(none.status).toBe(200);
    expect(dataOf(none, ledger).transactions).toEqual([]);
    // Another business's reference is not this one's.
    const a2 = await call(sandbox, 'GET', ledgerPath(A.a2.id, 'ledger-1'));
    expect(dataOf(a2, ledger).transactions).toEqual([]);
    const unknown = await call(sandbox, 'GET', ledgerPath('no-such-business', 'ledger-1'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, message: 'Business not found' });
  });

  it('answers 400 to an empty retrievalReference', async () => {
    const res = await call(sandbox, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger?retrievalReference=`);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });
});

describe('subscriptions', () => {
  const [clientA, clientB] = clients;
  const fixtureA1 = clientA?.businesses[0]?.subscriptions ?? [];
  const fixtureB1 = clientB?.businesses[0]?.subscriptions ?? [];
  /** A fixture plan as the list shows it. */
  const shown = (
    plan: { id: string; packageName: string; amount: number; interval: string },
    businessId: string,
    clientId: string,
  ) => ({
    id: plan.id,
    packageName: plan.packageName,
    amount: String(plan.amount),
    interval: plan.interval,
    businessId,
    clientId,
  });

  const sandbox = useSandbox();
  let headersA1: Record<string, string>;
  let headersB1: Record<string, string>;
  beforeAll(async () => {
    headersA1 = await ownerHeaders(sandbox);
    headersB1 = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
  });

  const list = async (query = '', headers = headersA1) => {
    const res = await call(sandbox, 'GET', `${SUBSCRIPTIONS}${query}`, { headers });
    expect(res.status, query).toBe(200);
    expect(res.body.message).toBe('Subscriptions retrieved successfully');
    return pageOf(res, subscription);
  };
  const add = (businessId: string, body: Record<string, unknown>) =>
    call(sandbox, 'POST', `/__sandbox/businesses/${businessId}/subscriptions`, { body });

  it("lists A1's three fixture plans, exactly as the docs show a plan, the amount a kobo string", async () => {
    expect(fixtureA1).toHaveLength(3);
    const { data, pagination } = await list();
    expect(data).toEqual(fixtureA1.map((p) => shown(p, A.a1.id, A.id)));
    for (const plan of data)
      expect(Object.keys(plan).sort()).toEqual([
        'amount',
        'businessId',
        'clientId',
        'id',
        'interval',
        'packageName',
      ]);
    expect(pagination).toEqual(onePage(3, 10));
  });

  it("lists B1's one plan to B, and none to A2", async () => {
    expect(fixtureB1).toHaveLength(1);
    expect((await list('', headersB1)).data).toEqual(fixtureB1.map((p) => shown(p, B.b1.id, B.id)));
    const a2 = await list('', { ...headersA1, businessId: A.a2.id });
    expect(a2.data).toEqual([]);
    expect(a2.pagination.totalCount).toBe(0);
  });

  it.each([
    ['packageName=Pro Plan', ['Pro Plan/monthly', 'Pro Plan/yearly']],
    ['packageName=pro plan', ['Pro Plan/monthly', 'Pro Plan/yearly']],
    ['packageName=PRO PLAN&interval=Yearly', ['Pro Plan/yearly']],
    ['packageName=Pro', []],
    ['interval=MONTHLY', ['Starter Plan/monthly', 'Pro Plan/monthly']],
    ['interval=month', []],
    ['amount=500000', ['Pro Plan/monthly']],
    ['amount=50000', []],
    ['keyword=pro', ['Pro Plan/monthly', 'Pro Plan/yearly']],
    ['keyword=STARTER', ['Starter Plan/monthly']],
    ['keyword=year', ['Pro Plan/yearly']],
    ['keyword=500000', ['Pro Plan/monthly', 'Pro Plan/yearly']],
    ['keyword=plan&interval=monthly', ['Starter Plan/monthly', 'Pro Plan/monthly']],
    ['keyword=nothing-like-it', []],
    ['packageName=Gold Plan', []],
  ])('filters %s', async (query, expected) => {
    const { data, pagination } = await list(`?${query.replaceAll(' ', '%20')}`);
    expect(data.map((p) => `${p.packageName}/${p.interval}`)).toEqual(expected);
    expect(pagination.totalCount).toBe(expected.length);
  });

  it('pages: limit=2 gives two and a next page, page 2 the third', async () => {
    const all = (await list()).data.map((p) => p.id);
    const first = await list('?limit=2');
    expect(first.data.map((p) => p.id)).toEqual(all.slice(0, 2));
    expect(first.pagination).toMatchObject({ totalCount: 3, hasNextPage: true, nextPage: 2, lastPage: 2 });
    const second = await list('?page=2&limit=2');
    expect(second.data.map((p) => p.id)).toEqual(all.slice(2));
    expect(second.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 });
  });

  it('adds a plan through the control API: 201 Subscription added, listed last in its business only', async () => {
    const res = await add(A.a1.id, { packageName: 'Gold Plan', amount: 750_000, interval: 'quarterly' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Subscription added');
    const added = dataOf(res, subscription);
    expect(added).toEqual({
      id: expect.any(String),
      packageName: 'Gold Plan',
      amount: '750000',
      interval: 'quarterly',
      businessId: A.a1.id,
      clientId: A.id,
    });
    const { data, pagination } = await list();
    expect(pagination.totalCount).toBe(4);
    expect(data.at(-1)).toEqual(added);
    expect((await list('?packageName=gold plan')).data).toEqual([added]);
    expect((await list('?amount=750000')).data).toEqual([added]);
    expect((await list('', headersB1)).data.map((p) => p.id)).not.toContain(added.id);
    expect((await list('', { ...headersA1, businessId: A.a2.id })).data).toEqual([]);
  });

  it('takes the amount as a string of digits too, and adds to any business, B1 and A2 alike', async () => {
    const b = await add(B.b1.id, { packageName: 'Basic Plan', amount: '120000', interval: 'weekly' });
    expect(b.status).toBe(201);
    expect(dataOf(b, subscription)).toMatchObject({ amount: '120000', businessId: B.b1.id, clientId: B.id });
    expect((await list('?interval=weekly', headersB1)).data).toHaveLength(2);
    const a2 = await add(A.a2.id, { packageName: 'Trial', amount: 0, interval: 'daily' });
    expect(a2.status).toBe(201);
    expect((await list('', { ...headersA1, businessId: A.a2.id })).data.map((p) => p.packageName)).toEqual([
      'Trial',
    ]);
  });

  it('answers 404 Business not found to an unknown business, and adds nothing', async () => {
    const res = await add('no-such-business', { packageName: 'Ghost', amount: 100, interval: 'monthly' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, message: 'Business not found', data: null });
    expect((await list('?packageName=Ghost')).data).toEqual([]);
  });

  it.each([
    ['no packageName', { amount: 100, interval: 'monthly' }, 'packageName'],
    ['an empty packageName', { packageName: '', amount: 100, interval: 'monthly' }, 'packageName'],
    ['no amount', { packageName: 'Bad', interval: 'monthly' }, 'amount'],
    ['a negative amount', { packageName: 'Bad', amount: -1, interval: 'monthly' }, 'amount'],
    ['a fractional amount', { packageName: 'Bad', amount: 1.5, interval: 'monthly' }, 'amount'],
    ['an amount of letters', { packageName: 'Bad', amount: 'lots', interval: 'monthly' }, 'amount'],
    ['no interval', { packageName: 'Bad', amount: 100 }, 'interval'],
  ])('answers 400 to %s, naming the field, and adds nothing', async (_label, body, field) => {
    const before = (await list('?limit=100')).data;
    const res = await add(A.a1.id, body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect((await list('?limit=100')).data).toEqual(before);
  });
});
