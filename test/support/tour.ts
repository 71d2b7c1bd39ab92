import { expect } from 'vitest';
import roles from '../../fixtures/roles.json' with { type: 'json' };
import states from '../../fixtures/states.json' with { type: 'json' };
import { apiContracts } from '../../src/contract/api/index.js';
import { controlContracts } from '../../src/contract/control/index.js';
import { failures } from '../../src/contract/failures.js';
import type { RouteContract } from '../../src/contract/kit.js';
import type { Sandbox } from '../../src/sandbox.js';
import { transferEntry } from './money.js';
import { A, B, call, schemeA, schemeB, tokenFor } from './sandbox.js';

// The tour: one step per operation of both lists, run in order on one fresh sandbox, each calling its operation
// with a success and, where it can, an error. `test/api/http/contract.test.ts` holds every answer against its
// document with it, and `test/api/http/upstream.flow.test.ts` runs the bank API's steps through a
// sandbox whose --upstream is another sandbox, which must then report no drift. The operations to cover are read
// from the contract lists: a new route fails the first until the tour has a step for it.

export const ROUTES: readonly { route: RouteContract; api: boolean }[] = [
  ...apiContracts.map((route) => ({ route, api: true })),
  ...controlContracts.map((route) => ({ route, api: false })),
];

/**
 * What the control guard alone answers (401 with `--control-token`, 403 to a webhook delivery, another origin or a
 * foreign Host, 415 to a body that is not JSON): the causes the
 * document gives a control route with nothing of its own. The guard runs before the route, so its answers are
 * not checked, and an operation whose only errors are the guard's needs no error in the tour.
 */
const guardCauses = (method: 'get' | 'post') =>
  failures(
    {
      operationId: 'guard',
      method,
      path: '/',
      summary: '',
      tag: '',
      auth: { scheme: 'none' },
      responses: {},
    },
    false,
  );
/** The guard's causes for a read and for a call that changes state (which may also be refused its body). */
const GUARD_CAUSES = new Map([...guardCauses('get'), ...guardCauses('post')]);

/** Whether the document gives the operation an error status for a cause of its own, not only the guard's. */
export function documentsOwnError(route: RouteContract, api: boolean): boolean {
  for (const [status, causes] of failures(route, api)) {
    if (status >= 400 && causes.some((cause) => !GUARD_CAUSES.get(status)?.includes(cause))) return true;
  }
  return false;
}

/** A 1x1 PNG's signature and IHDR chunk: what registration's photoId check reads. */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
]);
const STATE_ID = states[0]?.id ?? '';
const VIEWER_ROLE = roles.find((r) => r.name === 'Viewer')?.id ?? '';
/** An id no record has, in the form of one. */
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
const FAILING_ACCOUNT = '0000000051';
const INVITED = 'newcomer@adebayo.test';

const transferBody = (retrievalReference: string, receiverAccountNumber = '0123456789') => ({
  amount: 150000,
  receiverAccountNumber,
  receiverBankCode: '058',
  retrievalReference,
  narration: 'Invoice 2026-0001',
});

/** What the steps share: the sandbox, the callers' headers, and the ids earlier steps made. */
export interface Tour {
  /** The world the tour runs in: the root, or an isolated sandbox of `root`. */
  sandbox: Sandbox;
  /** The root of the process: where isolated sandboxes are made, listed and deleted. */
  root: Sandbox;
  /** Client A's owner (Admin), Manager and Viewer, on business A1; the owner without `businessId`. */
  owner: Record<string, string>;
  ownerNoBusiness: Record<string, string>;
  manager: Record<string, string>;
  viewer: Record<string, string>;
  /** Client A's key pair on A1 (scheme B). */
  keys: Record<string, string>;
  kept: Map<string, string>;
}

type Options = Parameters<typeof call>[3];
type Body = Awaited<ReturnType<typeof call>>['body'];

/** Calls `path` and expects `status`; answers the body. */
async function expectCall(t: Tour, status: number, method: string, path: string, options?: Options) {
  const res = await call(t.sandbox, method, path, options);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}
const api = (t: Tour, status: number, method: string, path: string, options?: Options) =>
  expectCall(t, status, method, `/api/v1${path}`, options);
const control = (t: Tour, status: number, method: string, path: string, options?: Options) =>
  expectCall(t, status, method, `/__sandbox${path}`, options);

