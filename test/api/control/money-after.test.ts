import { describe, expect, it } from 'vitest';
import { transferResult } from '../../../src/contract/api/transfers.js';
import { suspenseTransaction } from '../../../src/contract/api/virtual-accounts.js';
import { refund, reversal } from '../../../src/contract/control/reversals.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import {
  accountBalance,
  feeFor,
  ledgerOf,
  references,
  setBalance,
  transferEntry,
} from '../../support/money.js';
import { A, call, closedAfterEach, ownerHeaders, schemeB } from '../../support/sandbox.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
const AUDITS = '/api/v1/clients/business/audits';
const SUSPENSE = '/api/v1/clients/business/virtual-account';
const SINGLE_USE = '/api/v1/clients/business/virtual-accounts/single-use';
const HOUR = 3_600_000;
const ref = references('after');

const reversePath = (reference: string, business = A.a1.id) =>
  `/__sandbox/businesses/${business}/transfers/${reference}/reverse`;

function transferBody(retrievalReference: string, receiverAccountNumber = '0123456789') {
  return {
    amount: 150000,
    receiverAccountNumber,
    receiverBankCode: '058',
    retrievalReference,
    narration: 'Pay',
  };
}

const { sandboxFor } = closedAfterEach();

/** A sandbox with its clock frozen, client A's owner's headers, and rules put in front. */
async function world(rules: unknown[] = []) {
  const sandbox = await sandboxFor();
  expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} })).status).toBe(200);
  if (rules.length > 0) {
    const added = await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return { sandbox, headers: await ownerHeaders(sandbox) };
}

/** The business's balance as the bank's account-details shows it, signed in afresh (time moves past tokens). */
const balance = async (sandbox: Sandbox, _headers?: Record<string, string>) =>
  Number(await accountBalance(sandbox, await ownerHeaders(sandbox)));

/** The data of a page the bank's API answers, as plain records. */
const rows = (res: { body: { data?: unknown } }) => res.body.data as Record<string, unknown>[];

const advance = (sandbox: Sandbox, ms: number) =>
  call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms } });

