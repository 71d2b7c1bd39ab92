import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import { type AuditEntryView, auditEntry } from '../../src/api/audits/schemas.js';
import { payoutAccount } from '../../src/api/payouts/schemas.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf, type PageView, pageOf } from '../support/answers.js';
import { A, B, call, memorySandbox, ownerHeaders, schemeA, tokenFor } from '../support/sandbox.js';

const AUDITS = '/api/v1/clients/business/audits';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const PAYOUTS = '/api/v1/clients/business/payouts';
const WEBHOOK = '/api/v1/clients/settings/update-webhook-url';
const SIGNIN = '/api/v1/auth/signin';
const BANK = banks.banks[0];
if (!BANK) throw new Error('fixtures/banks.json is empty');

let refs = 0;
function transferBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  refs += 1;
  return {
    amount: 100000,
    receiverAccountNumber: '0123456789',
    receiverBankCode: BANK?.code,
    retrievalReference: `audit-${refs}`,
    narration: 'Supplies',
    ...overrides,
  };
}
function payoutBody(accountNumber: string): Record<string, unknown> {
  return { accountName: 'Adaeze Adebayo', accountNumber, bankName: BANK?.name, bankCode: BANK?.code };
}

async function auditsOf(
  sandbox: Sandbox,
  headers: Record<string, string>,
  query = '?limit=100',
): Promise<PageView<AuditEntryView>> {
  const res = await call(sandbox, 'GET', `${AUDITS}${query}`, { headers });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe(true);
  return pageOf(res, auditEntry);
}

describe('audit log of the owner', () => {
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  beforeAll(async () => {
    sandbox = await memorySandbox();
  });

  it('records sign-in, webhook update, transfer and payout creation, newest first', async () => {
    const token = await tokenFor(sandbox, A.owner);
    headers = schemeA(token, A.secretKey, A.a1.id);
    const webhook = await call(sandbox, 'PATCH', WEBHOOK, {
      headers,
      body: { webhookUrl: 'https://hooks.example.com/banking' },
    });
    expect(webhook.status).toBe(200);
    const transfer = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody() });
    expect(transfer.status).toBe(200);
    const payout = await call(sandbox, 'POST', PAYOUTS, { headers, body: payoutBody('0123456789') });
    expect(payout.status).toBe(201);

    const { data, pagination } = await auditsOf(sandbox, headers);
    expect(pagination.totalCount).toBe(data.length);
    const newest = data.slice(0, 4);
    expect(newest.map((a) => a.type)).toEqual(['PAYOUT', 'TRANSFER', 'SETTINGS', 'AUTH']);
    for (const entry of newest) {
      expect(Object.keys(entry).sort()).toEqual([
        'action',
        'date',
        'email',
        'id',
        'ipAddress',
        'role',
        'type',
        'user',
      ]);
      expect(entry).toMatchObject({ email: A.owner.email, user: 'Adaeze Adebayo', role: 'Admin' });
      expect(entry.action).toMatch(/\S/);
      expect(entry.id).toMatch(/\S/);
      expect(typeof entry.ipAddress).toBe('string');
      expect(new Date(entry.date).toISOString()).toBe(entry.date);
    }
    expect(new Set(newest.map((a) => a.id)).size).toBe(4);
    const dates = data.map((a) => Date.parse(a.date));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
  });

  it('gets one entry by id, identical to the listed one', async () => {
    const { data } = await auditsOf(sandbox, headers);
    for (const entry of data.slice(0, 4)) {
      const res = await call(sandbox, 'GET', `${AUDITS}/${entry.id}`, { headers });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(true);
      expect(res.body.data).toEqual(entry);
    }
  });

  it('answers 404 to an unknown id', async () => {
    const res = await call(sandbox, 'GET', `${AUDITS}/00000000-0000-4000-8000-000000000000`, { headers });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it('answers 404 to an entry of business A1 asked for with businessId A2', async () => {
    const transferEntry = (await auditsOf(sandbox, headers)).data.find((a) => a.type === 'TRANSFER');
    if (!transferEntry) throw new Error('expected a TRANSFER entry');
    const res = await call(sandbox, 'GET', `${AUDITS}/${transferEntry.id}`, {
      headers: { ...headers, businessId: A.a2.id },
    });
    expect(res.status).toBe(404);
    const listed = await auditsOf(sandbox, { ...headers, businessId: A.a2.id });
    expect(listed.data.map((a) => a.id)).not.toContain(transferEntry.id);
  });

  it('pages newest first', async () => {
    const all = (await auditsOf(sandbox, headers)).data.map((a) => a.id);
    const p1 = await auditsOf(sandbox, headers, '?page=1&limit=2');
    const p2 = await auditsOf(sandbox, headers, '?page=2&limit=2');
    expect(p1.data.map((a) => a.id)).toEqual(all.slice(0, 2));
    expect(p2.data.map((a) => a.id)).toEqual(all.slice(2, 4));
    expect(p1.pagination).toMatchObject({
      totalCount: all.length,
      limit: 2,
      hasNextPage: true,
      nextPage: 2,
      hasPreviousPage: false,
      previousPage: 0,
      lastPage: Math.max(1, Math.ceil(all.length / 2)),
    });
  });

  it('records the x-forwarded-for address', async () => {
    const forwarded = { ...headers, 'x-forwarded-for': '203.0.113.9' };
    const res = await call(sandbox, 'POST', TRANSFER, { headers: forwarded, body: transferBody() });
    expect(res.status).toBe(200);
    const [newest] = (await auditsOf(sandbox, headers)).data;
    expect(newest).toMatchObject({ type: 'TRANSFER', ipAddress: '203.0.113.9', email: A.owner.email });

    const signIn = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(signIn.status).toBe(200);
    const [auth] = (await auditsOf(sandbox, headers)).data;
    expect(auth).toMatchObject({ type: 'AUTH', ipAddress: '203.0.113.9', role: 'Admin' });
  });
});

