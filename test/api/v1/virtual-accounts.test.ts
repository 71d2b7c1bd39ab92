import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import fees from '../../../fixtures/fees.json' with { type: 'json' };
import { MAX_LIFETIME_SECONDS } from '../../../src/config.js';
import {
  singleUseAccount,
  suspenseTransaction,
  virtualAccount,
} from '../../../src/contract/api/virtual-accounts.js';
import { clock } from '../../../src/contract/control/clock.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import {
  type VirtualAccountView as ControlVirtualAccountView,
  virtualAccount as controlVirtualAccount,
} from '../../../src/contract/control/virtual-accounts.js';
import { delivery } from '../../../src/contract/control/webhooks.js';
import { fixture } from '../../../src/contract/examples.js';
import { isValidNuban } from '../../../src/domain/nuban.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { accountBalance, ledgerOf } from '../../support/money.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor } from '../../support/sandbox.js';

const VIRTUAL = '/api/v1/clients/business/virtual-accounts';
const SINGLE_USE = `${VIRTUAL}/single-use`;
const NO_ACCOUNT = 'No payment account for this business';
const NOW = Date.parse('2025-06-01T10:00:00.000Z');
const TTL_SECONDS = 900;
/** The docs' example: `STL|` and 14 letters and digits. */
const SYSTEM_REF = /^STL\|[A-Za-z0-9]{14}$/;

/**
 * The record of a virtual account as the control API shows it (type, expiry, single-use fields, state): the API's
 * answer carries none of them.
 */
async function recordOf(sandbox: Sandbox, accountNumber: string): Promise<ControlVirtualAccountView> {
  const res = await call(sandbox, 'GET', '/__sandbox/virtual-accounts?limit=100');
  expect(res.status).toBe(200);
  const found = pageOf(res, controlVirtualAccount).data.find((v) => v.accountNumber === accountNumber);
  if (!found) throw new Error(`no virtual account ${accountNumber} in /__sandbox/virtual-accounts`);
  return found;
}

