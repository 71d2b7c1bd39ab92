import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import states from '../../../fixtures/states.json' with { type: 'json' };
import { auditEntry } from '../../../src/contract/api/audits.js';
import { bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { customer } from '../../../src/contract/api/business.js';
import { dispute } from '../../../src/contract/api/disputes.js';
import { apiContracts } from '../../../src/contract/api/index.js';
import { payoutAccount } from '../../../src/contract/api/payouts.js';
import { controlContracts } from '../../../src/contract/control/index.js';
import { MAX_TEXT } from '../../../src/domain/fields.js';
import { BEARER_REQUIRED, TOKEN_REQUIRED } from '../../../src/http/auth.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { BANK, BULK, keysA1, RECEIVER } from '../../support/bulk.js';
import { transferEntry } from '../../support/money.js';
import { A, call, memorySandbox, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

// The sandbox takes what the bank takes. Each rule the bank does not state, removed, with the value a
// production request may carry; the Bearer scheme in any case; ids in any case; messages in the sandbox's words;
// `businessDocuments[]`; 405 with `Allow`.

const API = '/api/v1';
const FUNDS = `${API}/clients/business/customers/funds`;
const PAYOUTS = `${API}/clients/business/payouts`;
const DISPUTES = `${API}/clients/business/disputes`;
const AUDITS = `${API}/clients/business/audits`;
const REGISTRATION = `${API}/clients/business/complete-registration`;
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
]);

const sandbox = useSandbox();
let token: string;
let owner: Record<string, string>;
let refs = 0;
const reference = () => `fidelity-${++refs}`;

beforeAll(async () => {
  token = await tokenFor(sandbox, A.owner);
  owner = schemeA(token, A.secretKey, A.a1.id);
});

const transfer = (body: Record<string, unknown> = {}) =>
  call(sandbox, 'POST', `${FUNDS}/transfer`, {
    headers: owner,
    body: {
      amount: 10_000,
      receiverAccountNumber: RECEIVER,
      receiverBankCode: BANK,
      retrievalReference: reference(),
      narration: 'Invoice 42',
      ...body,
    },
  });

/** A transfer made now: its transaction reference (read from its ledger entry), the id a dispute names. */
async function transactionId(): Promise<string> {
  const retrievalReference = reference();
  const res = await transfer({ retrievalReference });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (await transferEntry(sandbox, retrievalReference)).id;
}

function registrationForm(values: Record<string, string>, documentsField?: string): FormData {
  const data = new FormData();
  const fields = {
    businessId: A.a2.id,
    bvn: '22233344455',
    residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
    stateId: states[0]?.id ?? '',
    otp: '123456',
    password: A.owner.password,
    ...values,
  };
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append('photoId', new File([PNG], 'id.png', { type: 'image/png' }));
  if (documentsField) {
    data.append(documentsField, new File(['first'], 'cac.pdf'));
    data.append(documentsField, new File(['second'], 'memart.pdf'));
  }
  return data;
}