describe('the answer lost after the commit', () => {
  it('a transfer rule: commits, debits once, answers 504; a replay answers the committed answer, no second debit', async () => {
    const { sandbox, headers } = await world([
      { on: 'transfer', effect: { after: 'commit', http: { status: 504 } }, times: 1 },
    ]);
    const before = await balance(sandbox, headers);
    const reference = ref('lost');
    const lost = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    expect(lost.status).toBe(504);
    expect(lost.body).toEqual({ status: false, message: 'Gateway Timeout', data: null });
    const total = 150000 + feeFor(150000);
    expect(await balance(sandbox, headers)).toBe(before - total);
    expect(await transferEntry(sandbox, reference)).toMatchObject({ status: 'successful', amount: 150000 });
    // The journal: what went on the wire, and what the call committed to.
    const [entry] = await sandbox.requests({ path: TRANSFER });
    expect(entry?.status).toBe(504);
    expect(entry?.committed).toEqual({
      status: 200,
      body: { status: true, message: 'Transfer successful', data: expect.any(Object) },
    });
    // The app retries with the same reference: the committed answer, no second debit.
    const retry = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    expect(retry.status).toBe(200);
    expect(dataOf(retry, transferResult)).toEqual({
      amount: '150000',
      transactionCharge: String(feeFor(150000)),
      totalAmount: String(total),
    });
    expect(await balance(sandbox, headers)).toBe(before - total);
    const audits = rows(await call(sandbox, 'GET', `${AUDITS}?action=transfer`, { headers }));
    expect(audits).toHaveLength(1);
  });

  it('a fault after the commit: no answer (the 502 stand-in in process), the transfer committed', async () => {
    const { sandbox, headers } = await world([
      { on: 'transfer', effect: { after: 'commit', fault: { kind: 'reset' } } },
    ]);
    const reference = ref('reset');
    const lost = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    expect(lost.status).toBe(502);
    expect(lost.headers.get('x-sandbox-fault')).toBe('reset');
    expect(await transferEntry(sandbox, reference)).toMatchObject({ status: 'successful' });
    const [entry] = await sandbox.requests({ path: TRANSFER });
    expect(entry?.fault).toBe('reset');
    expect(entry?.committed?.status).toBe(200);
  });

  it('a transfer the bank refuses (a magic account) commits its failure, and the client still loses the answer', async () => {
    const { sandbox, headers } = await world([
      { on: 'transfer', effect: { after: 'commit', http: { status: 504 } } },
    ]);
    const before = await balance(sandbox, headers);
    const reference = ref('magic');
    const lost = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody(reference, '0000000051'),
    });
    expect(lost.status).toBe(504);
    expect(await balance(sandbox, headers)).toBe(before);
    expect(await transferEntry(sandbox, reference)).toMatchObject({ status: 'failed', errorCode: '51' });
    const [entry] = await sandbox.requests({ path: TRANSFER });
    expect(entry?.committed).toMatchObject({ status: 400, body: { message: 'Insufficient Funds' } });
    const retry = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody(reference, '0000000051'),
    });
    expect(retry.status).toBe(400);
    expect(retry.body.message).toBe('Insufficient Funds');
  });

  it('an http rule on any route: the payout account is created, the client gets the 504', async () => {
    const { sandbox, headers } = await world([
      {
        on: 'http',
        match: { method: 'POST', path: '/payouts$' },
        effect: { after: 'commit', http: { status: 504, message: 'Upstream timed out' } },
      },
    ]);
    const payouts = '/api/v1/clients/business/payouts';
    const before = rows(await call(sandbox, 'GET', payouts, { headers })).length;
    const created = await call(sandbox, 'POST', payouts, {
      headers,
      body: { accountName: 'Ada Obi', accountNumber: '1234567890', bankName: 'GTBank', bankCode: '058' },
    });
    expect(created.status).toBe(504);
    expect(created.body.message).toBe('Upstream timed out');
    expect(rows(await call(sandbox, 'GET', payouts, { headers })).length).toBe(before + 1);
    const [entry] = await sandbox.requests({ path: payouts, method: 'POST' });
    expect(entry?.committed?.status).toBe(201);
  });

  it('a bulk create and process, then the answer lost: the batch runs', async () => {
    const { sandbox } = await world([
      {
        on: 'http',
        match: { method: 'POST', path: '/bulk-transfer/process$' },
        effect: { after: 'commit', fault: { kind: 'empty' } },
      },
    ]);
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const created = await call(sandbox, 'POST', BULK, {
      headers: keys,
      body: { batchName: 'Lost', transfers: [{ ...transferBody(ref('bulk-lost')) }] },
    });
    expect(created.status).toBe(201);
    const id = (created.body.data as { id: string }).id;
    const processed = await call(sandbox, 'POST', `${BULK}/process`, {
      headers: keys,
      body: { bulkTransferId: id },
    });
    expect(processed.status).toBe(502);
    expect(processed.headers.get('x-sandbox-fault')).toBe('empty');
    await sandbox.drain();
    const batch = await call(sandbox, 'GET', `/__sandbox/bulk-transfers/${id}`);
    expect((batch.body.data as { status: string }).status).toBe('completed');
  });

  it.each([
    [{ on: 'transfer', effect: { after: 'commit' } }, 'rules[0].effect.after'],
    [{ on: 'transfer', effect: { http: { status: 504 } } }, 'rules[0].effect.http'],
    [{ on: 'transfer', effect: { fault: { kind: 'reset' } } }, 'rules[0].effect.fault'],
    [{ on: 'webhook', effect: { after: 'commit', webhook: 'drop' } }, 'rules[0].effect.after'],
    [
      { on: 'bulk.item', effect: { after: 'commit', fail: { errorCode: '96', errorMessage: 'x' } } },
      'rules[0].effect.after',
    ],
    [{ on: 'webhook', effect: { webhook: 'drop', afterMs: 10 } }, 'rules[0].effect.afterMs'],
    [{ on: 'webhook', effect: { webhook: 'duplicate', afterMs: 604_800_001 } }, 'rules[0].effect.afterMs'],
    [{ on: 'transfer', effect: { reverse: { afterMs: 2_592_000_001 } } }, 'rules[0].effect.reverse.afterMs'],
    [{ on: 'transfer', effect: { reverse: { afterMs: -1 } } }, 'rules[0].effect.reverse.afterMs'],
    [{ on: 'http', effect: { reverse: { afterMs: 1 } } }, 'rules[0].effect.reverse'],
    [
      { on: 'transfer', effect: { reverse: { afterMs: 1 }, fail: { errorCode: '96', errorMessage: 'x' } } },
      'rules[0].effect.fail',
    ],
  ])('refuses %j with 400 naming %s, and the rules in force stay', async (rule, field) => {
    const { sandbox } = await world();
    const before = await call(sandbox, 'GET', '/__sandbox/scenario');
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules: [rule] } });
    expect(res.status).toBe(400);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toContain(field);
    expect((await call(sandbox, 'GET', '/__sandbox/scenario')).body).toEqual(before.body);
  });
});

