import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { auditEntry } from '../../../src/contract/api/audits.js';
import { type PayoutAccountView, payoutAccount } from '../../../src/contract/api/payouts.js';
import { pageOf } from '../../support/answers.js';
import { onePage, pageAt } from '../../support/pagination.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const PAYOUTS = '/api/v1/clients/business/payouts';
const TOO_MANY = 'A client can have at most 3 payout accounts';
const DUPLICATE = 'This payout account already exists';

const [bank1, bank2, bank3] = banks.banks;
if (!bank1 || !bank2 || !bank3) throw new Error('fixtures/banks.json needs three banks');

/**
 * Deletes the payout account the fixtures give client A, so that a block counts the accounts its own tests add
 * (a client holds at most three).
 */
async function withoutFixturePayout(sandbox: Parameters<typeof call>[0]): Promise<void> {
  const res = await call(sandbox, 'DELETE', `${PAYOUTS}/${A.payout.id}`, {
    headers: await ownerHeaders(sandbox),
  });
  expect(res.status).toBe(200);
}

function payout(accountNumber: string, bank = bank1 ?? { code: '', name: '' }): Record<string, string> {
  return { accountName: 'Adaeze Adebayo', accountNumber, bankName: bank.name, bankCode: bank.code };
}

describe('payout accounts', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    await withoutFixturePayout(sandbox);
    headers = await ownerHeaders(sandbox);
    viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey, A.a1.id);
  });

  const list = async (h: Record<string, string> = headers, query = '') => {
    const res = await call(sandbox, 'GET', `${PAYOUTS}${query}`, { headers: h });
    expect(res.status).toBe(200);
    return pageOf(res, payoutAccount);
  };
  const create = (b: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', PAYOUTS, { headers: h, body: b });

  it('starts empty, with the pagination object', async () => {
    expect(await list()).toEqual({
      data: [],
      pagination: onePage(0, 10),
    });
  });

  let first: PayoutAccountView;
  it('creates one: 201 with no data; the list shows exactly the record fields, the client’s', async () => {
    const res = await create(payout('0123456789'));
    expect(res.status).toBe(201);
    // The docs' answer: the message alone.
    expect(res.body).toStrictEqual({ status: true, message: 'Payout account created successfully' });
    const { data } = await list();
    expect(data).toHaveLength(1);
    const [listed] = data;
    if (!listed) throw new Error('expected the new payout account in the list');
    first = listed;
    expect(Object.keys(first).sort()).toEqual([
      'accountName',
      'accountNumber',
      'bankCode',
      'bankName',
      'clientId',
      'createdAt',
      'id',
    ]);
    expect(first).toMatchObject({
      accountName: 'Adaeze Adebayo',
      accountNumber: '0123456789',
      bankCode: bank1.code,
      bankName: bank1.name,
      clientId: A.id,
    });
    expect(first.id).toMatch(/\S/);
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
  });

  it('answers 409 to the same accountNumber and bankCode again', async () => {
    const res = await create({ ...payout('0123456789'), accountName: 'Other Name', bankName: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body).toStrictEqual({ status: false, message: DUPLICATE, data: null });
    expect((await list()).pagination.totalCount).toBe(1);
  });

  it('accepts the same accountNumber at another bank, up to three accounts', async () => {
    expect((await create(payout('0123456789', bank2))).status).toBe(201);
    expect((await create(payout('9876543210', bank3))).status).toBe(201);
    const { data, pagination } = await list();
    expect(data).toHaveLength(3);
    expect(pagination.totalCount).toBe(3);
    expect(data.every((p) => p.clientId === A.id)).toBe(true);
    expect(data.map((p) => p.id)).toContain(first.id);
  });

  it('answers 400 A client can have at most 3 payout accounts to a fourth', async () => {
    const res = await create(payout('1111111111'));
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ status: false, message: TOO_MANY, data: null });
    expect((await list()).pagination.totalCount).toBe(3);
  });

  it('pages the list', async () => {
    const page1 = await list(headers, '?page=1&limit=2');
    const page2 = await list(headers, '?page=2&limit=2');
    expect(page1.data).toHaveLength(2);
    expect(page2.data).toHaveLength(1);
    expect(page1.pagination).toEqual(pageAt(1, { totalCount: 3, limit: 2, lastPage: 2 }));
    expect(page2.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 });
    const all = (await list()).data.map((p) => p.id);
    expect([...page1.data, ...page2.data].map((p) => p.id)).toEqual(all);
  });

  // That a Viewer may not create, update or delete one (403, nothing changed): route-auth.test.ts, '%s: each role
  // as the role rules say'.
  it('lets a Viewer list them', async () => {
    const listed = await list(viewer);
    expect(listed.data).toHaveLength(3);
  });

  it('updates one with PUT: 200 and the change is listed', async () => {
    const res = await call(sandbox, 'PUT', `${PAYOUTS}/${first.id}`, {
      headers,
      body: {
        accountName: 'Adebayo Foods Payroll',
        accountNumber: '5555555555',
        bankName: bank3.name,
        bankCode: bank3.code,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ status: true, message: 'Payout account updated successfully' });
    const updated = (await list()).data.find((p) => p.id === first.id);
    expect(updated).toEqual({
      ...first,
      accountName: 'Adebayo Foods Payroll',
      accountNumber: '5555555555',
      bankName: bank3.name,
      bankCode: bank3.code,
    });
  });

  it('updates the name alone, keeping its own number and bank', async () => {
    const current = (await list()).data.find((p) => p.id === first.id);
    if (!current) throw new Error('expected the first payout account');
    const res = await call(sandbox, 'PUT', `${PAYOUTS}/${first.id}`, {
      headers,
      body: {
        accountName: 'Adebayo Foods Salaries',
        accountNumber: current.accountNumber,
        bankName: current.bankName,
        bankCode: current.bankCode,
      },
    });
    expect(res.status).toBe(200);
    expect((await list()).data.find((p) => p.id === first.id)).toEqual({
      ...current,
      accountName: 'Adebayo Foods Salaries',
    });
  });

  it('answers 409 to a PUT that makes it a duplicate of another account', async () => {
    const res = await call(sandbox, 'PUT', `${PAYOUTS}/${first.id}`, {
      headers,
      body: payout('9876543210', bank3),
    });
    expect(res.status).toBe(409);
    expect(res.body).toStrictEqual({ status: false, message: DUPLICATE, data: null });
  });

  it('answers 404 to a PUT of an unknown id', async () => {
    const res = await call(sandbox, 'PUT', `${PAYOUTS}/00000000-0000-4000-8000-00000000dead`, {
      headers,
      body: payout('3333333333'),
    });
    expect(res.status).toBe(404);
    expect(res.body).toStrictEqual({ status: false, message: 'Payout account not found', data: null });
  });

  it.each([
    ['accountName', { accountName: undefined }],
    ['accountNumber', { accountNumber: undefined }],
    ['bankName', { bankName: undefined }],
    ['bankCode', { bankCode: undefined }],
    ['accountNumber', { accountNumber: '12345' }],
    ['accountNumber', { accountNumber: '12345678901' }],
  ])('answers 400 when %s is missing or malformed, on POST and PUT', async (field, change) => {
    const before = (await list()).data;
    const post = await create({ ...payout('4444444444'), ...change });
    expect(post.status).toBe(400);
    expect(post.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    const target = before[0];
    if (!target) throw new Error('expected a payout account to update');
    const put = await call(sandbox, 'PUT', `${PAYOUTS}/${target.id}`, {
      headers,
      body: { ...payout('4444444444'), ...change },
    });
    expect(put.status).toBe(400);
    expect((await list()).data).toEqual(before);
  });

  // Any text that is not a code of the fixtures, of any length or form: the one answer, no format rule.
  it.each(['999', '99', '1234', 'abc'])(
    'answers 400 Invalid bank code to the unknown bank code %j, on POST and PUT',
    async (bankCode) => {
      expect(banks.banks.some((b) => b.code === bankCode)).toBe(false);
      // Free a slot (once), so the POST is refused for its bank code and not for the limit.
      if ((await list()).pagination.totalCount === 3)
        expect((await call(sandbox, 'DELETE', `${PAYOUTS}/${first.id}`, { headers })).status).toBe(200);
      const before = (await list()).data;
      const body = { ...payout('4444444444'), bankCode };
      const post = await create(body);
      expect(post.status).toBe(400);
      expect(post.body).toStrictEqual({ status: false, message: 'Invalid bank code', data: null });
      const target = before[0];
      if (!target) throw new Error('expected a payout account');
      const put = await call(sandbox, 'PUT', `${PAYOUTS}/${target.id}`, { headers, body });
      expect(put.status).toBe(400);
      expect(put.body).toStrictEqual({ status: false, message: 'Invalid bank code', data: null });
      expect((await list()).data).toEqual(before);
      expect(before).toHaveLength(2);
    },
  );
});

