import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { dispute } from '../../../src/contract/api/disputes.js';
import { transferResult } from '../../../src/contract/api/transfers.js';
import { ledger } from '../../../src/contract/control/money.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import {
  accountBalance,
  feeFor,
  ledgerOf,
  references,
  setBalance,
  transferEntry,
} from '../../support/money.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const ANONYMOUS = '/api/v1/clients/business/customers/funds/anonymous-transfer';
const NO_ACCOUNT = 'No payment account for this business';

const BANK = banks.banks[0]?.code ?? '';
const OTHER_BANK = banks.banks[1]?.code ?? '';
const RECEIVER = '0123456789';

const ref = references('ref');

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 150000,
    receiverAccountNumber: RECEIVER,
    receiverBankCode: BANK,
    retrievalReference: ref(),
    narration: 'Invoice 42',
    ...overrides,
  };
}

async function balanceOf(sandbox: Sandbox, headers: Record<string, string>): Promise<number> {
  return Number(await accountBalance(sandbox, headers));
}

const ENDPOINTS = [
  ['customer transfer', TRANSFER],
  ['anonymous transfer', ANONYMOUS],
] as const;

describe.each(ENDPOINTS)('%s', (_name, path) => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await ownerHeaders(sandbox);
  });

  const send = (b: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', path, { headers: h, body: b });

  it('answers 200 Transfer successful with the amounts as strings and debits exactly totalAmount', async () => {
    const before = await balanceOf(sandbox, headers);
    const retrievalReference = ref('happy');
    const res = await send(body({ amount: 150000, retrievalReference }));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Transfer successful');
    // Exactly the docs' three amounts: no reference, nothing else.
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    expect(Object.keys(res.body.data ?? {}).sort()).toEqual(['amount', 'totalAmount', 'transactionCharge']);
    expect(dataOf(res, transferResult)).toEqual({
      amount: '150000',
      transactionCharge: '1075',
      totalAmount: '151075',
    });
    expect(await balanceOf(sandbox, headers)).toBe(before - 151075);
    // The reference lives on the ledger entry.
    const entry = await transferEntry(sandbox, retrievalReference);
    expect(entry).toMatchObject({
      status: 'successful',
      retrievalReference,
      amount: 150000,
      charge: 1075,
      errorCode: '',
    });
    expect(entry.id).toMatch(/\S/);
  });

  it('accepts a numeric string amount and normalises it', async () => {
    const before = await balanceOf(sandbox, headers);
    const res = await send(body({ amount: '150000' }));
    expect(res.status).toBe(200);
    const data = dataOf(res, transferResult);
    expect(data.amount).toBe('150000');
    expect(data.transactionCharge).toBe('1075');
    expect(data.totalAmount).toBe('151075');
    expect(await balanceOf(sandbox, headers)).toBe(before - 151075);
  });

  it.each([
    [100, '1075'],
    [500000, '1075'],
    [500001, '2688'],
    [5000000, '2688'],
    [5000001, '5375'],
  ])('charges the NIP tier fee on %i kobo: %s', async (amount, charge) => {
    expect(String(feeFor(amount))).toBe(charge);
    const before = await balanceOf(sandbox, headers);
    const res = await send(body({ amount }));
    expect(res.status).toBe(200);
    const data = dataOf(res, transferResult);
    expect(data.amount).toBe(String(amount));
    expect(data.transactionCharge).toBe(charge);
    expect(data.totalAmount).toBe(String(amount + Number(charge)));
    expect(await balanceOf(sandbox, headers)).toBe(before - amount - Number(charge));
  });

  it('accepts the least amount, 1 kobo, at the first fee tier', async () => {
    const before = await balanceOf(sandbox, headers);
    const res = await send(body({ amount: 1 }));
    expect(res.status).toBe(200);
    expect(dataOf(res, transferResult)).toEqual({
      amount: '1',
      transactionCharge: '1075',
      totalAmount: '1076',
    });
    expect(await balanceOf(sandbox, headers)).toBe(before - 1076);
  });

  it('accepts amounts above 1000000000 kobo: no upper bound but what a number holds exactly', async () => {
    await setBalance(sandbox, A.a1.id, 3_000_000_000);
    const res = await send(body({ amount: 1_000_000_001 }));
    expect(res.status).toBe(200);
    expect(dataOf(res, transferResult).totalAmount).toBe('1000005376');
    expect(await balanceOf(sandbox, headers)).toBe(3_000_000_000 - 1_000_005_376);

    const huge = Number.MAX_SAFE_INTEGER - 5375;
    await setBalance(sandbox, A.a1.id, Number.MAX_SAFE_INTEGER);
    const most = await send(body({ amount: huge }));
    expect(most.status).toBe(200);
    expect(dataOf(most, transferResult).totalAmount).toBe(String(Number.MAX_SAFE_INTEGER));
    expect(await balanceOf(sandbox, headers)).toBe(0);
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });

  it('answers 400 to an amount past Number.MAX_SAFE_INTEGER, as a number or a string, and debits nothing', async () => {
    await setBalance(sandbox, A.a1.id, Number.MAX_SAFE_INTEGER);
    for (const amount of [Number.MAX_SAFE_INTEGER + 1, '9007199254740993']) {
      const res = await send(body({ amount }));
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'amount' })]));
      expect(await balanceOf(sandbox, headers)).toBe(Number.MAX_SAFE_INTEGER);
    }
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });

  it.each([
    ['amount 0', { amount: 0 }, 'amount'],
    ['amount "0"', { amount: '0' }, 'amount'],
    ['amount 1.5', { amount: 1.5 }, 'amount'],
    ['amount "abc"', { amount: 'abc' }, 'amount'],
    ['amount -5', { amount: -5 }, 'amount'],
    ['amount "-5"', { amount: '-5' }, 'amount'],
    ['amount "1.5"', { amount: '1.5' }, 'amount'],
    ['amount missing', { amount: undefined }, 'amount'],
    ['a 9-digit account', { receiverAccountNumber: '012345678' }, 'receiverAccountNumber'],
    ['an 11-digit account', { receiverAccountNumber: '01234567890' }, 'receiverAccountNumber'],
    ['a non-digit account', { receiverAccountNumber: '01234abcde' }, 'receiverAccountNumber'],
    ['an account as a number', { receiverAccountNumber: 1234567890 }, 'receiverAccountNumber'],
    ['account missing', { receiverAccountNumber: undefined }, 'receiverAccountNumber'],
    ['bank code missing', { receiverBankCode: undefined }, 'receiverBankCode'],
    ['an empty bank code', { receiverBankCode: '' }, 'receiverBankCode'],
    ['narration missing', { narration: undefined }, 'narration'],
    ['retrievalReference missing', { retrievalReference: undefined }, 'retrievalReference'],
  ])('answers 400 to %s and debits nothing', async (_label, overrides, field) => {
    const before = await balanceOf(sandbox, headers);
    const res = await send(body(overrides));
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await balanceOf(sandbox, headers)).toBe(before);
  });

  // Any text that is not a code of the fixtures, whatever its length or form: the one answer, no format rule.
  it.each(['999', '000000', '123', '99', '1234', '0440', 'ABC', 'abc', '04 4'])(
    'answers 400 Invalid bank code to %j',
    async (code) => {
      expect(banks.banks.some((b) => b.code === code)).toBe(false);
      const before = await balanceOf(sandbox, headers);
      const res = await send(body({ receiverBankCode: code }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: false, message: 'Invalid bank code', data: null });
      expect(await balanceOf(sandbox, headers)).toBe(before);
    },
  );

  it('accepts every bank code of the fixtures', async () => {
    await setBalance(sandbox, A.a1.id, 500_000_000);
    for (const bank of banks.banks) {
      const res = await send(body({ amount: 100, receiverBankCode: bank.code }));
      expect(res.status, bank.code).toBe(200);
    }
  });

  // A required string takes any non-empty string (contract, section 1): the bank has no rule on what it holds.
  it('takes a narration of spaces as sent, and refuses an empty one', async () => {
    const retrievalReference = ref('spaces');
    const res = await send(body({ narration: '   ', retrievalReference }));
    expect(res.status).toBe(200);
    expect((await transferEntry(sandbox, retrievalReference)).narration).toBe('   ');
    const empty = await send(body({ narration: '' }));
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'narration', message: 'must not be empty' }]);
  });

  it('replays the same reference and body: the identical data, no second debit', async () => {
    const b = body({ amount: 250000, retrievalReference: ref('replay') });
    const first = await send(b);
    expect(first.status).toBe(200);
    const afterFirst = await balanceOf(sandbox, headers);
    const second = await send(b);
    expect(second.status).toBe(200);
    expect(second.body.message).toBe('Transfer successful');
    expect(second.body.data).toEqual(first.body.data);
    expect(await balanceOf(sandbox, headers)).toBe(afterFirst);
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.transactions.filter((t) => t.retrievalReference === b.retrievalReference)).toHaveLength(1);
  });

  it.each([
    ['another amount', { amount: 250001 }],
    ['another receiver', { receiverAccountNumber: '1111111111' }],
    ['another bank', { receiverBankCode: OTHER_BANK }],
    ['another narration', { narration: 'Something else' }],
  ])('answers 409 to the same reference with %s, and debits nothing', async (_label, change) => {
    const b = body({ amount: 250000, retrievalReference: ref('conflict') });
    const first = await send(b);
    expect(first.status).toBe(200);
    const afterFirst = await balanceOf(sandbox, headers);
    const res = await send({ ...b, ...change });
    expect(res.status).toBe(409);
    expect(res.body.status).toBe(false);
    expect(res.body.data).toBeNull();
    expect(await balanceOf(sandbox, headers)).toBe(afterFirst);
  });

  it("keeps the reference space per business: B may reuse A's reference", async () => {
    const retrievalReference = ref('shared');
    const first = await send(body({ retrievalReference }));
    expect(first.status).toBe(200);
    const tokenB = await tokenFor(sandbox, B.owner);
    const headersB = schemeA(tokenB, B.secretKey, B.b1.id);
    const beforeB = await balanceOf(sandbox, headersB);
    const res = await send(body({ retrievalReference, amount: 300000 }), headersB);
    expect(res.status).toBe(200);
    expect(dataOf(res, transferResult).totalAmount).toBe('301075');
    expect(await balanceOf(sandbox, headersB)).toBe(beforeB - 300000 - 1075);
    // Two entries, one per business, each with its own transaction reference.
    const entryA = await transferEntry(sandbox, retrievalReference, A.a1.id);
    const entryB = await transferEntry(sandbox, retrievalReference, B.b1.id);
    expect(entryA).toMatchObject({ businessId: A.a1.id, amount: 150000, retrievalReference });
    expect(entryB).toMatchObject({ businessId: B.b1.id, amount: 300000, retrievalReference });
    expect(entryB.id).not.toBe(entryA.id);
  });

  it.each([
    ['0000000051', 'Insufficient Funds', '51'],
    ['0000000007', 'Invalid Account', '07'],
    ['0000000091', 'Beneficiary Bank not available', '91'],
    ['0000000096', 'System malfunction', '96'],
  ])(
    'receiver %s fails with 400 %s (errorCode %s), debits nothing, and replays the same',
    async (account, message, errorCode) => {
      for (const code of [BANK, OTHER_BANK]) {
        const before = await balanceOf(sandbox, headers);
        const b = body({
          receiverAccountNumber: account,
          receiverBankCode: code,
          retrievalReference: ref('magic'),
        });
        const res = await send(b);
        expect(res.status).toBe(400);
        // The provider's message and nothing else: no errorCode, no references (data null, as the docs show).
        expect(res.body).toStrictEqual({ status: false, message, data: null });
        expect(await balanceOf(sandbox, headers)).toBe(before);
        const entry = await transferEntry(sandbox, String(b.retrievalReference));
        expect(entry).toMatchObject({ status: 'failed', errorCode, errorMessage: message });
        const again = await send(b);
        expect(again.status).toBe(400);
        expect(again.body).toStrictEqual(res.body);
        expect(await balanceOf(sandbox, headers)).toBe(before);
        // The replay made no second entry: still the one, the same.
        expect(await transferEntry(sandbox, String(b.retrievalReference))).toEqual(entry);
      }
    },
  );

  it('fails a transfer bigger than the balance with 400 Insufficient Funds 51, no debit', async () => {
    await setBalance(sandbox, A.a1.id, 200000);
    const overReference = ref('over');
    const over = await send(body({ amount: 200000, retrievalReference: overReference }));
    expect(over.status).toBe(400);
    expect(over.body).toStrictEqual({ status: false, message: 'Insufficient Funds', data: null });
    expect(await transferEntry(sandbox, overReference)).toMatchObject({
      status: 'failed',
      errorCode: '51',
      errorMessage: 'Insufficient Funds',
    });
    expect(await balanceOf(sandbox, headers)).toBe(200000);
    // amount + fee exactly equal to the balance goes through and leaves 0.
    const exact = await send(body({ amount: 200000 - 1075 }));
    expect(exact.status).toBe(200);
    expect(await balanceOf(sandbox, headers)).toBe(0);
    const emptyReference = ref('empty');
    const empty = await send(body({ amount: 1, retrievalReference: emptyReference }));
    expect(empty.status).toBe(400);
    expect(empty.body).toStrictEqual({ status: false, message: 'Insufficient Funds', data: null });
    expect(await transferEntry(sandbox, emptyReference)).toMatchObject({ status: 'failed', errorCode: '51' });
    expect(await balanceOf(sandbox, headers)).toBe(0);
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });

  it('keeps a failed transfer’s reference on its ledger entry, and a dispute can be opened on it', async () => {
    const retrievalReference = ref('to-dispute');
    const res = await send(body({ receiverAccountNumber: '0000000091', retrievalReference }));
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ status: false, message: 'Beneficiary Bank not available', data: null });
    const entry = await transferEntry(sandbox, retrievalReference);
    expect(entry).toMatchObject({ status: 'failed', retrievalReference, errorCode: '91' });
    expect(entry.id).toMatch(/\S/);
    const disputes = '/api/v1/clients/business/disputes';
    const opened = await call(sandbox, 'POST', disputes, {
      headers,
      body: { transactionId: entry.id, description: 'The transfer failed; was I charged?' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const listed = await call(sandbox, 'GET', `${disputes}?transactionId=${encodeURIComponent(entry.id)}`, {
      headers,
    });
    expect(listed.status).toBe(200);
    expect(pageOf(listed, dispute).data).toEqual([
      expect.objectContaining({ transactionId: entry.id, status: 'open' }),
    ]);
  });

  it('answers 400 No payment account for this business to A2', async () => {
    const res = await send(body(), { ...headers, businessId: A.a2.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: NO_ACCOUNT, data: null });
  });

  // A Viewer's 403, with nothing debited (the whole state unchanged): route-auth.test.ts, on both transfer routes.
  it('lets a Manager transfer', async () => {
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const before = await balanceOf(sandbox, headers);
    const res = await send(body({ amount: 600000 }), manager);
    expect(res.status).toBe(200);
    expect(dataOf(res, transferResult).totalAmount).toBe('602688');
    expect(await balanceOf(sandbox, headers)).toBe(before - 602688);
  });

  it('keeps balance === ledgerBalance after all of it, with failed entries marked failed', async () => {
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger).toMatchObject({
      openingBalance: expect.any(Number),
      balance: expect.any(Number),
      ledgerBalance: expect.any(Number),
      transactions: expect.any(Array),
    });
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(ledger.balance).toBe(await balanceOf(sandbox, headers));
    const failed = ledger.transactions.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(10);
    expect(new Set(failed.map((t) => t.errorCode))).toEqual(new Set(['51', '07', '91', '96']));
    for (const t of failed) expect(t.errorMessage).not.toBe('');
  });
});