describe('virtual accounts', () => {
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
    sandbox = await createSandbox(
      { inMemory: true, virtualAccountTtl: TTL_SECONDS, log: () => undefined },
      { now: () => NOW },
    );
    headers = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
  });

  const create = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', VIRTUAL, { headers: h, body });

  const seen = new Set<string>();

  it('creates a temporal account: 201 with exactly accountNumber, accountName, clientRef and systemRef', async () => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'order-1',
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Account generated successfully');
    const data = dataOf(res, virtualAccount);
    expect(Object.keys(data).sort()).toEqual(['accountName', 'accountNumber', 'clientRef', 'systemRef']);
    expect(data).toEqual({
      accountNumber: expect.any(String),
      accountName: 'Tunde Bakare',
      clientRef: 'order-1',
      systemRef: expect.stringMatching(SYSTEM_REF),
    });
    expect(data.accountNumber).toMatch(/^\d{10}$/);
    expect(isValidNuban(banks.homeBankCode, data.accountNumber)).toBe(true);
    // The holder's names as given, nothing of the business.
    expect(data.accountName).not.toContain(A.a1.businessName);
    seen.add(data.accountNumber);
  });

  it('keeps the type and an expiry of createdAt + TTL in the record, with no single-use fields', async () => {
    const [number] = seen;
    const record = await recordOf(sandbox, number ?? '');
    expect(record).toMatchObject({
      type: 'temporal',
      clientRef: 'order-1',
      firstName: 'Tunde',
      lastName: 'Bakare',
      accountName: 'Tunde Bakare',
      businessId: A.a1.id,
      clientId: A.id,
      createdAt: new Date(NOW).toISOString(),
      expiresAt: new Date(NOW + TTL_SECONDS * 1000).toISOString(),
      reservedAmount: null,
      usedBy: null,
      state: 'open',
    });
    expect(record.systemRef).toMatch(SYSTEM_REF);
  });

  it('creates a permanent account, whose record has expiresAt null', async () => {
    const res = await create({
      firstName: 'Amaka',
      lastName: 'Eze',
      type: 'permanent',
      reference: 'customer-7',
    });
    expect(res.status).toBe(201);
    const data = dataOf(res, virtualAccount);
    expect(data).toMatchObject({ clientRef: 'customer-7', accountName: 'Amaka Eze' });
    expect(data.systemRef).toMatch(SYSTEM_REF);
    expect(isValidNuban(banks.homeBankCode, data.accountNumber)).toBe(true);
    expect(await recordOf(sandbox, data.accountNumber)).toMatchObject({
      type: 'permanent',
      expiresAt: null,
      reservedAmount: null,
      usedBy: null,
      state: 'open',
    });
    seen.add(data.accountNumber);
  });

  it('names the account with the names exactly as given', async () => {
    const res = await create({
      firstName: 'Chukwuemeka',
      lastName: "O'Neil-Adé",
      type: 'permanent',
      reference: 'names-1',
    });
    expect(res.status).toBe(201);
    const data = dataOf(res, virtualAccount);
    expect(data.accountName).toBe("Chukwuemeka O'Neil-Adé");
    seen.add(data.accountNumber);
  });

  it('gives every account its own number and systemRef, apart from the business accounts', async () => {
    const systemRefs = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const res = await create({
        firstName: 'Ife',
        lastName: 'Ade',
        type: 'permanent',
        reference: `many-${i}`,
      });
      expect(res.status).toBe(201);
      const data = dataOf(res, virtualAccount);
      expect(seen.has(data.accountNumber)).toBe(false);
      seen.add(data.accountNumber);
      systemRefs.add(data.systemRef);
    }
    expect(systemRefs.size).toBe(10);
    for (const ref of systemRefs) expect(ref).toMatch(SYSTEM_REF);
    expect(seen.has(A.a1.accountNumber ?? '')).toBe(false);
    expect(seen.has(B.b1.accountNumber ?? '')).toBe(false);
  });

  it('answers 409 to a reference reused in the same business, whatever the type', async () => {
    for (const type of ['temporal', 'permanent']) {
      const res = await create({ firstName: 'Tunde', lastName: 'Bakare', type, reference: 'order-1' });
      expect(res.status, type).toBe(409);
      expect(res.body).toMatchObject({ status: false, data: null });
    }
  });

  it('lets another business reuse the reference', async () => {
    const res = await create(
      { firstName: 'Bola', lastName: 'Bello', type: 'temporal', reference: 'order-1' },
      headersB,
    );
    expect(res.status).toBe(201);
    const data = dataOf(res, virtualAccount);
    expect(data.clientRef).toBe('order-1');
    expect(seen.has(data.accountNumber)).toBe(false);
  });

  it.each([
    ['type "temporary"', { type: 'temporary' }, 'type'],
    ['type "PERMANENT"', { type: 'PERMANENT' }, 'type'],
    ['no type', { type: undefined }, 'type'],
    ['no firstName', { firstName: undefined }, 'firstName'],
    ['no lastName', { lastName: undefined }, 'lastName'],
    ['no reference', { reference: undefined }, 'reference'],
    ['an empty reference', { reference: '' }, 'reference'],
  ])('answers 400 to %s', async (_label, change, field) => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'bad-1',
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('created nothing for the refused requests: the reference is still free', async () => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'bad-1',
    });
    expect(res.status).toBe(201);
  });

  it('answers 400 No payment account for this business to A2', async () => {
    const res = await create(
      { firstName: 'Tunde', lastName: 'Bakare', type: 'permanent', reference: 'a2-ref' },
      { ...headers, businessId: A.a2.id },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: NO_ACCOUNT, data: null });
  });

  // A Viewer's 403 and a missing businessId's 400, the state unchanged (so a refused reference stays free):
  // route-auth.test.ts.
  it('lets a Manager create one', async () => {
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const res = await create(
      { firstName: 'Musa', lastName: 'Ibrahim', type: 'temporal', reference: 'mgr-1' },
      manager,
    );
    expect(res.status).toBe(201);
  });
});

describe('virtual account lifetime', () => {
  it('uses the default of 30 minutes and reads the clock at creation', async () => {
    let t = NOW;
    const sandbox = await createSandbox({ inMemory: true, log: () => undefined }, { now: () => t });
    const headers = await ownerHeaders(sandbox);
    const first = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-1' },
    });
    const firstRecord = await recordOf(sandbox, dataOf(first, virtualAccount).accountNumber);
    expect(firstRecord.expiresAt).toBe(new Date(NOW + 1800 * 1000).toISOString());
    t += 5 * 60_000;
    const second = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-2' },
    });
    const secondRecord = await recordOf(sandbox, dataOf(second, virtualAccount).accountNumber);
    expect(secondRecord.expiresAt).toBe(new Date(t + 1800 * 1000).toISOString());
  });

  it('the largest accepted lifetime still stamps a valid expiry (it answered 500 when the setting had no bound)', async () => {
    const sandbox = await createSandbox(
      { inMemory: true, virtualAccountTtl: MAX_LIFETIME_SECONDS, log: () => undefined },
      { now: () => NOW },
    );
    const res = await call(sandbox, 'POST', VIRTUAL, {
      headers: await ownerHeaders(sandbox),
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-max' },
    });
    expect(res.status).toBe(201);
    const record = await recordOf(sandbox, dataOf(res, virtualAccount).accountNumber);
    expect(record.expiresAt).toBe(new Date(NOW + MAX_LIFETIME_SECONDS * 1000).toISOString());
  });
});