/** The tour at the root of the process, for the operations of the isolated sandboxes' registry, which lives there. */
const atRoot = (t: Tour): Tour => (t.sandbox === t.root ? t : { ...t, sandbox: t.root });

/** `data` of an answer, as an object. */
const dataOf = (body: Body) => body.data as Record<string, unknown>;
/** The first item of a page. */
function firstOf(body: Body): Record<string, unknown> {
  const [first] = body.data as Record<string, unknown>[];
  if (!first) throw new Error(`an empty page: ${JSON.stringify(body)}`);
  return first;
}

function keep(t: Tour, name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '')
    throw new Error(`${name}: not an id: ${JSON.stringify(value)}`);
  t.kept.set(name, value);
}
function kept(t: Tour, name: string): string {
  const value = t.kept.get(name);
  if (value === undefined) throw new Error(`no ${name}: the step that makes it has not run`);
  return value;
}

/** Registration's multipart form for business A2. */
function registrationForm(): FormData {
  const form = new FormData();
  const fields = {
    businessId: A.a2.id,
    bvn: '22233344455',
    residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
    stateId: STATE_ID,
    otp: '123456',
    password: A.owner.password,
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('photoId', new File([PNG], 'id.png', { type: 'image/png' }));
  return form;
}

type Step = (t: Tour) => Promise<void>;

/**
 * One step per operation, run in this order: each calls its operation for a success and, where the operation
 * can give one in process, an error, on the state the steps before it made.
 */
export const tour: Record<string, Step> = {
  // ------------------------------------------------------------------ the bank's API: settings and members
  signIn: async (t) => {
    await api(t, 200, 'POST', '/auth/signin', { body: { email: A.owner.email, password: A.owner.password } });
    await api(t, 401, 'POST', '/auth/signin', {
      body: { email: A.owner.email, password: 'not-the-password' },
    });
  },
  getApiKeys: async (t) => {
    await api(t, 200, 'GET', '/clients/settings/get-keys', { headers: t.owner });
    await api(t, 403, 'GET', '/clients/settings/get-keys', { headers: t.manager });
  },
  listBillers: async (t) => {
    await api(t, 200, 'GET', '/clients/settings/billers', { headers: t.owner });
    await api(t, 401, 'GET', '/clients/settings/billers');
  },
  configureBillers: async (t) => {
    const path = '/clients/settings/configure-billers';
    await api(t, 200, 'POST', path, { headers: t.owner, body: { billers: ['044', '058'] } });
    await api(t, 400, 'POST', path, { headers: t.owner, body: { billers: ['999'] } });
  },
  listMemberRoles: async (t) => {
    await api(t, 200, 'GET', '/clients/members/roles', { headers: t.owner });
    await api(t, 401, 'GET', '/clients/members/roles', {
      headers: schemeA('not-a-token', A.secretKey, A.a1.id),
    });
  },
  listMembers: async (t) => {
    await api(t, 200, 'GET', '/clients/members', { headers: t.viewer });
    await api(t, 400, 'GET', '/clients/members?limit=0', { headers: t.viewer });
  },
  inviteMember: async (t) => {
    const body = { email: INVITED, memberRoleId: VIEWER_ROLE };
    await api(t, 201, 'POST', '/clients/members', { headers: t.owner, body });
    await api(t, 403, 'POST', '/clients/members', {
      headers: t.manager,
      body: { ...body, email: 'x@adebayo.test' },
    });
  },
  completeMemberRegistration: async (t) => {
    const outbox = await control(t, 200, 'GET', `/outbox?type=member_invitation&to=${INVITED}`);
    const data = firstOf(outbox).data as { authorizationToken?: string };
    const body = {
      authorizationToken: data.authorizationToken,
      firstName: 'Chidi',
      lastName: 'Eze',
      phoneNo: '+2348031234567',
      password: 'long-password',
    };
    const path = '/clients/members/complete-registration';
    await api(t, 401, 'PATCH', path, { headers: { SECRET_KEY: 'sk_test_not-a-key' }, body });
    await api(t, 200, 'PATCH', path, { headers: { SECRET_KEY: A.secretKey }, body });
  },
  updateMember: async (t) => {
    const members = await api(t, 200, 'GET', '/clients/members?limit=100', { headers: t.owner });
    const invited = (members.data as { id: string; email: string }[]).find((m) => m.email === INVITED);
    const path = `/clients/members/${invited?.id ?? UNKNOWN_ID}`;
    // The docs' example body: `{}`, which changes nothing.
    await api(t, 200, 'PATCH', path, { headers: t.owner, body: {} });
    await api(t, 200, 'PATCH', path, { headers: t.owner, body: { phoneNo: '+2348039999999' } });
    await api(t, 404, 'PATCH', `/clients/members/${UNKNOWN_ID}`, { headers: t.owner, body: {} });
  },

  // ------------------------------------------------------------------ businesses
  listBusinesses: async (t) => {
    await api(t, 200, 'GET', '/clients/business', { headers: t.owner });
    await api(t, 400, 'GET', '/clients/business?page=0', { headers: t.owner });
  },
  createBusiness: async (t) => {
    // The docs: `Authorization` and `SECRET_KEY` only, all three fields required.
    const body = { businessName: 'Adebayo Farms', countryId: 'NG', isNewBusiness: true };
    await api(t, 201, 'POST', '/clients/business', { headers: t.ownerNoBusiness, body });
    await api(t, 409, 'POST', '/clients/business', { headers: t.ownerNoBusiness, body });
    await api(t, 400, 'POST', '/clients/business', {
      headers: t.ownerNoBusiness,
      body: { businessName: 'Adebayo Fisheries' },
    });
  },
  validateBvn: async (t) => {
    const path = '/clients/business/validate-bvn';
    await api(t, 200, 'POST', path, {
      headers: t.ownerNoBusiness,
      body: { bvn: '12345678901', businessId: A.a2.id },
    });
    await api(t, 400, 'POST', path, {
      headers: t.ownerNoBusiness,
      body: { bvn: '00000000000', businessId: A.a2.id },
    });
    await api(t, 404, 'POST', path, {
      headers: t.ownerNoBusiness,
      body: { bvn: '12345678901', businessId: B.b1.id },
    });
  },
  getBusinessDetails: async (t) => {
    await api(t, 200, 'GET', '/clients/business/details', { headers: t.owner });
    const other = schemeA(await tokenFor(t.sandbox, A.owner), A.secretKey, B.b1.id);
    await api(t, 401, 'GET', '/clients/business/details', { headers: other });
  },
  getAccountDetails: async (t) => {
    await api(t, 200, 'GET', '/clients/business/account-details', { headers: t.owner });
    const unapproved = schemeA(await tokenFor(t.sandbox, A.owner), A.secretKey, A.a2.id);
    await api(t, 400, 'GET', '/clients/business/account-details', { headers: unapproved });
  },
  listCustomers: async (t) => {
    await api(t, 200, 'GET', '/clients/business/customers', { headers: t.owner });
    // A standard header: missing, 401 like any missing credential.
    await api(t, 401, 'GET', '/clients/business/customers', { headers: t.ownerNoBusiness });
  },
  completeBusinessRegistration: async (t) => {
    const path = '/api/v1/clients/business/complete-registration';
    const res = await t.sandbox.app.request(path, {
      method: 'PATCH',
      headers: t.ownerNoBusiness,
      body: registrationForm(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await api(t, 415, 'PATCH', '/clients/business/complete-registration', {
      headers: t.ownerNoBusiness,
      body: { businessId: A.a2.id },
    });
  },

  // ------------------------------------------------------------------ money out, disputes, payouts
  transfer: async (t) => {
    const path = '/clients/business/customers/funds/transfer';
    await api(t, 200, 'POST', path, { headers: t.owner, body: transferBody('tour-transfer') });
    keep(t, 'transaction', (await transferEntry(t.sandbox, 'tour-transfer')).id);
    await api(t, 400, 'POST', path, {
      headers: t.owner,
      body: transferBody('tour-failing', FAILING_ACCOUNT),
    });
  },
  anonymousTransfer: async (t) => {
    const path = '/clients/business/customers/funds/anonymous-transfer';
    await api(t, 200, 'POST', path, { headers: t.owner, body: transferBody('tour-anonymous') });
    keep(t, 'anonymous transaction', (await transferEntry(t.sandbox, 'tour-anonymous')).id);
    await api(t, 409, 'POST', path, {
      headers: t.owner,
      body: { ...transferBody('tour-anonymous'), amount: 250000 },
    });
  },
  createDispute: async (t) => {
    const path = '/clients/business/disputes';
    const description = 'The receiver says nothing arrived.';
    for (const [name, transaction] of [
      ['dispute', 'transaction'],
      ['second dispute', 'anonymous transaction'],
    ] as const) {
      const body = { transactionId: kept(t, transaction), description };
      // The answer carries no data, as the docs show: the dispute is found in the list.
      await api(t, 201, 'POST', path, { headers: t.owner, body });
      const listed = await api(t, 200, 'GET', `${path}?transactionId=${body.transactionId}`, {
        headers: t.owner,
      });
      keep(t, name, firstOf(listed).id);
    }
    const again = { transactionId: kept(t, 'transaction'), description };
    await api(t, 409, 'POST', path, { headers: t.owner, body: again });
  },
  listDisputes: async (t) => {
    await api(t, 200, 'GET', '/clients/business/disputes?status=open', { headers: t.owner });
    await api(t, 400, 'GET', '/clients/business/disputes?page=0', { headers: t.owner });
  },
  getDispute: async (t) => {
    await api(t, 200, 'GET', `/clients/business/disputes/${kept(t, 'dispute')}`, { headers: t.owner });
    await api(t, 404, 'GET', `/clients/business/disputes/${UNKNOWN_ID}`, { headers: t.owner });
  },
  listPayoutAccounts: async (t) => {
    await api(t, 200, 'GET', '/clients/business/payouts', { headers: t.owner });
    await api(t, 400, 'GET', '/clients/business/payouts?limit=0', { headers: t.owner });
  },
  createPayoutAccount: async (t) => {
    const body = {
      accountName: 'Adebayo Foods Ltd',
      accountNumber: '0123456789',
      bankName: 'Guaranty Trust Bank',
      bankCode: '058',
    };
    await api(t, 201, 'POST', '/clients/business/payouts', { headers: t.owner, body });
    // The answer carries no data, as the docs show: the account is found in the list.
    keep(
      t,
      'payout',
      firstOf(await api(t, 200, 'GET', '/clients/business/payouts', { headers: t.owner })).id,
    );
    await api(t, 409, 'POST', '/clients/business/payouts', { headers: t.owner, body });
  },
  updatePayoutAccount: async (t) => {
    const body = {
      accountName: 'Adebayo Foods Payroll',
      accountNumber: '0123456780',
      bankName: 'Access Bank',
      bankCode: '044',
    };
    await api(t, 200, 'PUT', `/clients/business/payouts/${kept(t, 'payout')}`, { headers: t.owner, body });
    await api(t, 403, 'PUT', `/clients/business/payouts/${kept(t, 'payout')}`, { headers: t.viewer, body });
  },
  deletePayoutAccount: async (t) => {
    const path = `/clients/business/payouts/${kept(t, 'payout')}`;
    await api(t, 200, 'DELETE', path, { headers: t.owner });
    await api(t, 404, 'DELETE', path, { headers: t.owner });
  },
  createVirtualAccount: async (t) => {
    const body = { firstName: 'Chidi', lastName: 'Eze', type: 'permanent', reference: 'va-ref-1' };
    const made = await api(t, 201, 'POST', '/clients/business/virtual-accounts', { headers: t.owner, body });
    keep(t, 'virtual account', dataOf(made).accountNumber);
    await api(t, 409, 'POST', '/clients/business/virtual-accounts', { headers: t.owner, body });
  },
  createSingleUseVirtualAccount: async (t) => {
    const path = '/clients/business/virtual-accounts/single-use';
    const body = { firstName: 'Ada', lastName: 'Obi', refCode: 'order-1', amount: 500000, duration: 3600 };
    keep(
      t,
      'single-use account',
      dataOf(await api(t, 201, 'POST', path, { headers: t.owner, body })).accountNumber,
    );
    await api(t, 409, 'POST', path, { headers: t.owner, body });
  },
  listSuspenseTransactions: async (t) => {
    await api(t, 200, 'GET', '/clients/business/virtual-account', { headers: t.viewer });
    await api(t, 400, 'GET', '/clients/business/virtual-account?limit=0', { headers: t.viewer });
  },
  createSubscription: async (t) => {
    const body = { amount: '500000', packageName: 'Tour Plan', interval: 'monthly' };
    await api(t, 201, 'POST', '/clients/business/subscriptions', { headers: t.owner, body });
    await api(t, 403, 'POST', '/clients/business/subscriptions', { headers: t.viewer, body });
    await api(t, 400, 'POST', '/clients/business/subscriptions', {
      headers: t.owner,
      body: { packageName: 'No amount' },
    });
  },
  listSubscriptions: async (t) => {
    await api(t, 200, 'GET', '/clients/business/subscriptions?interval=monthly', { headers: t.viewer });
    await api(t, 400, 'GET', '/clients/business/subscriptions?page=0', { headers: t.viewer });
  },

  // ------------------------------------------------------------------ bulk transfers (scheme B)
  createBulkTransfer: async (t) => {
    const path = '/clients/business/customers/funds/bulk-transfer';
    const body = {
      batchName: 'Payroll November',
      transfers: [transferBody('tour-bulk-1'), transferBody('tour-bulk-2', FAILING_ACCOUNT)],
    };
    keep(t, 'batch', dataOf(await api(t, 201, 'POST', path, { headers: t.keys, body })).id);
    await api(t, 400, 'POST', path, { headers: schemeB(A.publicKey, A.secretKey), body });
  },
  listBulkTransfers: async (t) => {
    await api(t, 200, 'GET', '/clients/business/customers/funds/bulk-transfer', { headers: t.keys });
    await api(t, 401, 'GET', '/clients/business/customers/funds/bulk-transfer', {
      headers: schemeB(A.publicKey, B.secretKey, A.a1.id),
    });
  },
  getBulkTransfer: async (t) => {
    const path = `/clients/business/customers/funds/bulk-transfer/${kept(t, 'batch')}`;
    await api(t, 200, 'GET', path, { headers: t.keys });
    await api(t, 401, 'GET', path, { headers: schemeB(A.publicKey, A.secretKey) });
  },
  processBulkTransfer: async (t) => {
    const path = '/clients/business/customers/funds/bulk-transfer/process';
    await api(t, 202, 'POST', path, { headers: t.keys, body: { bulkTransferId: kept(t, 'batch') } });
    await api(t, 404, 'POST', path, { headers: t.keys, body: { bulkTransferId: UNKNOWN_ID } });
    await t.sandbox.drain();
  },
  reprocessBulkTransfer: async (t) => {
    const path = '/clients/business/customers/funds/bulk-transfer/reprocess';
    await api(t, 202, 'POST', path, { headers: t.keys, body: { bulkTransferId: kept(t, 'batch') } });
    await api(t, 400, 'POST', path, { headers: t.keys, body: { bulkTransferId: 'not-a-uuid' } });
    await t.sandbox.drain();
  },

  // ------------------------------------------------------------------ the audit log
  listAuditLogs: async (t) => {
    keep(t, 'audit', firstOf(await api(t, 200, 'GET', '/clients/business/audits', { headers: t.owner })).id);
    await api(t, 400, 'GET', '/clients/business/audits?page=x', { headers: t.owner });
  },
  getAuditLog: async (t) => {
    await api(t, 200, 'GET', `/clients/business/audits/${kept(t, 'audit')}`, { headers: t.owner });
    await api(t, 404, 'GET', `/clients/business/audits/${UNKNOWN_ID}`, { headers: t.owner });
  },

  // ------------------------------------------------------------------ the control API: the sandbox itself
  health: async (t) => {
    await control(t, 200, 'GET', '/health');
  },
  metrics: async (t) => {
    await control(t, 200, 'GET', '/metrics');
    await control(t, 400, 'GET', '/metrics?gc=maybe');
  },
  openapiControl: async (t) => {
    await control(t, 200, 'GET', '/openapi.json');
  },
  createSandbox: async (t) => {
    const body = { id: 'tour-world', seed: 7, scenario: 'happy-path', clock: '2026-01-15T09:00:00.000Z' };
    await control(atRoot(t), 201, 'POST', '/sandboxes', { body });
    await control(atRoot(t), 409, 'POST', '/sandboxes', { body: { id: 'tour-world' } });
    await control(atRoot(t), 400, 'POST', '/sandboxes', { body: { id: 'Not An Id' } });
    // Inside an isolated sandbox, none is made.
    await expectCall(atRoot(t), 404, 'POST', '/sandboxes/tour-world/__sandbox/sandboxes', { body: {} });
    if (t.sandbox !== t.root) await control(t, 404, 'POST', '/sandboxes', { body: {} });
  },
  listSandboxes: async (t) => {
    await control(atRoot(t), 200, 'GET', '/sandboxes');
    await expectCall(atRoot(t), 404, 'GET', '/sandboxes/tour-world/__sandbox/sandboxes');
    if (t.sandbox !== t.root) await control(t, 404, 'GET', '/sandboxes');
  },
  deleteSandbox: async (t) => {
    if (t.sandbox !== t.root) await control(t, 404, 'DELETE', '/sandboxes/tour-world');
    await control(atRoot(t), 200, 'DELETE', '/sandboxes/tour-world');
    await control(atRoot(t), 404, 'DELETE', '/sandboxes/tour-world');
  },
  credentials: async (t) => {
    await control(t, 200, 'GET', '/credentials');
    await control(t, 400, 'GET', '/credentials?limit=1001');
  },
  dashboard: async (t) => {
    const res = await t.sandbox.app.request('/__sandbox/ui');
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^<!doctype html>/);
    await control(t, 400, 'GET', '/ui?unfold=yes');
  },
  dashboardEvents: async (t) => {
    const res = await t.sandbox.app.request('/__sandbox/ui/events');
    expect(res.status).toBe(200);
    // The stream never ends by itself: the answer was checked when it was sent, nothing of it needs reading.
    await res.body?.cancel();
  },
  createClient: async (t) => {
    const body = { name: 'Worker 1', balance: 500000000, members: ['Manager', 'Viewer'] };
    keep(t, 'client', dataOf(await control(t, 201, 'POST', '/clients', { body })).clientId);
    await control(t, 400, 'POST', '/clients', { body: { members: ['Boss'] } });
  },
  rotateSecret: async (t) => {
    await control(t, 200, 'POST', `/clients/${kept(t, 'client')}/rotate-secret`);
    await control(t, 404, 'POST', `/clients/${UNKNOWN_ID}/rotate-secret`);
  },

  // ------------------------------------------------------------------ money and businesses
  setBalance: async (t) => {
    await control(t, 200, 'PUT', `/businesses/${A.a1.id}/balance`, { body: { balance: 100000000 } });
    await control(t, 404, 'PUT', `/businesses/${UNKNOWN_ID}/balance`, { body: { balance: 100000000 } });
  },
  approveBusiness: async (t) => {
    await control(t, 200, 'POST', `/businesses/${A.a2.id}/approve`);
    await control(t, 404, 'POST', `/businesses/${UNKNOWN_ID}/approve`);
  },
  ledger: async (t) => {
    await control(t, 200, 'GET', `/businesses/${A.a1.id}/ledger?retrievalReference=tour-transfer`);
    await control(t, 404, 'GET', `/businesses/${UNKNOWN_ID}/ledger`);
  },
  accountNumbers: async (t) => {
    await control(t, 200, 'GET', '/account-numbers?bankCode=058&count=2');
    await control(t, 400, 'GET', '/account-numbers?bankCode=999');
  },
  addSubscription: async (t) => {
    const body = { packageName: 'Team Plan', amount: 750000, interval: 'monthly' };
    await control(t, 201, 'POST', `/businesses/${A.a1.id}/subscriptions`, { body });
    await control(t, 404, 'POST', `/businesses/${UNKNOWN_ID}/subscriptions`, { body });
  },
  resolveDispute: async (t) => {
    await control(t, 200, 'POST', `/disputes/${kept(t, 'dispute')}/resolve`);
    await control(t, 409, 'POST', `/disputes/${kept(t, 'dispute')}/resolve`);
  },
  rejectDispute: async (t) => {
    await control(t, 200, 'POST', `/disputes/${kept(t, 'second dispute')}/reject`);
    await control(t, 404, 'POST', `/disputes/${UNKNOWN_ID}/reject`);
  },
  outbox: async (t) => {
    await control(t, 200, 'GET', '/outbox?type=bvn_otp');
    await control(t, 400, 'GET', '/outbox?type=postcard');
  },

  // ------------------------------------------------------------------ batches seen from the control API
  listBatches: async (t) => {
    await control(t, 200, 'GET', `/bulk-transfers?clientId=${A.id}`);
    await control(t, 400, 'GET', '/bulk-transfers?status=lost');
  },
  getBatch: async (t) => {
    await control(t, 200, 'GET', `/bulk-transfers/${kept(t, 'batch')}`);
    await control(t, 404, 'GET', `/bulk-transfers/${UNKNOWN_ID}`);
  },
  reprocessBatch: async (t) => {
    // The item to the failing account failed again when the bank's API reprocessed it.
    await control(t, 202, 'POST', `/bulk-transfers/${kept(t, 'batch')}/reprocess`, { body: {} });
    await control(t, 404, 'POST', `/bulk-transfers/${UNKNOWN_ID}/reprocess`, { body: {} });
  },
  drain: async (t) => {
    await control(t, 200, 'POST', '/drain');
    await control(t, 400, 'POST', '/drain?timeoutMs=0');
  },

  // ------------------------------------------------------------------ incoming payments and webhooks
  incomingPayment: async (t) => {
    const body = { accountNumber: kept(t, 'virtual account'), amount: 500000, accountName: 'Tunde Bakare' };
    // Client A has no webhook URL yet: the delivery is made, and skipped.
    const received = dataOf(await control(t, 201, 'POST', '/incoming-payments', { body }));
    keep(t, 'delivery', received.deliveryId);
    keep(t, 'payment', received.transactionReference);
    await control(t, 404, 'POST', '/incoming-payments', { body: { ...body, accountNumber: '9999999999' } });
    // A single-use account takes exactly its reserved amount, once.
    const single = { accountNumber: kept(t, 'single-use account'), amount: 499999 };
    await control(t, 409, 'POST', '/incoming-payments', { body: single });
    await control(t, 201, 'POST', '/incoming-payments', { body: { ...single, amount: 500000 } });
    await control(t, 409, 'POST', '/incoming-payments', { body: { ...single, amount: 500000 } });
  },
  refundPayment: async (t) => {
    await control(t, 200, 'POST', `/incoming-payments/${kept(t, 'payment')}/refund`, { body: {} });
    await control(t, 409, 'POST', `/incoming-payments/${kept(t, 'payment')}/refund`, { body: {} });
    await control(t, 404, 'POST', '/incoming-payments/SBX000/refund', { body: {} });
  },
  reverseTransfer: async (t) => {
    const path = `/businesses/${A.a1.id}/transfers/tour-transfer/reverse`;
    await control(t, 200, 'POST', path, { body: { reason: 'Beneficiary account closed' } });
    await control(t, 409, 'POST', path, { body: {} });
    await control(t, 404, 'POST', `/businesses/${A.a1.id}/transfers/no-such-reference/reverse`, { body: {} });
    await control(t, 400, 'POST', path, { body: { reason: '' } });
  },
  listVirtualAccounts: async (t) => {
    await control(t, 200, 'GET', '/virtual-accounts');
    await control(t, 400, 'GET', '/virtual-accounts?limit=0');
  },
  listDeliveries: async (t) => {
    await control(t, 200, 'GET', `/webhooks/deliveries?clientId=${A.id}`);
    await control(t, 400, 'GET', '/webhooks/deliveries?status=lost');
  },
  getDelivery: async (t) => {
    await control(t, 200, 'GET', `/webhooks/deliveries/${kept(t, 'delivery')}`);
    await control(t, 404, 'GET', `/webhooks/deliveries/${UNKNOWN_ID}`);
  },
  updateWebhookUrl: async (t) => {
    const path = '/clients/settings/update-webhook-url';
    await api(t, 400, 'PATCH', path, {
      headers: t.owner,
      body: { webhookUrl: 'ftp://hooks.example' },
    });
    await api(t, 200, 'PATCH', path, {
      headers: t.owner,
      body: { webhookUrl: 'http://localhost:3000/hooks/bank' },
    });
  },
  addScenarioRules: async (t) => {
    // Every webhook attempt is lost without a request: the redelivery below goes nowhere.
    const rules = [{ on: 'webhook', match: {}, effect: { webhook: 'drop' } }];
    await control(t, 200, 'POST', '/scenario/rules', { body: { rules } });
    await control(t, 400, 'POST', '/scenario/rules', { body: { rules: [{ on: 'postcard' }] } });
  },
  redeliver: async (t) => {
    await control(t, 200, 'POST', `/webhooks/deliveries/${kept(t, 'delivery')}/redeliver`);
    await control(t, 404, 'POST', `/webhooks/deliveries/${UNKNOWN_ID}/redeliver`);
    await t.sandbox.drain();
  },
  requests: async (t) => {
    const page = await control(t, 200, 'GET', '/requests?limit=5&status=2xx');
    keep(t, 'request', firstOf(page).id);
    await control(t, 400, 'GET', '/requests?limit=0');
    await control(t, 400, 'GET', '/requests?status=2x');
  },
  searchRequests: async (t) => {
    const path = '/api/v1/clients/business/customers/funds/transfer';
    await control(t, 200, 'POST', '/requests/search', { body: { method: 'post', path, body: {} } });
    await control(t, 400, 'POST', '/requests/search', { body: { status: 'teapot' } });
  },
  verifyRequests: async (t) => {
    const path = '/api/v1/clients/business/customers/funds/transfer';
    await control(t, 200, 'POST', '/requests/verify', { body: { method: 'POST', path, atLeast: 1 } });
    await control(t, 409, 'POST', '/requests/verify', { body: { method: 'DELETE', path } });
    await control(t, 400, 'POST', '/requests/verify', { body: { exactly: 1, atMost: 2 } });
  },
  requestsHar: async (t) => {
    await control(t, 200, 'GET', '/requests.har?method=POST');
    await control(t, 400, 'GET', '/requests.har?status=6xx');
  },
  getRequest: async (t) => {
    await control(t, 200, 'GET', `/requests/${kept(t, 'request')}`);
    await control(t, 404, 'GET', '/requests/999999999');
  },
  clearRequests: async (t) => {
    await control(t, 200, 'DELETE', '/requests');
  },
  drift: async (t) => {
    await control(t, 200, 'GET', '/drift');
  },
  clearDrift: async (t) => {
    await control(t, 200, 'DELETE', '/drift');
  },

  // ------------------------------------------------------------------ the clock and the scenario
  getClock: async (t) => {
    await control(t, 200, 'GET', '/clock');
  },
  freezeClock: async (t) => {
    await control(t, 200, 'POST', '/clock/freeze', { body: { frozen: true } });
    await control(t, 400, 'POST', '/clock/freeze', { body: { frozen: 'yes' } });
  },
  advanceClock: async (t) => {
    await control(t, 200, 'POST', '/clock/advance', { body: { ms: 1000 } });
    await control(t, 400, 'POST', '/clock/advance', { body: { ms: 0 } });
    await control(t, 200, 'POST', '/clock/freeze', { body: { frozen: false } });
  },
  getScenario: async (t) => {
    await control(t, 200, 'GET', '/scenario');
  },
  listScenarios: async (t) => {
    await control(t, 200, 'GET', '/scenarios');
  },
  setScenario: async (t) => {
    await control(t, 200, 'PUT', '/scenario', { body: { name: 'happy-path' } });
    await control(t, 404, 'PUT', '/scenario', { body: { name: 'no-such-scenario' } });
  },
  resetScenario: async (t) => {
    await control(t, 200, 'DELETE', '/scenario');
  },

  // ------------------------------------------------------------------ the whole state
  exportState: async (t) => {
    const res = await t.sandbox.app.request('/__sandbox/state');
    expect(res.status).toBe(200);
    t.kept.set('state', await res.text());
  },
  importState: async (t) => {
    const headers = { 'content-type': 'application/json' };
    await control(t, 200, 'PUT', '/state', { headers, body: kept(t, 'state') });
    await control(t, 400, 'PUT', '/state', { headers, body: '{"clients": 7}' });
  },
  reset: async (t) => {
    await control(t, 400, 'POST', '/reset?keep=everything');
    await control(t, 200, 'POST', '/reset?keep=requests');
    await control(t, 200, 'POST', '/reset');
  },
};

/**
 * The tour's callers signed in on `sandbox`, a world of `root` (the root itself unless it is an isolated sandbox of
 * it), with nothing kept yet.
 */
export async function startTour(sandbox: Sandbox, root: Sandbox = sandbox): Promise<Tour> {
  const owner = await tokenFor(sandbox, A.owner);
  const manager = await tokenFor(sandbox, A.manager);
  const viewer = await tokenFor(sandbox, A.viewer);
  return {
    sandbox,
    root,
    owner: schemeA(owner, A.secretKey, A.a1.id),
    ownerNoBusiness: schemeA(owner, A.secretKey),
    manager: schemeA(manager, A.secretKey, A.a1.id),
    viewer: schemeA(viewer, A.secretKey, A.a1.id),
    keys: schemeB(A.publicKey, A.secretKey, A.a1.id),
    kept: new Map(),
  };
}

/** Runs every step in order; a failing step is named in the error. */
export async function runTour(t: Tour): Promise<void> {
  for (const [operationId, step] of Object.entries(tour)) {
    try {
      await step(t);
    } catch (error) {
      throw new Error(`tour step ${operationId}: ${error instanceof Error ? error.message : error}`, {
        cause: error,
      });
    }
  }
}
