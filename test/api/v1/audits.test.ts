import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { type AuditEntryView, auditEntry } from '../../../src/contract/api/audits.js';
import { createdBusiness } from '../../../src/contract/api/business.js';
import { payoutAccount } from '../../../src/contract/api/payouts.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { type Answered, dataOf, type PageView, pageOf } from '../../support/answers.js';
import { BULK, bulkHelpers, drain, keysA1, processBatch, REPROCESS } from '../../support/bulk.js';
import { transferEntry } from '../../support/money.js';
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

const AUDITS = '/api/v1/clients/business/audits';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const PAYOUTS = '/api/v1/clients/business/payouts';
const WEBHOOK = '/api/v1/clients/settings/update-webhook-url';
const SIGNIN = '/api/v1/auth/signin';
const BUSINESSES = '/api/v1/clients/business';
const DISPUTES = '/api/v1/clients/business/disputes';
const VIRTUAL_ACCOUNTS = '/api/v1/clients/business/virtual-accounts';
const MEMBERS = '/api/v1/clients/members';
const CONFIGURE = '/api/v1/clients/settings/configure-billers';
const VIEWER_ROLE = roles.find((r) => r.name === 'Viewer')?.id ?? '';
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
  const sandbox = useSandbox();
  let headers: Record<string, string>;

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
    expect(newest.map((a) => a.type)).toEqual(['payout', 'transaction', 'settings', 'auth']);
    expect(newest.map((a) => a.action)).toEqual(['create', 'transfer', 'update', 'login']);
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
    const transfer = (await auditsOf(sandbox, headers)).data.find((a) => a.type === 'transaction');
    if (!transfer) throw new Error('expected a transaction entry');
    const res = await call(sandbox, 'GET', `${AUDITS}/${transfer.id}`, {
      headers: { ...headers, businessId: A.a2.id },
    });
    expect(res.status).toBe(404);
    const listed = await auditsOf(sandbox, { ...headers, businessId: A.a2.id });
    expect(listed.data.map((a) => a.id)).not.toContain(transfer.id);
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
    expect(newest).toMatchObject({
      type: 'transaction',
      action: 'transfer',
      ipAddress: '203.0.113.9',
      email: A.owner.email,
    });

    const signIn = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(signIn.status).toBe(200);
    const [auth] = (await auditsOf(sandbox, headers)).data;
    expect(auth).toMatchObject({ type: 'auth', action: 'login', ipAddress: '203.0.113.9', role: 'Admin' });
  });
});