describe('single-use virtual accounts', () => {
  const AMOUNT = 250_000;
  const DURATION = 600;
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
    // A fixed time source: the sandbox clock moves only when it is advanced.
    sandbox = await createSandbox({ inMemory: true, log: () => undefined }, { now: () => NOW });
    headers = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
  });

  const body = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Kemi',
    lastName: 'Adeyemi',
    refCode: 'invoice-1',
    amount: AMOUNT,
    duration: DURATION,
    ...overrides,
  });
  const open = (b: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', SINGLE_USE, { headers: h, body: b });
  const pay = (accountNumber: string, amount: number) =>
    call(sandbox, 'POST', '/__sandbox/incoming-payments', { body: { accountNumber, amount } });
  const advance = async (ms: number) => {
    const res = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms } });
    expect(res.status).toBe(200);
  };
  const now = async () => Date.parse(dataOf(await call(sandbox, 'GET', '/__sandbox/clock'), clock).now);
  /** The balance account-details shows and the number of ledger entries of A1: what a refused payment leaves. */
  const money = async () => ({
    balance: await accountBalance(sandbox, headers),
    entries: (await ledgerOf(sandbox)).transactions.length,
  });
  const charge = (amount: number) =>
    Math.min(Math.floor((amount * fees.incoming.rateBasisPoints) / 10_000), fees.incoming.cap);

  let accountNumber = '';

  it('answers 201 with exactly the docs fields, expiring duration seconds from the sandbox clock now', async () => {
    const at = await now();
    const res = await open(body());
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Account generated successfully');
    const data = dataOf(res, singleUseAccount);
    expect(Object.keys(data).sort()).toEqual(
      [
        'accountName',
        'accountNumber',
        'clientReference',
        'expiresAt',
        'reservedAmount',
        'systemReference',
      ].sort(),
    );
    expect(data).toEqual({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      accountName: 'Kemi Adeyemi',
      clientReference: 'invoice-1',
      systemReference: expect.stringMatching(SYSTEM_REF),
      reservedAmount: AMOUNT,
      expiresAt: new Date(at + DURATION * 1000).toISOString(),
    });
    expect(isValidNuban(banks.homeBankCode, data.accountNumber)).toBe(true);
    accountNumber = data.accountNumber;
  });

  it('reads the expiry from the sandbox clock, advanced or not', async () => {
    // Five minutes: the first account (ten) stays open, and the access token (an hour) valid.
    await advance(300_000);
    const at = await now();
    expect(at).toBe(NOW + 300_000);
    const res = await open(body({ refCode: 'invoice-clock', duration: 90 }));
    expect(res.status).toBe(201);
    expect(dataOf(res, singleUseAccount).expiresAt).toBe(new Date(at + 90_000).toISOString());
  });

  it('shows in /__sandbox/virtual-accounts as single_use, open, with its reservedAmount and no usedBy', async () => {
    expect(await recordOf(sandbox, accountNumber)).toMatchObject({
      type: 'single_use',
      clientRef: 'invoice-1',
      accountName: 'Kemi Adeyemi',
      reservedAmount: AMOUNT,
      usedBy: null,
      state: 'open',
      expiresAt: new Date(NOW + DURATION * 1000).toISOString(),
    });
  });

  it('refuses another amount with 409 and credits nothing', async () => {
    const before = await money();
    for (const amount of [AMOUNT - 1, AMOUNT + 1, 1]) {
      const res = await pay(accountNumber, amount);
      expect(res.status, String(amount)).toBe(409);
      expect(res.body).toMatchObject({
        status: false,
        message: `This single-use virtual account takes exactly ${AMOUNT} kobo, not ${amount}`,
      });
    }
    expect(await money()).toEqual(before);
    expect((await recordOf(sandbox, accountNumber)).state).toBe('open');
  });

  it('takes the exact amount: 201, credited less the incoming charge, and the account is used', async () => {
    const before = await money();
    const res = await pay(accountNumber, AMOUNT);
    expect(res.status).toBe(201);
    const { transactionReference } = dataOf(res, paymentReceived);
    const after = await money();
    expect(Number(after.balance)).toBe(Number(before.balance) + AMOUNT - charge(AMOUNT));
    expect(after.entries).toBe(before.entries + 1);
    const [credit] = (await ledgerOf(sandbox)).transactions;
    expect(credit).toMatchObject({ id: transactionReference, kind: 'incoming_payment', amount: AMOUNT });
    expect(await recordOf(sandbox, accountNumber)).toMatchObject({
      usedBy: transactionReference,
      state: 'used',
    });
  });

  it('refuses a second payment with 409, even of the same amount, and credits nothing', async () => {
    const before = await money();
    const res = await pay(accountNumber, AMOUNT);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      status: false,
      message: 'This single-use virtual account has already received its payment',
    });
    expect(await money()).toEqual(before);
  });

  it('refuses a payment once duration has passed on the sandbox clock: 409 expired, nothing credited', async () => {
    const res = await open(body({ refCode: 'invoice-late', duration: 60 }));
    expect(res.status).toBe(201);
    const late = dataOf(res, singleUseAccount).accountNumber;
    await advance(59_999);
    expect((await recordOf(sandbox, late)).state).toBe('open');
    await advance(1);
    expect((await recordOf(sandbox, late)).state).toBe('expired');

    const before = await money();
    const paid = await pay(late, AMOUNT);
    expect(paid.status).toBe(409);
    expect(paid.body).toMatchObject({
      status: false,
      message: 'This single-use virtual account has expired',
    });
    expect(await money()).toEqual(before);
    expect(await recordOf(sandbox, late)).toMatchObject({ usedBy: null, state: 'expired' });
  });

  it('answers 409 to a refCode the business used already, for either kind of account', async () => {
    const again = await open(body());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      status: false,
      message: 'A virtual account with this reference already exists',
      data: null,
    });
    const multi = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Kemi', lastName: 'Adeyemi', type: 'permanent', reference: 'multi-first' },
    });
    expect(multi.status).toBe(201);
    expect((await open(body({ refCode: 'multi-first' }))).status).toBe(409);
    // The refCode of a single-use account is taken for a multi-use one too.
    const reuse = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Kemi', lastName: 'Adeyemi', type: 'permanent', reference: 'invoice-1' },
    });
    expect(reuse.status).toBe(409);
  });

  it('lets another business use the same refCode', async () => {
    const res = await open(body(), headersB);
    expect(res.status).toBe(201);
    expect(dataOf(res, singleUseAccount).clientReference).toBe('invoice-1');
  });

  it.each([
    ['no firstName', { firstName: undefined }, 'firstName'],
    ['no lastName', { lastName: undefined }, 'lastName'],
    ['no refCode', { refCode: undefined }, 'refCode'],
    ['an empty refCode', { refCode: '' }, 'refCode'],
    ['no amount', { amount: undefined }, 'amount'],
    ['amount 0', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -100 }, 'amount'],
    ['amount 1.5', { amount: 1.5 }, 'amount'],
    ['no duration', { duration: undefined }, 'duration'],
    ['duration 0', { duration: 0 }, 'duration'],
    ['duration 1.5', { duration: 1.5 }, 'duration'],
    ['a negative duration', { duration: -60 }, 'duration'],
    ['duration as text', { duration: 'ten minutes' }, 'duration'],
  ])('answers 400 naming the field to %s, and opens nothing', async (_label, change, field) => {
    const res = await open(body({ refCode: 'bad-single', ...change }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('opened nothing for the refused requests: the refCode is still free', async () => {
    expect((await open(body({ refCode: 'bad-single' }))).status).toBe(201);
  });

  it('takes an amount of 1 kobo and a duration of 1 second', async () => {
    const res = await open(body({ refCode: 'tiny', amount: 1, duration: 1 }));
    expect(res.status).toBe(201);
    expect(dataOf(res, singleUseAccount)).toMatchObject({
      reservedAmount: 1,
      expiresAt: new Date((await now()) + 1000).toISOString(),
    });
  });

  it('answers 400 No payment account for this business to A2', async () => {
    const res = await open(body({ refCode: 'a2-single' }), { ...headers, businessId: A.a2.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: NO_ACCOUNT, data: null });
  });
});

describe('incoming payments to multi-use accounts', () => {
  it('a permanent account takes any number of payments of any amount; a temporal one until it expires', async () => {
    const sandbox = await createSandbox(
      { inMemory: true, virtualAccountTtl: 60, log: () => undefined },
      { now: () => NOW },
    );
    const headers = await ownerHeaders(sandbox);
    const openOne = async (type: string, reference: string) => {
      const res = await call(sandbox, 'POST', VIRTUAL, {
        headers,
        body: { firstName: 'Dayo', lastName: 'Ola', type, reference },
      });
      expect(res.status).toBe(201);
      return dataOf(res, virtualAccount).accountNumber;
    };
    const permanent = await openOne('permanent', 'multi-p');
    const temporal = await openOne('temporal', 'multi-t');
    const pay = (accountNumber: string, amount: number) =>
      call(sandbox, 'POST', '/__sandbox/incoming-payments', { body: { accountNumber, amount } });
    for (const amount of [1000, 2000, 1000]) expect((await pay(permanent, amount)).status).toBe(201);
    expect((await pay(temporal, 5000)).status).toBe(201);
    expect(await recordOf(sandbox, permanent)).toMatchObject({ usedBy: null, state: 'open' });
    expect(await recordOf(sandbox, temporal)).toMatchObject({ usedBy: null, state: 'open' });

    expect((await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 60_000 } })).status).toBe(
      200,
    );
    expect((await recordOf(sandbox, temporal)).state).toBe('expired');
    const late = await pay(temporal, 5000);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This temporal virtual account has expired');
    expect((await pay(permanent, 3000)).status).toBe(201);
  });
});