describe('reversals by control call', () => {
  it('credits totalAmount back as one reversal entry, marks the original, writes an audit entry; the replay still answers Transfer successful', async () => {
    const { sandbox, headers } = await world();
    const reference = ref('reverse');
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) })).status).toBe(
      200,
    );
    const before = await balance(sandbox, headers);
    const original = await transferEntry(sandbox, reference);
    const res = await call(sandbox, 'POST', reversePath(reference), { body: { reason: 'Account closed' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transfer reversed');
    const total = 150000 + feeFor(150000);
    expect(dataOf(res, reversal)).toEqual({
      retrievalReference: reference,
      transactionReference: original.id,
      amount: '150000',
      transactionCharge: String(feeFor(150000)),
      totalAmount: String(total),
      reason: 'Account closed',
      reversedAt: expect.any(String),
    });
    expect(await balance(sandbox, headers)).toBe(before + total);
    const ledger = await ledgerOf(sandbox);
    const entries = ledger.transactions.filter((t) => t.kind === 'reversal');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      direction: 'credit',
      status: 'successful',
      amount: total,
      reverses: { retrievalReference: reference, transactionReference: original.id },
    });
    expect(ledger.ledgerBalance).toBe(ledger.balance);
    // The reference filter still finds the original, now marked.
    expect(await transferEntry(sandbox, reference)).toMatchObject({
      id: original.id,
      reversalReason: 'Account closed',
      reversedAt: expect.any(String),
    });
    const audits = rows(
      await call(sandbox, 'GET', `${AUDITS}?action=reversal`, { headers: await ownerHeaders(sandbox) }),
    );
    expect(audits).toEqual([expect.objectContaining({ action: 'reversal', type: 'transaction' })]);
    // The bank's documented answer does not change.
    const replay = await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    expect(replay.status).toBe(200);
    expect(replay.body.message).toBe('Transfer successful');
    expect(await balance(sandbox, headers)).toBe(before + total);
  });

  it('refuses a second reversal, a failed transfer, an unknown reference or business, and a bad field: nothing changes', async () => {
    const { sandbox, headers } = await world();
    const done = ref('twice');
    const failed = ref('failed');
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(done) });
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(failed, '0000000051') });
    expect((await call(sandbox, 'POST', reversePath(done), { body: {} })).status).toBe(200);
    const before = await ledgerOf(sandbox);
    const again = await call(sandbox, 'POST', reversePath(done), { body: {} });
    expect([again.status, again.body.message]).toEqual([409, 'Transfer already reversed']);
    const notOk = await call(sandbox, 'POST', reversePath(failed), { body: {} });
    expect([notOk.status, notOk.body.message]).toEqual([409, 'Only a successful transfer can be reversed']);
    const unknown = await call(sandbox, 'POST', reversePath('never-sent'), { body: {} });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Transfer not found']);
    const noBusiness = await call(
      sandbox,
      'POST',
      reversePath(done, '00000000-0000-4000-8000-000000000000'),
      {
        body: {},
      },
    );
    expect([noBusiness.status, noBusiness.body.message]).toEqual([404, 'Business not found']);
    const bad = await call(sandbox, 'POST', reversePath(done), { body: { reason: 7 } });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { field: string }[])[0]?.field).toBe('reason');
    expect(await ledgerOf(sandbox)).toEqual(before);
  });

  it('reverses a completed bulk item (it stays completed in the bank’s view), refuses a failed one, and asks for the batch when two share the reference', async () => {
    const { sandbox, headers } = await world();
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const shared = ref('shared');
    const batches: string[] = [];
    for (const name of ['One', 'Two']) {
      const created = await call(sandbox, 'POST', BULK, {
        headers: keys,
        body: {
          batchName: name,
          transfers: [transferBody(shared), transferBody(`${shared}-f`, '0000000051')],
        },
      });
      const id = (created.body.data as { id: string }).id;
      batches.push(id);
      await call(sandbox, 'POST', `${BULK}/process`, { headers: keys, body: { bulkTransferId: id } });
    }
    await sandbox.drain();
    const ambiguous = await call(sandbox, 'POST', reversePath(shared), { body: {} });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.message).toContain(`batch ${batches[0]}`);
    expect(ambiguous.body.message).toContain('give bulkTransferId');
    const before = await balance(sandbox, headers);
    const ok = await call(sandbox, 'POST', reversePath(shared), { body: { bulkTransferId: batches[1] } });
    expect(ok.status).toBe(200);
    expect(await balance(sandbox, headers)).toBe(before + 150000 + feeFor(150000));
    const failedItem = await call(sandbox, 'POST', reversePath(`${shared}-f`), {
      body: { bulkTransferId: batches[0] },
    });
    expect([failedItem.status, failedItem.body.message]).toEqual([
      409,
      'Only a successful transfer can be reversed',
    ]);
    const control = await call(sandbox, 'GET', `/__sandbox/bulk-transfers/${batches[1]}`);
    const item = (control.body.data as { items: Record<string, unknown>[] }).items[0];
    expect(item).toMatchObject({
      status: 'completed',
      reversedAt: expect.any(String),
      reversalReason: expect.any(String),
    });
    const bank = await call(sandbox, 'GET', `${BULK}/${batches[1]}`, { headers: keys });
    const bankItem = (bank.body.data as { items: Record<string, unknown>[] }).items[0];
    expect(bankItem?.status).toBe('completed');
    expect(bankItem).not.toHaveProperty('reversedAt');
  });

  it('refuses to reverse an item that is still pending', async () => {
    const { sandbox } = await world();
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const reference = ref('pending');
    await call(sandbox, 'POST', BULK, {
      headers: keys,
      body: { batchName: 'Later', transfers: [transferBody(reference)] },
    });
    const res = await call(sandbox, 'POST', reversePath(reference), { body: {} });
    expect([res.status, res.body.message]).toEqual([409, 'Only a successful transfer can be reversed']);
  });

  it('the handle reverses and refunds too', async () => {
    const { sandbox, headers } = await world();
    const reference = ref('handle');
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    const reversed = await sandbox.reverseTransfer(A.a1.id, reference, { reason: 'By hand' });
    expect(reversed.reason).toBe('By hand');
    await expect(sandbox.reverseTransfer(A.a1.id, reference)).rejects.toMatchObject({ status: 409 });
  });
});