describe("a Manager's actions", () => {
  it("record role 'Manager' and the manager's name and email", async () => {
    const sandbox = await memorySandbox();
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const signIn = (await auditsOf(sandbox, manager)).data[0];
    expect(signIn).toMatchObject({ type: 'auth', action: 'login', role: 'Manager', email: A.manager.email });

    const payout = await call(sandbox, 'POST', PAYOUTS, { headers: manager, body: payoutBody('0123456789') });
    expect(payout.status).toBe(201);
    const transfer = await call(sandbox, 'POST', TRANSFER, { headers: manager, body: transferBody() });
    expect(transfer.status).toBe(200);
    const { data } = await auditsOf(sandbox, manager);
    expect(data.slice(0, 3).map((a) => a.type)).toEqual(['transaction', 'payout', 'auth']);
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
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  beforeAll(async () => {
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
    // The fixtures give A one payout account: two more fill the client's three.
    for (const n of ['1000000001', '1000000002']) {
      const res = await call(sandbox, 'POST', PAYOUTS, { headers: owner, body: payoutBody(n) });
      expect(res.status).toBe(201);
    }
    // A creation answers no data: the ids are in the list.
    const listed = pageOf(await call(sandbox, 'GET', PAYOUTS, { headers: owner }), payoutAccount).data;
    const payoutIds = ['1000000001', '1000000002'].map((n) => listed.find((p) => p.accountNumber === n)?.id);
    const before = await counts();
    const newestBefore = (await auditsOf(sandbox, owner)).data[0];

    const refused: [string, string, Record<string, string>, Record<string, unknown>, number][] = [
      ['POST', TRANSFER, owner, transferBody({ amount: 0 }), 400],
      ['POST', TRANSFER, owner, transferBody({ amount: 1.5 }), 400],
      ['POST', TRANSFER, owner, transferBody({ receiverBankCode: '999' }), 400],
      ['POST', TRANSFER, { ...owner, businessId: A.a2.id }, transferBody(), 400],
      ['POST', TRANSFER, owner, { ...reused, amount: 123456 }, 409],
      ['POST', PAYOUTS, owner, payoutBody('1000000004'), 400],
      ['PUT', `${PAYOUTS}/${payoutIds[1] ?? 'missing'}`, owner, payoutBody('1000000001'), 409],
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
  const sandbox = useSandbox();
  let headersA: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
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
    expect(a.map((entry) => entry.type)).toContain('auth');
    expect(b.map((entry) => entry.type)).toContain('auth');
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

describe('what each action writes: a lower-case verb and category', () => {
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  const bulk = bulkHelpers({ label: 'audit-bulk', narration: 'Audited', batchName: 'Audited batch' });
  beforeAll(async () => {
    owner = await ownerHeaders(sandbox);
  });

  /** The newest entry `headers` see (business A1 unless told), and how many there are. */
  async function newest(headers = owner): Promise<{ entry: AuditEntryView | undefined; count: number }> {
    const { data, pagination } = await auditsOf(sandbox, headers, '?limit=1');
    return { entry: data[0], count: pagination.totalCount };
  }

  /** Runs `act`, then expects exactly one new entry, the newest, with this action and type. */
  async function expectWrites(
    label: string,
    act: () => Promise<unknown>,
    action: string,
    type: string,
    headers = owner,
  ): Promise<void> {
    const before = await newest(headers);
    await act();
    const after = await newest(headers);
    expect(after.count, label).toBe(before.count + 1);
    expect(after.entry, label).toMatchObject({ action, type });
  }

  /** Answers `status`, or the test says what came back. */
  async function expectStatus(
    status: number,
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ): Promise<Answered> {
    const res = await call(sandbox, method, path, { headers: owner, ...options });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
    return res;
  }

  it('sign-in: login, auth', async () => {
    await expectWrites('sign-in', () => tokenFor(sandbox, A.owner), 'login', 'auth');
  });

  it('a transfer, successful or failed: transfer, transaction', async () => {
    await expectWrites(
      'transfer',
      () => expectStatus(200, 'POST', TRANSFER, { body: transferBody() }),
      'transfer',
      'transaction',
    );
    await expectWrites(
      'failed transfer',
      () =>
        expectStatus(400, 'POST', TRANSFER, {
          body: transferBody({ receiverAccountNumber: '0000000051' }),
        }),
      'transfer',
      'transaction',
    );
  });

  it('a bulk transfer created, processed and reprocessed: create, process, reprocess; transaction', async () => {
    let id = '';
    await expectWrites(
      'bulk create',
      async () => {
        const batch = await bulk.create(sandbox, [
          bulk.transfer(),
          bulk.transfer({ receiverAccountNumber: '0000000051' }),
        ]);
        id = batch.id;
      },
      'create',
      'transaction',
    );
    await expectWrites(
      'bulk process',
      async () => {
        expect((await processBatch(sandbox, id)).status).toBe(202);
        await drain(sandbox);
      },
      'process',
      'transaction',
    );
    expect((await bulk.getBatch(sandbox, id)).status).toBe('partially_completed');
    await expectWrites(
      'bulk reprocess',
      async () => {
        const res = await call(sandbox, 'POST', REPROCESS, { headers: keysA1, body: { bulkTransferId: id } });
        expect(res.status).toBe(202);
        await drain(sandbox);
      },
      'reprocess',
      'transaction',
    );
    // The list route reads, it writes nothing.
    await expectWrites(
      'a read then a transfer',
      async () => {
        expect((await call(sandbox, 'GET', BULK, { headers: keysA1 })).status).toBe(200);
        await expectStatus(200, 'POST', TRANSFER, { body: transferBody() });
      },
      'transfer',
      'transaction',
    );
  });

  it('a business created: create, business (an entry of the new business)', async () => {
    const res = await expectStatus(201, 'POST', BUSINESSES, {
      body: { businessName: 'Adebayo Audited', countryId: 'NG', isNewBusiness: true },
    });
    const { id } = dataOf(res, createdBusiness).business;
    const { entry, count } = await newest({ ...owner, businessId: id });
    expect(entry).toMatchObject({ action: 'create', type: 'business', email: A.owner.email });
    // Its own sign-in is client-wide and seen from every business; the creation is the new business's alone.
    const a1 = await auditsOf(sandbox, owner, '?action=create&type=business');
    expect(a1.data).toEqual([]);
    expect(count).toBeGreaterThan(0);
  });

  it('payout accounts created, updated and deleted: create, update, delete; payout', async () => {
    await expectWrites(
      'payout create',
      () => expectStatus(201, 'POST', PAYOUTS, { body: payoutBody('2000000001') }),
      'create',
      'payout',
    );
    const listed = pageOf(await call(sandbox, 'GET', PAYOUTS, { headers: owner }), payoutAccount).data;
    const id = listed.find((p) => p.accountNumber === '2000000001')?.id ?? 'missing';
    await expectWrites(
      'payout update',
      () => expectStatus(200, 'PUT', `${PAYOUTS}/${id}`, { body: payoutBody('2000000002') }),
      'update',
      'payout',
    );
    await expectWrites(
      'payout delete',
      () => expectStatus(200, 'DELETE', `${PAYOUTS}/${id}`),
      'delete',
      'payout',
    );
  });

  it('a dispute opened: create, dispute', async () => {
    const body = transferBody();
    await expectStatus(200, 'POST', TRANSFER, { body });
    const { id: transactionId } = await transferEntry(sandbox, String(body.retrievalReference));
    await expectWrites(
      'dispute',
      () =>
        expectStatus(201, 'POST', DISPUTES, {
          body: { transactionId, description: 'Not received' },
        }),
      'create',
      'dispute',
    );
  });

  it('virtual accounts of both kinds: create, virtual_account', async () => {
    await expectWrites(
      'multi-use',
      () =>
        expectStatus(201, 'POST', VIRTUAL_ACCOUNTS, {
          body: { firstName: 'Ada', lastName: 'Obi', type: 'permanent', reference: 'audit-va-1' },
        }),
      'create',
      'virtual_account',
    );
    await expectWrites(
      'single-use',
      () =>
        expectStatus(201, 'POST', `${VIRTUAL_ACCOUNTS}/single-use`, {
          body: { firstName: 'Ada', lastName: 'Obi', refCode: 'audit-va-2', amount: 50_000, duration: 600 },
        }),
      'create',
      'virtual_account',
    );
  });

  it('a member invited and registered: invite, register; member', async () => {
    const email = 'audited.member@adebayo.test';
    await expectWrites(
      'invite',
      () => expectStatus(201, 'POST', MEMBERS, { body: { email, memberRoleId: VIEWER_ROLE } }),
      'invite',
      'member',
    );
    const sent = pageOf(await call(sandbox, 'GET', `/__sandbox/outbox?to=${email}`), outboxMessage).data;
    const authorizationToken = sent[0]?.data.authorizationToken ?? '';
    await expectWrites(
      'member registration',
      () =>
        expectStatus(200, 'PATCH', `${MEMBERS}/complete-registration`, {
          headers: { SECRET_KEY: A.secretKey },
          body: {
            authorizationToken,
            firstName: 'Aud',
            lastName: 'Ited',
            phoneNo: '08030000009',
            password: 'x1',
          },
        }),
      'register',
      'member',
    );
    const { entry } = await newest();
    expect(entry).toMatchObject({ email, user: 'Aud Ited', role: 'Viewer' });
  });

  it('the webhook URL and the billers configured: update, settings', async () => {
    await expectWrites(
      'webhook',
      () => expectStatus(200, 'PATCH', WEBHOOK, { body: { webhookUrl: 'https://hooks.example.com/x' } }),
      'update',
      'settings',
    );
    await expectWrites(
      'billers',
      () => expectStatus(200, 'POST', CONFIGURE, { body: { billers: ['044'] } }),
      'update',
      'settings',
    );
  });

  it('writes only the documented verbs and categories, all lower case', async () => {
    const { data } = await auditsOf(sandbox, owner, '?limit=1000');
    const verbs = [
      'login',
      'transfer',
      'create',
      'update',
      'delete',
      'register',
      'invite',
      'process',
      'reprocess',
    ];
    const types = [
      'auth',
      'settings',
      'business',
      'transaction',
      'payout',
      'dispute',
      'member',
      'virtual_account',
    ];
    for (const entry of data) {
      expect(verbs).toContain(entry.action);
      expect(types).toContain(entry.type);
    }
  });
});

describe('filters of the audit log', () => {
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  let all: AuditEntryView[];
  beforeAll(async () => {
    owner = await ownerHeaders(sandbox);
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    await tokenFor(sandbox, A.viewer);
    for (const headers of [owner, manager, owner]) {
      expect((await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody() })).status).toBe(200);
    }
    expect(
      (await call(sandbox, 'POST', PAYOUTS, { headers: manager, body: payoutBody('3000000001') })).status,
    ).toBe(201);
    expect(
      (
        await call(sandbox, 'PATCH', WEBHOOK, {
          headers: owner,
          body: { webhookUrl: 'https://h.example.com/' },
        })
      ).status,
    ).toBe(200);
    all = (await auditsOf(sandbox, owner, '?limit=100')).data;
  });

  /** The ids the list gives for `query`, checked against the unfiltered list filtered here. */
  async function expectFilter(query: string, keep: (entry: AuditEntryView) => boolean): Promise<void> {
    const expected = all.filter(keep).map((a) => a.id);
    // A filter that keeps everything or nothing would prove nothing.
    expect(expected.length, query).toBeGreaterThan(0);
    expect(expected.length, query).toBeLessThan(all.length);
    const { data, pagination } = await auditsOf(sandbox, owner, `?limit=100&${query}`);
    expect(
      data.map((a) => a.id),
      query,
    ).toEqual(expected);
    expect(pagination.totalCount, query).toBe(expected.length);
  }

  it.each([
    ['role=Manager', 'role=manager', 'role=MANAGER', (a: AuditEntryView) => a.role === 'Manager'],
    ['action=login', 'action=LOGIN', 'action=Login', (a: AuditEntryView) => a.action === 'login'],
    [
      'type=transaction',
      'type=TRANSACTION',
      'type=Transaction',
      (a: AuditEntryView) => a.type === 'transaction',
    ],
    [
      `email=${A.owner.email}`,
      `email=${A.owner.email.toUpperCase()}`,
      `email=${encodeURIComponent('Owner@Adebayo.Test')}`,
      (a: AuditEntryView) => a.email === A.owner.email,
    ],
  ] as const)('%s keeps exactly its entries, in any case (%s, %s)', async (exact, upper, mixed, keep) => {
    for (const query of [exact, upper, mixed]) await expectFilter(query, keep);
  });

  it('combines filters with AND', async () => {
    await expectFilter('role=Manager&action=login', (a) => a.role === 'Manager' && a.action === 'login');
    await expectFilter(
      `email=${A.owner.email}&type=TRANSACTION`,
      (a) => a.email === A.owner.email && a.type === 'transaction',
    );
    await expectFilter(
      'role=admin&action=update&type=settings',
      (a) => a.role === 'Admin' && a.action === 'update' && a.type === 'settings',
    );
    // Each filter matches something alone; together nothing.
    const none = await auditsOf(sandbox, owner, '?role=Viewer&action=transfer');
    expect(none.data).toEqual([]);
  });

  it('is exact: part of a value matches nothing', async () => {
    for (const query of [
      'action=log',
      'action=logi',
      'type=trans',
      'role=Adm',
      'email=owner@adebayo',
      'email=adebayo.test',
    ]) {
      const { data, pagination } = await auditsOf(sandbox, owner, `?${query}`);
      expect(data, query).toEqual([]);
      expect(pagination.totalCount, query).toBe(0);
    }
  });

  it('answers an empty page, not 400, to a value nobody wrote', async () => {
    for (const query of [
      'action=teleport',
      'type=TRANSFER_OUT',
      'role=Superuser',
      'email=nobody@nowhere.test',
    ]) {
      const res = await call(sandbox, 'GET', `${AUDITS}?${query}`, { headers: owner });
      expect(res.status, query).toBe(200);
      const { data, pagination } = pageOf(res, auditEntry);
      expect(data, query).toEqual([]);
      expect(pagination).toEqual(onePage(0, 10));
    }
  });

  it('pages the filtered entries', async () => {
    const logins = all.filter((a) => a.action === 'login').map((a) => a.id);
    expect(logins.length).toBeGreaterThanOrEqual(3);
    const first = await auditsOf(sandbox, owner, '?action=login&limit=2');
    expect(first.data.map((a) => a.id)).toEqual(logins.slice(0, 2));
    expect(first.pagination).toMatchObject({ totalCount: logins.length, hasNextPage: true, nextPage: 2 });
  });
});