describe('suspense account transactions', () => {
  const SUSPENSE = '/api/v1/clients/business/virtual-account';
  /** After the payments the fixtures give A1 (June 2025). */
  const LATER = Date.parse('2026-03-01T09:00:00.000Z');
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  let headersB: Record<string, string>;
  let permanent = '';
  let singleUse = '';
  const references: string[] = [];
  beforeAll(async () => {
    sandbox = await createSandbox({ inMemory: true, log: () => undefined }, { now: () => LATER });
    headers = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const opened = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Dayo', lastName: 'Ola', type: 'permanent', reference: 'suspense-p' },
    });
    permanent = dataOf(opened, virtualAccount).accountNumber;
    const once = await call(sandbox, 'POST', SINGLE_USE, {
      headers,
      body: { firstName: 'Kemi', lastName: 'Obi', refCode: 'suspense-s', amount: 7500, duration: 600 },
    });
    singleUse = dataOf(once, singleUseAccount).accountNumber;
    const payments = [
      {
        accountNumber: permanent,
        amount: 500000,
        payerAccountNumber: '0123456789',
        narration: 'Order 12345',
      },
      { accountNumber: permanent, amount: 20_000_000 },
      { accountNumber: singleUse, amount: 7500, payerAccountNumber: '0987654321', narration: 'Invoice 7' },
    ];
    for (const body of payments) {
      const paid = await call(sandbox, 'POST', '/__sandbox/incoming-payments', { body });
      expect(paid.status).toBe(201);
      references.push(dataOf(paid, paymentReceived).transactionReference);
      // Each a millisecond after the last, so that newest first is an order of time too.
      expect((await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1 } })).status).toBe(200);
    }
    // A transfer is no payment received: it is not listed.
    const sent = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers,
      body: {
        amount: 1000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: 'suspense-out',
        narration: 'Out',
      },
    });
    expect(sent.status).toBe(200);
  });
  const list = async (query = '', h: Record<string, string> = headers) => {
    const res = await call(sandbox, 'GET', `${SUSPENSE}${query}`, { headers: h });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transactions retrieved successfully');
    return pageOf(res, suspenseTransaction);
  };
  const charge = (amount: number) =>
    Math.min(Math.floor((amount * fees.incoming.rateBasisPoints) / 10_000), fees.incoming.cap);

  it("lists every payment the business's virtual accounts received, single-use included, newest first, with the page's nine fields as text", async () => {
    const { data, pagination } = await list();
    // Three made here, then the two the fixtures give A1, the oldest.
    expect(pagination).toMatchObject({ totalCount: 5, limit: 10, lastPage: 1 });
    expect(data.slice(3)).toEqual([
      {
        recipientAccountNumber: '9000000010',
        transactionId: fixture.payment,
        amount: '1250000',
        transactionCharge: String(charge(1_250_000)),
        totalAmount: String(1_250_000 + charge(1_250_000)),
        payerAccountNumber: '0123456785',
        reason: 'Order 7781',
        date: '2025-06-02T14:30:00.000Z',
        refundStatus: 'none',
      },
      expect.objectContaining({ transactionId: fixture.disputedPayment, date: '2025-06-01T10:00:00.000Z' }),
    ]);
    expect(data.slice(0, 3)).toEqual([
      {
        recipientAccountNumber: singleUse,
        transactionId: references[2],
        amount: '7500',
        transactionCharge: String(charge(7500)),
        totalAmount: String(7500 + charge(7500)),
        payerAccountNumber: '0987654321',
        reason: 'Invoice 7',
        date: new Date(LATER + 2).toISOString(),
        refundStatus: 'none',
      },
      {
        recipientAccountNumber: permanent,
        transactionId: references[1],
        amount: '20000000',
        transactionCharge: String(charge(20_000_000)),
        totalAmount: String(20_000_000 + charge(20_000_000)),
        // The payment named no payer account.
        payerAccountNumber: '',
        reason: 'Transfer to Dayo Ola',
        date: new Date(LATER + 1).toISOString(),
        refundStatus: 'none',
      },
      {
        recipientAccountNumber: permanent,
        transactionId: references[0],
        amount: '500000',
        transactionCharge: String(charge(500000)),
        totalAmount: String(500000 + charge(500000)),
        payerAccountNumber: '0123456789',
        reason: 'Order 12345',
        date: new Date(LATER).toISOString(),
        refundStatus: 'none',
      },
    ]);
    // The cap of the incoming charge shows: 0.5% of ₦200,000 is over it.
    expect(data[1]?.transactionCharge).toBe(String(fees.incoming.cap));
  });

  it('keeps "" for a payer account the payment did not name, where the webhook names ten zeros', async () => {
    const [, unnamed] = (await list()).data;
    expect(unnamed).toMatchObject({ transactionId: references[1], payerAccountNumber: '' });
    const entry = (await ledgerOf(sandbox)).transactions.find((t) => t.id === references[1]);
    expect(entry?.counterparty?.accountNumber).toBe('');
    const deliveries = await call(sandbox, 'GET', '/__sandbox/webhooks/deliveries?limit=100');
    const sent = pageOf(deliveries, delivery).data.find((d) => d.transactionReference === references[1]);
    expect(sent?.payload).toMatchObject({
      accountNumber: '0000000000',
      depositorDetails: { accountNumber: '0000000000' },
    });
  });

  it('pages with page and limit', async () => {
    const second = await list('?page=2&limit=2');
    expect(second.data.map((t) => t.transactionId)).toEqual([references[0], fixture.payment]);
    expect(second.pagination).toMatchObject({
      totalCount: 5,
      hasPreviousPage: true,
      previousPage: 1,
      lastPage: 3,
    });
  });

  it.each(['page=0', 'limit=0', 'limit=ten'])('answers 400 to %s', async (query) => {
    const res = await call(sandbox, 'GET', `${SUSPENSE}?${query}`, { headers });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: query.split('=')[0] })]);
  });

  it("shows nothing of another business's payments: A2's list and B's are empty", async () => {
    expect((await list('', { ...headers, businessId: A.a2.id })).data).toEqual([]);
    expect((await list('', headersB)).data).toEqual([]);
    const foreign = await call(sandbox, 'GET', SUSPENSE, { headers: { ...headers, businessId: B.b1.id } });
    expect(foreign.status).toBe(401);
  });

  it('gives each payment a transactionId a dispute takes', async () => {
    const [newest] = (await list()).data;
    const res = await call(sandbox, 'POST', '/api/v1/clients/business/disputes', {
      headers,
      body: { transactionId: newest?.transactionId, description: 'The payer asks for a refund' },
    });
    expect(res.status).toBe(201);
    // Not from another client's business.
    const fromB = await call(sandbox, 'POST', '/api/v1/clients/business/disputes', {
      headers: headersB,
      body: { transactionId: references[0], description: 'Not mine' },
    });
    expect(fromB.status).toBe(404);
  });

  it('is read by every role', async () => {
    const viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey, A.a1.id);
    expect((await list('', viewer)).data).toHaveLength(5);
  });
});