describe('deleting payout accounts', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    await withoutFixturePayout(sandbox);
    headers = await ownerHeaders(sandbox);
  });

  it('deletes with 200 Payout account deleted successfully, frees a slot, and a second delete is 404', async () => {
    for (const n of ['1000000001', '1000000002', '1000000003']) {
      const res = await call(sandbox, 'POST', PAYOUTS, { headers, body: payout(n) });
      expect(res.status).toBe(201);
    }
    const created = pageOf(await call(sandbox, 'GET', PAYOUTS, { headers }), payoutAccount).data;
    const ids = ['1000000001', '1000000002', '1000000003'].map(
      (n) => created.find((p) => p.accountNumber === n)?.id,
    );
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect((await call(sandbox, 'POST', PAYOUTS, { headers, body: payout('1000000004') })).status).toBe(400);

    const del = await call(sandbox, 'DELETE', `${PAYOUTS}/${ids[0]}`, { headers });
    expect(del.status).toBe(200);
    expect(del.body).toStrictEqual({ status: true, message: 'Payout account deleted successfully' });
    const listed = await call(sandbox, 'GET', PAYOUTS, { headers });
    expect(
      pageOf(listed, payoutAccount)
        .data.map((p) => p.id)
        .sort(),
    ).toEqual([ids[1], ids[2]].sort());

    expect((await call(sandbox, 'POST', PAYOUTS, { headers, body: payout('1000000004') })).status).toBe(201);

    const again = await call(sandbox, 'DELETE', `${PAYOUTS}/${ids[0]}`, { headers });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ status: false, data: null });
  });

  it('can add back the very account that was deleted', async () => {
    const res = await call(sandbox, 'GET', PAYOUTS, { headers });
    const target = pageOf(res, payoutAccount).data[0];
    if (!target) throw new Error('expected a payout account');
    expect((await call(sandbox, 'DELETE', `${PAYOUTS}/${target.id}`, { headers })).status).toBe(200);
    const back = await call(sandbox, 'POST', PAYOUTS, {
      headers,
      body: payout(target.accountNumber, { code: target.bankCode, name: target.bankName }),
    });
    expect(back.status).toBe(201);
  });

  it('answers 404 to deleting an unknown id', async () => {
    const res = await call(sandbox, 'DELETE', `${PAYOUTS}/no-such-payout`, { headers });
    expect(res.status).toBe(404);
  });
});