describe('scheduled reversals', () => {
  it('a transfer rule reverses the transfer afterMs later on the sandbox clock, not before; drain does not wait for it', async () => {
    const { sandbox, headers } = await world([{ on: 'transfer', effect: { reverse: { afterMs: HOUR } } }]);
    const reference = ref('later');
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) })).status).toBe(
      200,
    );
    const after = await balance(sandbox, headers);
    await sandbox.drain();
    await advance(sandbox, HOUR - 1);
    expect(await transferEntry(sandbox, reference)).not.toHaveProperty('reversedAt');
    expect(await balance(sandbox, headers)).toBe(after);
    await advance(sandbox, 1);
    expect(await transferEntry(sandbox, reference)).toMatchObject({
      reversedAt: expect.any(String),
      reversalReason: 'Reversed by the receiving bank',
    });
    expect(await balance(sandbox, headers)).toBe(after + 150000 + feeFor(150000));
    expect(sandbox.store.all('scheduled')).toEqual([]);
    await advance(sandbox, HOUR);
    expect((await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'reversal')).toHaveLength(1);
  });

  it('drain waits for a reversal already due on a running clock', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: [{ on: 'transfer', effect: { reverse: { afterMs: 0 } } }] },
    });
    const headers = await ownerHeaders(sandbox);
    const reference = ref('due-now');
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) })).status).toBe(
      200,
    );
    await sandbox.drain();
    expect((await transferEntry(sandbox, reference)).reversedAt).toBeDefined();
  });

  it('a transfer that failed is never reversed, and the rules after a reverse rule still apply', async () => {
    const { sandbox, headers } = await world([{ on: 'transfer', effect: { reverse: { afterMs: 0 } } }]);
    const reference = ref('never');
    const res = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody(reference, '0000000007'),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid Account');
    await sandbox.drain();
    expect(sandbox.store.all('scheduled')).toEqual([]);
  });

  it('a reversal made by hand before the moment leaves the scheduled one nothing to do', async () => {
    const { sandbox, headers } = await world([{ on: 'transfer', effect: { reverse: { afterMs: HOUR } } }]);
    const reference = ref('hand-first');
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference) });
    expect((await call(sandbox, 'POST', reversePath(reference), { body: {} })).status).toBe(200);
    await advance(sandbox, HOUR);
    expect((await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'reversal')).toHaveLength(1);
  });

  it('a bulk.item rule reverses the completed item later', async () => {
    const { sandbox, headers } = await world([
      {
        on: 'bulk.item',
        match: { itemIndex: { min: 1, max: 1 } },
        effect: { reverse: { afterMs: 1000, reason: 'Returned' } },
      },
    ]);
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const first = ref('item0');
    const second = ref('item1');
    const created = await call(sandbox, 'POST', BULK, {
      headers: keys,
      body: { batchName: 'Returns', transfers: [transferBody(first), transferBody(second)] },
    });
    const id = (created.body.data as { id: string }).id;
    await call(sandbox, 'POST', `${BULK}/process`, { headers: keys, body: { bulkTransferId: id } });
    await sandbox.drain();
    const settled = await balance(sandbox, headers);
    await advance(sandbox, 1000);
    expect(await balance(sandbox, headers)).toBe(settled + 150000 + feeFor(150000));
    const control = await call(sandbox, 'GET', `/__sandbox/bulk-transfers/${id}`);
    const items = (control.body.data as { items: Record<string, unknown>[] }).items;
    expect(items[0]).not.toHaveProperty('reversedAt');
    expect(items[1]).toMatchObject({ status: 'completed', reversalReason: 'Returned' });
  });

  it('works in an isolated sandbox, apart from the root', async () => {
    const { sandbox } = await world();
    const isolated = await sandbox.isolate({ clock: '2026-01-01T00:00:00.000Z' });
    await isolated.setScenario({
      name: 'later',
      description: 'reverse every transfer an hour later',
      rules: [{ on: 'transfer', match: {}, effect: { reverse: { afterMs: HOUR } } }],
    });
    const [client] = await isolated.credentials();
    if (!client) throw new Error('the isolated sandbox has no client');
    const headers = await isolated.signIn(client);
    const reference = ref('isolated');
    const res = await isolated.app.request('/api/v1/clients/business/customers/funds/transfer', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(transferBody(reference)),
    });
    expect(res.status).toBe(200);
    await isolated.clock.advance(HOUR);
    const entry = (await isolated.ledger(A.a1.id, { retrievalReference: reference })).transactions[0];
    expect(entry?.reversedAt).toBeDefined();
    expect((await ledgerOf(sandbox)).transactions.some((t) => t.kind === 'reversal')).toBe(false);
    await isolated.dispose();
  });
});