describe('transfer and anonymous transfer together', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await ownerHeaders(sandbox);
  });

  it('share one reference space per business: another body on the other endpoint is 409', async () => {
    const retrievalReference = ref('cross');
    const first = await call(sandbox, 'POST', TRANSFER, { headers, body: body({ retrievalReference }) });
    expect(first.status).toBe(200);
    const before = await balanceOf(sandbox, headers);
    const res = await call(sandbox, 'POST', ANONYMOUS, {
      headers,
      body: body({ retrievalReference, amount: 999999 }),
    });
    expect(res.status).toBe(409);
    expect(await balanceOf(sandbox, headers)).toBe(before);

    const reverse = ref('cross');
    const anon = await call(sandbox, 'POST', ANONYMOUS, {
      headers,
      body: body({ retrievalReference: reverse }),
    });
    expect(anon.status).toBe(200);
    const conflict = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: body({ retrievalReference: reverse, amount: 777777 }),
    });
    expect(conflict.status).toBe(409);
    expect(await balanceOf(sandbox, headers)).toBe(before - 151075);
  });

  it('never debits twice for one reference, whichever endpoint repeats it', async () => {
    const b = body({ retrievalReference: ref('cross-same') });
    const first = await call(sandbox, 'POST', TRANSFER, { headers, body: b });
    expect(first.status).toBe(200);
    const before = await balanceOf(sandbox, headers);
    const again = await call(sandbox, 'POST', ANONYMOUS, { headers, body: b });
    expect(again.status).not.toBe(500);
    expect(await balanceOf(sandbox, headers)).toBe(before);
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.transactions.filter((t) => t.retrievalReference === b.retrievalReference)).toHaveLength(1);
  });

  it('after a mix of successes and failures the ledger explains the balance', async () => {
    const opening = await balanceOf(sandbox, headers);
    const outcomes: { path: string; b: Record<string, unknown>; status: number }[] = [
      { path: TRANSFER, b: body({ amount: 500000 }), status: 200 },
      { path: ANONYMOUS, b: body({ amount: 500001 }), status: 200 },
      { path: TRANSFER, b: body({ receiverAccountNumber: '0000000051' }), status: 400 },
      { path: ANONYMOUS, b: body({ receiverAccountNumber: '0000000007' }), status: 400 },
      { path: TRANSFER, b: body({ receiverAccountNumber: '0000000091' }), status: 400 },
      { path: ANONYMOUS, b: body({ receiverAccountNumber: '0000000096' }), status: 400 },
      { path: TRANSFER, b: body({ amount: 5000001 }), status: 200 },
    ];
    let debited = 0;
    for (const o of outcomes) {
      const res = await call(sandbox, 'POST', o.path, { headers, body: o.b });
      expect(res.status).toBe(o.status);
      if (res.status === 200) debited += Number(dataOf(res, transferResult).totalAmount);
    }
    expect(debited).toBe(500000 + 1075 + 500001 + 2688 + 5000001 + 5375);
    expect(await balanceOf(sandbox, headers)).toBe(opening - debited);

    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    expect(ledger.balance).toBe(opening - debited);
    for (const [o, code] of [
      [outcomes[2], '51'],
      [outcomes[3], '07'],
      [outcomes[4], '91'],
      [outcomes[5], '96'],
    ] as const) {
      const entry = ledger.transactions.find((t) => t.retrievalReference === o?.b.retrievalReference);
      expect(entry).toMatchObject({ status: 'failed', errorCode: code });
    }
    for (const o of [outcomes[0], outcomes[1], outcomes[6]]) {
      const entry = ledger.transactions.find((t) => t.retrievalReference === o?.b.retrievalReference);
      expect(entry?.status).toBe('successful');
    }
  });

  it('records an over-balance transfer in the ledger as failed with errorCode 51', async () => {
    await setBalance(sandbox, A.a1.id, 1000);
    const retrievalReference = ref('over');
    const res = await call(sandbox, 'POST', ANONYMOUS, { headers, body: body({ retrievalReference }) });
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ status: false, message: 'Insufficient Funds', data: null });
    const ledger = await ledgerOf(sandbox, A.a1.id);
    expect(ledger.balance).toBe(1000);
    expect(ledger.balance).toBe(ledger.ledgerBalance);
    const entry = ledger.transactions.find((t) => t.retrievalReference === retrievalReference);
    expect(entry).toMatchObject({ status: 'failed', errorCode: '51' });
    await setBalance(sandbox, A.a1.id, 500_000_000);
  });
});