describe('payout accounts across businesses', () => {
  const sandbox = useSandbox();
  let headersA: Record<string, string>;
  let headersB: Record<string, string>;
  let bPayout: PayoutAccountView;
  beforeAll(async () => {
    await withoutFixturePayout(sandbox);
    headersA = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const res = await call(sandbox, 'POST', PAYOUTS, { headers: headersB, body: payout('0123456789') });
    expect(res.status).toBe(201);
    const [created] = pageOf(await call(sandbox, 'GET', PAYOUTS, { headers: headersB }), payoutAccount).data;
    if (!created) throw new Error("expected B's payout account in B's list");
    bPayout = created;
    expect(bPayout.clientId).toBe(B.id);
  });

  it("does not list B's accounts to A", async () => {
    const res = await call(sandbox, 'GET', PAYOUTS, { headers: headersA });
    expect(res.body.data).toEqual([]);
  });

  it("answers 404 to A's PUT and DELETE of B's account, and leaves it unchanged", async () => {
    const put = await call(sandbox, 'PUT', `${PAYOUTS}/${bPayout.id}`, {
      headers: headersA,
      body: payout('5555555555'),
    });
    expect(put.status).toBe(404);
    const del = await call(sandbox, 'DELETE', `${PAYOUTS}/${bPayout.id}`, { headers: headersA });
    expect(del.status).toBe(404);
    const listed = await call(sandbox, 'GET', PAYOUTS, { headers: headersB });
    expect(pageOf(listed, payoutAccount).data).toEqual([bPayout]);
  });

  it('lets A hold the same account number as B: the duplicate rule is per client', async () => {
    const created = await call(sandbox, 'POST', PAYOUTS, { headers: headersA, body: payout('0123456789') });
    expect(created.status).toBe(201);
    const res = await call(sandbox, 'GET', PAYOUTS, { headers: headersA });
    const mine = pageOf(res, payoutAccount).data;
    expect(mine.map((p) => p.accountNumber)).toEqual([bPayout.accountNumber]);
    expect(mine.map((p) => p.clientId)).toEqual([A.id]);
    expect(mine[0]?.id).not.toBe(bPayout.id);
  });

  it('lets a Manager create one', async () => {
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const res = await call(sandbox, 'POST', PAYOUTS, { headers: manager, body: payout('7777777777') });
    expect(res.status).toBe(201);
  });
});

