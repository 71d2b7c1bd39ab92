import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { type DisputeView, dispute } from '../../../src/contract/api/disputes.js';
import { stateExport } from '../../../src/contract/control/state.js';
import { disputeRecord } from '../../../src/domain/records.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { bodyOf, dataOf, pageOf } from '../../support/answers.js';
import { transferEntry } from '../../support/money.js';
import { onePage } from '../../support/pagination.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const DISPUTES = '/api/v1/clients/business/disputes';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const BANK = banks.banks[0]?.code ?? '';
/** The open dispute the fixtures give A1, the oldest of its disputes. */
const FIXTURE_DISPUTE = 'The payer says the order never arrived.';

let refs = 0;
/** Makes a successful transfer and returns its transactionReference, read from its ledger entry. */
async function transfer(
  sandbox: Sandbox,
  headers: Record<string, string>,
  businessId: string,
): Promise<string> {
  refs += 1;
  const retrievalReference = `dispute-${refs}`;
  const res = await call(sandbox, 'POST', TRANSFER, {
    headers,
    body: {
      amount: 100000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: BANK,
      retrievalReference,
      narration: 'Goods',
    },
  });
  expect(res.status).toBe(200);
  return (await transferEntry(sandbox, retrievalReference, businessId)).id;
}

/** The disputes as the store keeps them (with the internal `resolvedAt`), from the state export. */
async function storedDisputes(sandbox: Sandbox): Promise<z.infer<typeof disputeRecord>[]> {
  const exported = bodyOf(await call(sandbox, 'GET', '/__sandbox/state'), stateExport);
  return z.array(disputeRecord).parse(exported.collections.disputes);
}