describe('mispaid money and refunds', () => {
  async function singleUse(sandbox: Sandbox, headers: Record<string, string>, amount = 500000) {
    const res = await call(sandbox, 'POST', SINGLE_USE, {
      headers,
      body: { firstName: 'Ada', lastName: 'Obi', refCode: ref('su'), amount, duration: 3600 },
    });
    expect(res.status).toBe(201);
    return (res.body.data as { accountNumber: string }).accountNumber;
  }
  const suspense = async (sandbox: Sandbox, _headers?: Record<string, string>) =>
    rows(await call(sandbox, 'GET', SUSPENSE, { headers: await ownerHeaders(sandbox) })).map((t) =>
      suspenseTransaction().parse(t),
    );

  it('refuses a wrong amount by default (409, nothing credited)', async () => {
    const { sandbox, headers } = await world();
    const account = await singleUse(sandbox, headers);
    const before = await balance(sandbox, headers);
    const res = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: account, amount: 1000 },
    });
    expect(res.status).toBe(409);
    expect(await balance(sandbox, headers)).toBe(before);
  });

  it('mispaid: refund credits it, lists it pending, and refunds it --refund-delay later; the account still takes its right payment', async () => {
    const { sandbox, headers } = await world();
    const account = await singleUse(sandbox, headers);
    const before = await balance(sandbox, headers);
    const res = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: account, amount: 100000, mispaid: 'refund' },
    });
    expect(res.status).toBe(201);
    const reference = (res.body.data as { transactionReference: string }).transactionReference;
    const credited = await balance(sandbox, headers);
    expect(credited).toBeGreaterThan(before);
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === reference)?.refundStatus).toBe(
      'pending',
    );
    await advance(sandbox, 600_000 - 1);
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === reference)?.refundStatus).toBe(
      'pending',
    );
    await advance(sandbox, 1);
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === reference)?.refundStatus).toBe(
      'refunded',
    );
    expect(await balance(sandbox, headers)).toBe(before);
    const refunds = (await ledgerOf(sandbox)).transactions.filter((t) => t.kind === 'refund');
    expect(refunds).toEqual([
      expect.objectContaining({ direction: 'debit', refunds: reference, amount: credited - before }),
    ]);
    const right = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: account, amount: 500000 },
    });
    expect(right.status).toBe(201);
  });

  it('a refund the balance cannot cover becomes failed and debits nothing', async () => {
    const { sandbox, headers } = await world();
    const account = await singleUse(sandbox, headers);
    const res = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: account, amount: 100000, mispaid: 'refund' },
    });
    const reference = (res.body.data as { transactionReference: string }).transactionReference;
    await setBalance(sandbox, A.a1.id, 10);
    await advance(sandbox, 600_000);
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === reference)?.refundStatus).toBe(
      'failed',
    );
    expect(await balance(sandbox, headers)).toBe(10);
  });

  it('refunds a payment at once by control call; again 409; unknown 404; short of money 409 and nothing changes', async () => {
    const { sandbox, headers } = await world();
    const account = await singleUse(sandbox, headers, 200000);
    const paid = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: account, amount: 200000 },
    });
    const reference = (paid.body.data as { transactionReference: string }).transactionReference;
    const before = await balance(sandbox, headers);
    const ok = await call(sandbox, 'POST', `/__sandbox/incoming-payments/${reference}/refund`, {
      body: { reason: 'Wrong payer' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Payment refunded');
    const view = dataOf(ok, refund);
    expect(view).toMatchObject({
      transactionReference: reference,
      refundStatus: 'refunded',
      reason: 'Wrong payer',
    });
    expect(await balance(sandbox, headers)).toBe(before - Number(view.amount));
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === reference)?.refundStatus).toBe(
      'refunded',
    );
    const again = await call(sandbox, 'POST', `/__sandbox/incoming-payments/${reference}/refund`, {
      body: {},
    });
    expect([again.status, again.body.message]).toEqual([409, 'Payment already refunded']);
    const unknown = await call(sandbox, 'POST', '/__sandbox/incoming-payments/SBX0000000000000/refund', {
      body: {},
    });
    expect(unknown.status).toBe(404);
    const other = await singleUse(sandbox, headers, 300000);
    const second = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: other, amount: 300000 },
    });
    const secondRef = (second.body.data as { transactionReference: string }).transactionReference;
    await setBalance(sandbox, A.a1.id, 5);
    const short = await call(sandbox, 'POST', `/__sandbox/incoming-payments/${secondRef}/refund`, {
      body: {},
    });
    expect(short.status).toBe(409);
    expect(short.body.message).toMatch(/cannot cover the refund/);
    expect(await balance(sandbox, headers)).toBe(5);
    expect((await suspense(sandbox, headers)).find((t) => t.transactionId === secondRef)?.refundStatus).toBe(
      'none',
    );
  });
});