async function register(form: FormData) {
  const res = await sandbox.app.request(REGISTRATION, {
    method: 'PATCH',
    headers: schemeA(token, A.secretKey),
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('rules the bank does not state are gone', () => {
  it('a dispute description of one character', async () => {
    const tx = await transactionId();
    const res = await call(sandbox, 'POST', DISPUTES, {
      headers: owner,
      body: { transactionId: tx, description: '?' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const listed = await call(sandbox, 'GET', `${DISPUTES}?transactionId=${tx}`, { headers: owner });
    expect(pageOf(listed, dispute).data.map((d) => d.description)).toEqual(['?']);
  });

  it('a payout accountName (and bankName) of one character', async () => {
    const res = await call(sandbox, 'POST', PAYOUTS, {
      headers: owner,
      body: { accountName: 'O', accountNumber: '0123456784', bankName: 'K', bankCode: BANK },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('a narration, a retrievalReference and a batchName far past the old 200, 64 and 100 characters', async () => {
    const res = await transfer({ narration: 'n'.repeat(1000), retrievalReference: `r-${'x'.repeat(300)}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const batch = await call(sandbox, 'POST', BULK, {
      headers: keysA1,
      body: {
        batchName: 'Payroll '.repeat(100),
        transfers: [
          {
            amount: 10_000,
            receiverAccountNumber: RECEIVER,
            receiverBankCode: BANK,
            retrievalReference: `b-${'y'.repeat(300)}`,
            narration: 'z'.repeat(1000),
          },
        ],
      },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  });

  it(`keeps a protective limit of ${MAX_TEXT} characters on text, and says so in its own words`, async () => {
    const res = await transfer({ narration: 'n'.repeat(MAX_TEXT + 1) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`narration is invalid: must be at most ${MAX_TEXT} characters`);
    expect((await transfer({ narration: 'n'.repeat(MAX_TEXT) })).status).toBe(200);
  });

  it('a list limit past the old 100: limit=101 and limit=1000 give the whole list on one page', async () => {
    const customers = `${API}/clients/business/customers`;
    const all = await call(sandbox, 'GET', `${customers}?limit=1000`, { headers: owner });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const page = pageOf(all, customer);
    expect(page.data.length).toBeGreaterThanOrEqual(25);
    expect(page.data).toHaveLength(page.pagination.totalCount);
    expect(page.pagination).toMatchObject({ limit: 1000, lastPage: 1, hasNextPage: false, nextPage: 0 });
    const justPast = await call(sandbox, 'GET', `${customers}?limit=101`, { headers: owner });
    expect(justPast.status).toBe(200);
    expect(pageOf(justPast, customer).pagination).toMatchObject({ limit: 101, lastPage: 1 });
  });

  it('a residentialAddress of four characters', async () => {
    const res = await register(registrationForm({ residentialAddress: 'Yaba' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('an otp that is not numeric is a wrong OTP (400 Invalid OTP), not a validation failure', async () => {
    const res = await register(registrationForm({ otp: 'ABC-123' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid OTP');
    expect(res.body.errors).toBeUndefined();
  });
  // businessName, member password and phoneNo: business.test.ts and members.invite.test.ts.
});

describe('the Bearer scheme word in any case (RFC 7235)', () => {
  const details = (authorization: string) =>
    call(sandbox, 'GET', `${API}/clients/business/account-details`, {
      headers: { ...owner, authorization },
    });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts %s', async (scheme) => {
    expect((await details(`${scheme} ${token}`)).status).toBe(200);
  });

  it('says what is wrong with a missing or garbled scheme', async () => {
    for (const [authorization, message] of [
      [token, BEARER_REQUIRED],
      [`Basic ${token}`, BEARER_REQUIRED],
      [`Bearer${token}`, BEARER_REQUIRED],
      ['Bearer', TOKEN_REQUIRED],
      ['Bearer   ', TOKEN_REQUIRED],
    ] as const) {
      const res = await details(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.body.message, authorization).toBe(message);
    }
  });
});

describe('ids in any case', () => {
  it('an upper-cased batch id, in the path and in a body', async () => {
    const created = await call(sandbox, 'POST', BULK, {
      headers: keysA1,
      body: {
        batchName: 'Upper',
        transfers: [
          {
            amount: 10_000,
            receiverAccountNumber: RECEIVER,
            receiverBankCode: BANK,
            retrievalReference: reference(),
            narration: 'x',
          },
        ],
      },
    });
    const id = (created.body.data as { id: string }).id;
    const got = await call(sandbox, 'GET', `${BULK}/${id.toUpperCase()}`, { headers: keysA1 });
    expect(got.status).toBe(200);
    expect((got.body.data as { id: string }).id).toBe(id);
    const processed = await call(sandbox, 'POST', `${BULK}/process`, {
      headers: keysA1,
      body: { bulkTransferId: id.toUpperCase() },
    });
    expect(processed.status, JSON.stringify(processed.body)).toBe(202);
    await sandbox.drain();
  });

  it("the control API's id filters and bodies: an upper-cased clientId and itemId", async () => {
    const created = await call(sandbox, 'POST', BULK, {
      headers: keysA1,
      body: {
        batchName: 'Upper control',
        transfers: [
          {
            amount: 10_000,
            receiverAccountNumber: '0000000051',
            receiverBankCode: BANK,
            retrievalReference: reference(),
            narration: 'x',
          },
        ],
      },
    });
    const batch = dataOf(created, bulkTransferWithItems);
    await call(sandbox, 'POST', `${BULK}/process`, { headers: keysA1, body: { bulkTransferId: batch.id } });
    await sandbox.drain();
    const lower = await call(sandbox, 'GET', `/__sandbox/bulk-transfers?clientId=${A.id}`);
    const upper = await call(sandbox, 'GET', `/__sandbox/bulk-transfers?clientId=${A.id.toUpperCase()}`);
    expect(upper.body.pagination).toEqual(lower.body.pagination);
    expect((upper.body.pagination as { totalCount: number }).totalCount).toBeGreaterThan(0);
    const itemId = batch.items[0]?.id ?? '';
    const reprocessed = await call(sandbox, 'POST', `/__sandbox/bulk-transfers/${batch.id}/reprocess`, {
      body: { itemId: itemId.toUpperCase() },
    });
    expect(reprocessed.status, JSON.stringify(reprocessed.body)).toBe(202);
    await sandbox.drain();
  });

  it('an upper-cased businessId, dispute id, audit id and payout id; a lower-cased transaction reference', async () => {
    const upper = { ...owner, businessId: A.a1.id.toUpperCase() };
    const tx = await transactionId();
    const opened = await call(sandbox, 'POST', DISPUTES, {
      headers: upper,
      body: { transactionId: tx.toLowerCase(), description: 'Not received' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    // The list, asked with the lower-cased reference too, names the dispute by the reference as kept.
    const listed = await call(sandbox, 'GET', `${DISPUTES}?transactionId=${tx.toLowerCase()}`, {
      headers: upper,
    });
    const [opening] = pageOf(listed, dispute).data;
    if (!opening) throw new Error('expected the dispute just opened');
    expect(opening.transactionId).toBe(tx);
    const got = await call(sandbox, 'GET', `${DISPUTES}/${opening.id.toUpperCase()}`, { headers: upper });
    expect(got.status).toBe(200);
    expect(dataOf(got, dispute)).toEqual(opening);
    const audits = await call(sandbox, 'GET', AUDITS, { headers: owner });
    const auditId = pageOf(audits, auditEntry).data[0]?.id ?? '';
    expect(
      (await call(sandbox, 'GET', `${AUDITS}/${auditId.toUpperCase()}`, { headers: owner })).status,
    ).toBe(200);
    const payouts = await call(sandbox, 'GET', PAYOUTS, { headers: owner });
    const payout = pageOf(payouts, payoutAccount).data[0];
    if (!payout) throw new Error('no payout account to update');
    const updated = await call(sandbox, 'PUT', `${PAYOUTS}/${payout.id.toUpperCase()}`, {
      headers: owner,
      // A number no other account of the client has (the fixtures give A one).
      body: { accountName: 'Ade', accountNumber: '2468013579', bankName: 'Bank', bankCode: BANK },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });
});

describe('validation messages in the sandbox’s words', () => {
  it.each([
    ['a missing amount', { amount: undefined }, 'amount is required'],
    [
      'an amount of true',
      { amount: true },
      'amount is invalid: must be a whole number of kobo: a JSON integer or a string of digits',
    ],
    ['an empty narration', { narration: '' }, 'narration is invalid: must not be empty'],
    ['a number as narration', { narration: 42 }, 'narration is invalid: must be text'],
    ['a missing narration', { narration: undefined }, 'narration is required'],
  ])('%s', async (_label, change, message) => {
    const res = await transfer(change);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('a page that is not a number, an unknown type, an id that is not a UUID', async () => {
    const page = await call(sandbox, 'GET', `${API}/clients/business/customers?page=abc`, { headers: owner });
    expect(page.body.message).toBe('page is invalid: must be a number');
    const limit = await call(sandbox, 'GET', `${API}/clients/business/customers?limit=0`, {
      headers: owner,
    });
    expect(limit.status).toBe(400);
    expect(limit.body.message).toBe('limit is invalid: must be at least 1');
    // The control API's lists keep their maximum, in the same words.
    const control = await call(sandbox, 'GET', '/__sandbox/bulk-transfers?limit=101');
    expect(control.status).toBe(400);
    expect(control.body.message).toBe('limit is invalid: must be at most 100');
    const type = await call(sandbox, 'POST', `${API}/clients/business/virtual-accounts`, {
      headers: owner,
      body: { firstName: 'Ada', lastName: 'Obi', type: 'forever', reference: reference() },
    });
    expect(type.body.message).toBe('type is invalid: must be one of "temporal", "permanent"');
    const id = await call(sandbox, 'POST', `${BULK}/process`, {
      headers: keysA1,
      body: { bulkTransferId: 'nope' },
    });
    expect(id.body.message).toBe('bulkTransferId is invalid: must be a UUID');
    expect(id.body.errors).toEqual([{ field: 'bulkTransferId', message: 'must be a UUID' }]);
  });
  // No message of the library's anywhere: test/support/contract.ts refuses one in every answer of every test,
  // the fuzz's included.
});

describe('businessDocuments[]', () => {
  it('is read as businessDocuments, the name many form libraries send', async () => {
    const fresh = await memorySandbox();
    try {
      const freshToken = await tokenFor(fresh, A.owner);
      const res = await fresh.app.request(REGISTRATION, {
        method: 'PATCH',
        headers: schemeA(freshToken, A.secretKey),
        body: registrationForm({}, 'businessDocuments[]'),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const business = fresh.store.get('businesses', A.a2.id);
      expect(business?.businessDocumentsUrls).toHaveLength(2);
    } finally {
      await fresh.close();
    }
  });
});

describe('405 with Allow', () => {
  // Over a real socket: fetch refuses to send TRACE at all.
  let running: RunningSandbox;
  let headers: Record<string, string>;
  beforeAll(async () => {
    running = await startSandbox({ inMemory: true, port: 0, log: () => undefined });
    headers = schemeA(await tokenFor(running, A.owner), A.secretKey, A.a1.id);
  });
  afterAll(() => running.close());

  const request = (method: string, path: string) =>
    new Promise<{ status: number; allow: string | undefined; body: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest(`${running.url}${path}`, { method, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            const allow = res.headers.allow;
            resolve({
              status: res.statusCode ?? 0,
              allow,
              body: JSON.parse(text) as Record<string, unknown>,
            });
          });
        });
        req.on('error', reject);
        req.end();
      },
    );

  it.each([
    ['TRACE', `${API}/clients/business/account-details`, 'GET, HEAD'],
    ['PUT', `${API}/clients/business/account-details`, 'GET, HEAD'],
    ['DELETE', `${API}/clients/business`, 'GET, HEAD, POST'],
    ['GET', `${PAYOUTS}/some-id`, 'DELETE, PUT'],
    ['OPTIONS', `${API}/auth/signin`, 'POST'],
    ['PATCH', '/__sandbox/reset', 'POST'],
  ])('%s %s: 405, Allow: %s, the error envelope', async (method, path, allow) => {
    const res = await request(method, path);
    expect(res.status).toBe(405);
    expect(res.allow).toBe(allow);
    expect(res.body).toEqual({
      status: false,
      message: `Method ${method} is not allowed on ${path}; it allows ${allow}`,
      data: null,
    });
  });

  it('an unknown path stays 404, whatever the method', async () => {
    for (const method of ['GET', 'PUT', 'TRACE']) {
      const res = await request(method, `${API}/clients/nowhere`);
      expect(res.status).toBe(404);
      expect(res.allow).toBeUndefined();
    }
  });

  it('every defined path answers 405 to TRACE, allowing its own method', async () => {
    for (const [prefix, routes] of [
      [API, apiContracts],
      ['/__sandbox', controlContracts],
    ] as const) {
      for (const route of routes) {
        const path = `${prefix}${route.path.replace(/\{\w+\}/g, 'x')}`;
        const res = await request('TRACE', path);
        expect(res.status, `TRACE ${path}`).toBe(405);
        expect(res.allow?.split(', '), path).toContain(route.method.toUpperCase());
      }
    }
  });
});