describe('disputes', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  let headersB: Record<string, string>;
  let tx1: string;
  let tx2: string;
  let txB: string;
  beforeAll(async () => {
    headers = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    tx1 = await transfer(sandbox, headers, A.a1.id);
    tx2 = await transfer(sandbox, headers, A.a1.id);
    txB = await transfer(sandbox, headersB, B.b1.id);
  });

  const open = (b: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', DISPUTES, { headers: h, body: b });
  const list = async (query = '', h: Record<string, string> = headers) => {
    const res = await call(sandbox, 'GET', `${DISPUTES}${query}`, { headers: h });
    expect(res.status).toBe(200);
    return pageOf(res, dispute);
  };

  let first: DisputeView;
  it('opens a dispute on a transfer: 201 with no data; the list shows it open with its dateCreated', async () => {
    const res = await open({ transactionId: tx1, description: 'Customer says the goods never arrived' });
    expect(res.status).toBe(201);
    // The docs' answer: the message alone.
    expect(res.body).toStrictEqual({ status: true, message: 'Dispute created successfully' });
    const { data } = await list(`?transactionId=${tx1}`);
    expect(data).toHaveLength(1);
    const [listed] = data;
    if (!listed) throw new Error('expected the new dispute in the list');
    first = listed;
    expect(first).toStrictEqual({
      id: expect.any(String),
      transactionId: tx1,
      description: 'Customer says the goods never arrived',
      status: 'open',
      dateCreated: expect.any(String),
    });
    expect(new Date(first.dateCreated).toISOString()).toBe(first.dateCreated);
    // The record keeps resolvedAt for itself: null while open.
    expect((await storedDisputes(sandbox)).find((d) => d.id === first.id)).toMatchObject({
      dateCreated: first.dateCreated,
      resolvedAt: null,
    });
  });

  it('answers 409 to a second open dispute on the same transaction', async () => {
    const res = await open({ transactionId: tx1, description: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect((await list(`?transactionId=${tx1}`)).data).toHaveLength(1);
  });

  it('answers 404 to an unknown transaction', async () => {
    const res = await open({ transactionId: 'TRX-DOES-NOT-EXIST', description: 'Unknown' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it("answers 404 to B's transaction", async () => {
    const res = await open({ transactionId: txB, description: 'Not mine' });
    expect(res.status).toBe(404);
    expect((await list('', headersB)).data).toEqual([]);
  });

  it("answers 404 to A1's transaction asked for from business A2", async () => {
    const res = await open(
      { transactionId: tx2, description: 'Wrong business' },
      { ...headers, businessId: A.a2.id },
    );
    expect(res.status).toBe(404);
  });

  it.each([
    ['an empty description', { description: '' }, 'description'],
    ['no description', { description: undefined }, 'description'],
    ['no transactionId', { transactionId: undefined }, 'transactionId'],
  ])('answers 400 to %s', async (_label, change, field) => {
    const res = await open({ transactionId: tx2, description: 'Valid text', ...change });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect((await list(`?transactionId=${tx2}`)).data).toEqual([]);
  });

  // The bank states no minimum (the sandbox asked for 3 characters).
  it('accepts a description of one character', async () => {
    const res = await open({ transactionId: tx2, description: '?' });
    expect(res.status).toBe(201);
    expect((await list(`?transactionId=${tx2}`)).data.map((d) => d.description)).toEqual(['?']);
  });

  it('gets a dispute by id, and not from another business', async () => {
    const res = await call(sandbox, 'GET', `${DISPUTES}/${first.id}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(first);
    const fromB = await call(sandbox, 'GET', `${DISPUTES}/${first.id}`, { headers: headersB });
    expect(fromB.status).toBe(404);
    const fromA2 = await call(sandbox, 'GET', `${DISPUTES}/${first.id}`, {
      headers: { ...headers, businessId: A.a2.id },
    });
    expect(fromA2.status).toBe(404);
    const unknown = await call(sandbox, 'GET', `${DISPUTES}/no-such-dispute`, { headers });
    expect(unknown.status).toBe(404);
  });

  it('resolve makes it resolved (the same view), keeps resolvedAt inside, and allows a new dispute', async () => {
    const res = await call(sandbox, 'POST', `/__sandbox/disputes/${first.id}/resolve`);
    expect(res.status).toBe(200);
    expect(dataOf(res, dispute)).toStrictEqual({ ...first, status: 'resolved' });
    const got = await call(sandbox, 'GET', `${DISPUTES}/${first.id}`, { headers });
    expect(dataOf(got, dispute)).toStrictEqual({ ...first, status: 'resolved' });
    const stored = (await storedDisputes(sandbox)).find((d) => d.id === first.id);
    expect(stored?.status).toBe('resolved');
    expect(new Date(stored?.resolvedAt ?? '').toISOString()).toBe(stored?.resolvedAt);

    const again = await open({ transactionId: tx1, description: 'Second complaint, different issue' });
    expect(again.status).toBe(201);
    const open1 = (await list(`?transactionId=${tx1}&status=open`)).data;
    expect(open1.map((d) => d.description)).toEqual(['Second complaint, different issue']);
  });

  it('answers 409 to resolving or rejecting a dispute that is already resolved', async () => {
    const resolve = await call(sandbox, 'POST', `/__sandbox/disputes/${first.id}/resolve`);
    expect(resolve.status).toBe(409);
    const reject = await call(sandbox, 'POST', `/__sandbox/disputes/${first.id}/reject`);
    expect(reject.status).toBe(409);
    const got = await call(sandbox, 'GET', `${DISPUTES}/${first.id}`, { headers });
    expect(dataOf(got, dispute).status).toBe('resolved');
  });

  it('reject makes it rejected and allows a new dispute; rejecting twice is 409', async () => {
    const opened = (await list(`?transactionId=${tx2}&status=open`)).data[0];
    if (!opened) throw new Error('expected an open dispute on tx2');
    const res = await call(sandbox, 'POST', `/__sandbox/disputes/${opened.id}/reject`);
    expect(res.status).toBe(200);
    expect(dataOf(res, dispute)).toStrictEqual({ ...opened, status: 'rejected' });
    const got = await call(sandbox, 'GET', `${DISPUTES}/${opened.id}`, { headers });
    expect(dataOf(got, dispute)).toStrictEqual({ ...opened, status: 'rejected' });
    expect((await storedDisputes(sandbox)).find((d) => d.id === opened.id)?.resolvedAt).toEqual(
      expect.any(String),
    );
    expect((await call(sandbox, 'POST', `/__sandbox/disputes/${opened.id}/reject`)).status).toBe(409);
    expect((await call(sandbox, 'POST', `/__sandbox/disputes/${opened.id}/resolve`)).status).toBe(409);
    const again = await open({ transactionId: tx2, description: 'Reopened with receipts' });
    expect(again.status).toBe(201);
  });

  it('answers 404 to resolving or rejecting an unknown dispute', async () => {
    expect((await call(sandbox, 'POST', '/__sandbox/disputes/no-such-dispute/resolve')).status).toBe(404);
    expect((await call(sandbox, 'POST', '/__sandbox/disputes/no-such-dispute/reject')).status).toBe(404);
  });

  it('lists newest first with the pagination object', async () => {
    const { data, pagination } = await list();
    // first (resolved), '?' (rejected), second on tx1 (open), reopened on tx2 (open), after the fixtures' own.
    expect(data).toHaveLength(5);
    expect(data.map((d) => d.description)).toEqual([
      'Reopened with receipts',
      'Second complaint, different issue',
      '?',
      'Customer says the goods never arrived',
      FIXTURE_DISPUTE,
    ]);
    expect(pagination).toEqual(onePage(5, 10));
  });

  it('pages newest first', async () => {
    const all = (await list()).data.map((d) => d.id);
    const p1 = await list('?page=1&limit=3');
    const p2 = await list('?page=2&limit=3');
    expect([...p1.data, ...p2.data].map((d) => d.id)).toEqual(all);
    expect(p1.pagination).toMatchObject({
      totalCount: 5,
      hasNextPage: true,
      nextPage: 2,
      lastPage: 2,
      limit: 3,
    });
    expect(p2.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 });
  });

  it('filters by transactionId', async () => {
    const { data, pagination } = await list(`?transactionId=${tx1}`);
    expect(data.map((d) => d.description)).toEqual([
      'Second complaint, different issue',
      'Customer says the goods never arrived',
    ]);
    expect(data.every((d) => d.transactionId === tx1)).toBe(true);
    expect(pagination.totalCount).toBe(2);
    expect((await list('?transactionId=unknown')).data).toEqual([]);
  });

  it.each([
    ['open', ['Reopened with receipts', 'Second complaint, different issue', FIXTURE_DISPUTE]],
    ['resolved', ['Customer says the goods never arrived']],
    ['rejected', ['?']],
  ])('filters by status=%s', async (status, descriptions) => {
    const { data, pagination } = await list(`?status=${status}`);
    expect(data.map((d) => d.description)).toEqual(descriptions);
    expect(data.every((d) => d.status === status)).toBe(true);
    expect(pagination.totalCount).toBe(descriptions.length);
  });

  it('takes the status in any case, and a status that is none matches nothing (no rule the docs do not give)', async () => {
    expect((await list('?status=RESOLVED')).data.map((d) => d.description)).toEqual([
      'Customer says the goods never arrived',
    ]);
    for (const status of ['closed', 'pending']) {
      const { data, pagination } = await list(`?status=${status}`);
      expect(data, status).toEqual([]);
      expect(pagination.totalCount).toBe(0);
    }
  });

  it('answers 400 to an empty status, as to any empty text field', async () => {
    const res = await call(sandbox, 'GET', `${DISPUTES}?status=`, { headers });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'status' })]));
  });

  it('filters by keyword, case-insensitively, as a substring of the description', async () => {
    expect((await list('?keyword=GOODS')).data.map((d) => d.description)).toEqual([
      'Customer says the goods never arrived',
    ]);
    expect((await list('?keyword=compl')).data.map((d) => d.description)).toEqual([
      'Second complaint, different issue',
    ]);
    expect((await list('?keyword=RECEIPTS')).data).toHaveLength(1);
    expect((await list('?keyword=nothing-like-this')).data).toEqual([]);
  });

  it('filters by keyword as a substring of the transaction id too, case-insensitively', async () => {
    const onTx1 = ['Second complaint, different issue', 'Customer says the goods never arrived'];
    expect((await list(`?keyword=${tx1}`)).data.map((d) => d.description)).toEqual(onTx1);
    expect((await list(`?keyword=${tx1.toLowerCase()}`)).data.map((d) => d.description)).toEqual(onTx1);
    // A part of the id that no description holds.
    const part = tx2.slice(-12);
    expect(tx1).not.toContain(part);
    const { data, pagination } = await list(`?keyword=${part}`);
    expect(data.map((d) => d.description)).toEqual(['Reopened with receipts', '?']);
    expect(data.every((d) => d.transactionId === tx2)).toBe(true);
    expect(pagination.totalCount).toBe(2);
  });

  it('combines the filters', async () => {
    const { data } = await list(`?transactionId=${tx1}&status=open&keyword=second`);
    expect(data.map((d) => d.description)).toEqual(['Second complaint, different issue']);
    expect((await list(`?transactionId=${tx1}&status=rejected`)).data).toEqual([]);
  });

  it("never lists A's disputes to B", async () => {
    expect((await list('', headersB)).data).toEqual([]);
  });

  // That a Viewer may not open one (403, nothing stored) is route-auth.test.ts's: each role as the role rules say.
  it('lets a Viewer read the disputes', async () => {
    const viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey, A.a1.id);
    expect((await list('', viewer)).data).toHaveLength(5);
  });
});