describe("a Manager's actions", () => {
  it("record role 'Manager' and the manager's name and email", async () => {
    const sandbox = await memorySandbox();
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const signIn = (await auditsOf(sandbox, manager)).data[0];
    expect(signIn).toMatchObject({ type: 'AUTH', role: 'Manager', email: A.manager.email });

    const payout = await call(sandbox, 'POST', PAYOUTS, { headers: manager, body: payoutBody('0123456789') });
    expect(payout.status).toBe(201);
    const transfer = await call(sandbox, 'POST', TRANSFER, { headers: manager, body: transferBody() });
    expect(transfer.status).toBe(200);
    const { data } = await auditsOf(sandbox, manager);
    expect(data.slice(0, 3).map((a) => a.type)).toEqual(['TRANSFER', 'PAYOUT', 'AUTH']);
    for (const entry of data.slice(0, 3)) {
      expect(entry).toMatchObject({
        email: A.manager.email,
        user: `${A.manager.firstName} ${A.manager.lastName}`,
        role: 'Manager',
      });
    }
  });
});

describe('refused requests', () => {
  let sandbox: Sandbox;
  let owner: Record<string, string>;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    owner = await ownerHeaders(sandbox);
  });

  async function counts(): Promise<[number, number]> {
    const a1 = (await auditsOf(sandbox, owner)).pagination.totalCount;
    const a2 = (await auditsOf(sandbox, { ...owner, businessId: A.a2.id })).pagination.totalCount;
    return [a1, a2];
  }

  // A 403 to a role leaves the whole state as it was, the log with it, on every route:
  // route-auth.test.ts, '%s: each role as the role rules say'.
  it('write nothing: 400, 404 and 409 answers leave the log as it was', async () => {
    const reused = transferBody();
    expect((await call(sandbox, 'POST', TRANSFER, { headers: owner, body: reused })).status).toBe(200);
    const payoutIds: string[] = [];
    for (const n of ['1000000001', '1000000002', '1000000003']) {
      const res = await call(sandbox, 'POST', PAYOUTS, { headers: owner, body: payoutBody(n) });
      expect(res.status).toBe(201);
      payoutIds.push(dataOf(res, payoutAccount).id);
    }
    const before = await counts();
    const newestBefore = (await auditsOf(sandbox, owner)).data[0];

    const refused: [string, string, Record<string, string>, Record<string, unknown>, number][] = [
      ['POST', TRANSFER, owner, transferBody({ amount: 99 }), 400],
      ['POST', TRANSFER, owner, transferBody({ receiverBankCode: '999' }), 400],
      ['POST', TRANSFER, { ...owner, businessId: A.a2.id }, transferBody(), 400],
      ['POST', TRANSFER, owner, { ...reused, amount: 123456 }, 409],
      ['POST', PAYOUTS, owner, payoutBody('1000000004'), 400],
      ['PUT', `${PAYOUTS}/${payoutIds[1]}`, owner, payoutBody('1000000001'), 409],
      ['PUT', `${PAYOUTS}/no-such-payout`, owner, payoutBody('1000000009'), 404],
      ['PATCH', WEBHOOK, owner, { webhookUrl: 'not a url' }, 400],
    ];
    for (const [method, path, headers, body, status] of refused) {
      const res = await call(sandbox, method, path, { headers, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
    }
    const badSignIn = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: 'wrong-password' },
    });
    expect(badSignIn.status).toBe(401);

    expect(await counts()).toEqual(before);
    expect((await auditsOf(sandbox, owner)).data[0]).toEqual(newestBefore);
  });
});

describe('audit isolation between clients', () => {
  let sandbox: Sandbox;
  let headersA: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    headersA = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    expect((await call(sandbox, 'POST', TRANSFER, { headers: headersA, body: transferBody() })).status).toBe(
      200,
    );
    expect((await call(sandbox, 'POST', TRANSFER, { headers: headersB, body: transferBody() })).status).toBe(
      200,
    );
  });

  it("B never sees A's entries, and A never sees B's", async () => {
    const a = (await auditsOf(sandbox, headersA)).data;
    const b = (await auditsOf(sandbox, headersB)).data;
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(b.every((entry) => entry.email === B.owner.email)).toBe(true);
    expect(a.every((entry) => entry.email !== B.owner.email)).toBe(true);
    const aIds = new Set(a.map((entry) => entry.id));
    expect(b.filter((entry) => aIds.has(entry.id))).toEqual([]);
  });

  it('answers 404 to every entry of another client, either way, client-wide ones included', async () => {
    const a = (await auditsOf(sandbox, headersA)).data;
    const b = (await auditsOf(sandbox, headersB)).data;
    expect(a.map((entry) => entry.type)).toContain('AUTH');
    expect(b.map((entry) => entry.type)).toContain('AUTH');
    for (const entry of a) {
      const res = await call(sandbox, 'GET', `${AUDITS}/${entry.id}`, { headers: headersB });
      expect(res.status, entry.type).toBe(404);
    }
    for (const entry of b) {
      const res = await call(sandbox, 'GET', `${AUDITS}/${entry.id}`, { headers: headersA });
      expect(res.status, entry.type).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(B.owner.email);
    }
  });
});