describe('payout accounts belong to the client: A1 and A2 share them', () => {
  const sandbox = useSandbox();
  let a1: Record<string, string>;
  let a2: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
    await withoutFixturePayout(sandbox);
    a1 = await ownerHeaders(sandbox);
    a2 = { ...a1, businessId: A.a2.id };
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
  });

  const list = async (h: Record<string, string>) => {
    const res = await call(sandbox, 'GET', PAYOUTS, { headers: h });
    expect(res.status).toBe(200);
    return pageOf(res, payoutAccount);
  };

  it('writes its audit entries client-wide: an account added through A1 shows in the log of A2 too', async () => {
    const body = { accountName: 'Audit Payee', accountNumber: '0123456789', bankName: 'X', bankCode: '044' };
    const created = async (h: Record<string, string>) => {
      const res = await call(sandbox, 'GET', '/api/v1/clients/business/audits?type=payout&action=create', {
        headers: h,
      });
      return pageOf(res, auditEntry).data.length;
    };
    // The fixtures' own payout account came with its entry.
    const before = await created(a1);
    expect((await call(sandbox, 'POST', PAYOUTS, { headers: a1, body })).status).toBe(201);
    expect(await created(a1)).toBe(before + 1);
    expect(await created(a2)).toBe(before + 1);
    expect(await created(headersB)).toBe(0);
    const [made] = (await list(a1)).data.filter((p) => p.accountName === 'Audit Payee');
    expect((await call(sandbox, 'DELETE', `${PAYOUTS}/${made?.id}`, { headers: a1 })).status).toBe(200);
  });

  it('lists the same accounts, identically, from A1 and from A2', async () => {
    expect((await call(sandbox, 'POST', PAYOUTS, { headers: a1, body: payout('2000000001') })).status).toBe(
      201,
    );
    expect((await call(sandbox, 'POST', PAYOUTS, { headers: a2, body: payout('2000000002') })).status).toBe(
      201,
    );
    const fromA1 = await list(a1);
    const fromA2 = await list(a2);
    expect(fromA1.data.map((p) => p.accountNumber).sort()).toEqual(['2000000001', '2000000002']);
    expect(fromA2).toEqual(fromA1);
    expect(fromA1.data.every((p) => p.clientId === A.id)).toBe(true);
  });

  it('answers 409 from A2 to an account A1 added: one client, one set', async () => {
    const res = await call(sandbox, 'POST', PAYOUTS, { headers: a2, body: payout('2000000001') });
    expect(res.status).toBe(409);
    expect(res.body).toStrictEqual({ status: false, message: DUPLICATE, data: null });
    expect((await list(a1)).pagination.totalCount).toBe(2);
  });

  it('lets A2 update an account A1 added, and A1 sees the change', async () => {
    const target = (await list(a1)).data.find((p) => p.accountNumber === '2000000001');
    if (!target) throw new Error('expected the account A1 added');
    const res = await call(sandbox, 'PUT', `${PAYOUTS}/${target.id}`, {
      headers: a2,
      body: { ...payout('2000000001'), accountName: 'Renamed through A2' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ status: true, message: 'Payout account updated successfully' });
    expect((await list(a1)).data.find((p) => p.id === target.id)).toEqual({
      ...target,
      accountName: 'Renamed through A2',
    });
  });

  it('caps the client at three: the fourth is refused from either business', async () => {
    expect((await call(sandbox, 'POST', PAYOUTS, { headers: a1, body: payout('2000000003') })).status).toBe(
      201,
    );
    for (const h of [a1, a2]) {
      const res = await call(sandbox, 'POST', PAYOUTS, { headers: h, body: payout('2000000004') });
      expect(res.status, h.businessId).toBe(400);
      expect(res.body).toStrictEqual({ status: false, message: TOO_MANY, data: null });
    }
    expect((await list(a1)).pagination.totalCount).toBe(3);
    expect(await list(a2)).toEqual(await list(a1));
    // Another client's cap is its own.
    expect(
      (await call(sandbox, 'POST', PAYOUTS, { headers: headersB, body: payout('2000000004') })).status,
    ).toBe(201);
  });

  it('lets A2 delete an account A1 added, which frees the client’s slot for A1', async () => {
    const target = (await list(a1)).data.find((p) => p.accountNumber === '2000000003');
    if (!target) throw new Error('expected the account A1 added');
    const del = await call(sandbox, 'DELETE', `${PAYOUTS}/${target.id}`, { headers: a2 });
    expect(del.status).toBe(200);
    expect((await list(a1)).data.map((p) => p.id)).not.toContain(target.id);
    expect((await call(sandbox, 'POST', PAYOUTS, { headers: a1, body: payout('2000000004') })).status).toBe(
      201,
    );
  });

  it("never shows B's accounts to A1 or A2, nor A's to B", async () => {
    const fromB = await list(headersB);
    expect(fromB.data.map((p) => p.clientId)).toEqual([B.id]);
    for (const h of [a1, a2]) expect((await list(h)).data.every((p) => p.clientId === A.id)).toBe(true);
    const bAccount = fromB.data[0];
    if (!bAccount) throw new Error("expected B's account");
    const del = await call(sandbox, 'DELETE', `${PAYOUTS}/${bAccount.id}`, { headers: a2 });
    expect(del.status).toBe(404);
    expect(await list(headersB)).toEqual(fromB);
  });
});