describe('the ledger’s ?retrievalReference= filter', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await ownerHeaders(sandbox);
  });

  const ledgerFor = (businessId: string, retrievalReference: string) =>
    call(
      sandbox,
      'GET',
      `/__sandbox/businesses/${businessId}/ledger?retrievalReference=${encodeURIComponent(retrievalReference)}`,
    );

  it('finds the one entry of a successful and of a failed transfer, among others', async () => {
    const ok = ref('filter-ok');
    const failed = ref('filter-failed');
    for (const b of [
      body({ retrievalReference: ref('filter-other') }),
      body({ retrievalReference: ok, amount: 123456 }),
      body({ retrievalReference: failed, receiverAccountNumber: '0000000007' }),
      body({ retrievalReference: ref('filter-other') }),
    ])
      await call(sandbox, 'POST', TRANSFER, { headers, body: b });
    const all = await ledgerOf(sandbox);
    expect(all.transactions.length).toBeGreaterThanOrEqual(4);

    const okRes = await ledgerFor(A.a1.id, ok);
    expect(okRes.status).toBe(200);
    const okView = dataOf(okRes, ledger);
    expect(okView.transactions).toHaveLength(1);
    expect(okView.transactions[0]).toMatchObject({
      retrievalReference: ok,
      status: 'successful',
      amount: 123456,
      charge: 1075,
      errorCode: '',
    });
    // The balances are the business's, whatever the filter.
    expect(okView).toMatchObject({ balance: all.balance, ledgerBalance: all.ledgerBalance });

    const failedView = dataOf(await ledgerFor(A.a1.id, failed), ledger);
    expect(failedView.transactions).toHaveLength(1);
    expect(failedView.transactions[0]).toMatchObject({
      retrievalReference: failed,
      status: 'failed',
      errorCode: '07',
      errorMessage: 'Invalid Account',
    });
    // The id it shows is the entry's in the whole ledger.
    expect(all.transactions.find((t) => t.retrievalReference === failed)?.id).toBe(
      failedView.transactions[0]?.id,
    );
  });

  it('finds nothing for an unknown reference, or for another business’s', async () => {
    const mine = ref('filter-mine');
    expect(
      (await call(sandbox, 'POST', TRANSFER, { headers, body: body({ retrievalReference: mine }) })).status,
    ).toBe(200);
    const unknown = await ledgerFor(A.a1.id, 'no-such-reference');
    expect(unknown.status).toBe(200);
    expect(dataOf(unknown, ledger).transactions).toEqual([]);
    const elsewhere = await ledgerFor(B.b1.id, mine);
    expect(elsewhere.status).toBe(200);
    expect(dataOf(elsewhere, ledger).transactions).toEqual([]);
  });
});
