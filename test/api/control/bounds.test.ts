// A control answer that grows with the state is a page (the ledger, the outbox, the
// credentials), and the one that cannot be (the state export) is streamed a chunk at a time.

import { beforeAll, describe, expect, it } from 'vitest';
import { createdBusiness } from '../../../src/contract/api/business.js';
import { credentials } from '../../../src/contract/control/clients.js';
import { ledger } from '../../../src/contract/control/money.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import { fixture } from '../../../src/contract/examples.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { setBalance } from '../../support/money.js';
import { pageAt } from '../../support/pagination.js';
import { A, B, call, memorySandbox, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';

const sandbox = useSandbox();
beforeAll(async () => {
  // 150 balance adjustments: 150 ledger entries of A1, each a different balance.
  for (let i = 1; i <= 150; i++) await setBalance(sandbox, A.a1.id, 500_000_000 + i);
});

const ledgerPage = async (query = '') => {
  const res = await call(sandbox, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return dataOf(res, ledger);
};

describe('GET /__sandbox/businesses/{id}/ledger', () => {
  it('answers a page of 100 entries by default, newest first, with its pagination and the whole balances', async () => {
    const first = await ledgerPage();
    expect(first.transactions).toHaveLength(100);
    expect(first.transactions[0]?.balanceAfter).toBe(500_000_150);
    expect(first.transactions[99]?.balanceAfter).toBe(500_000_051);
    // 150 entries made here, after the 2 payments the fixtures give A1.
    expect(first.pagination).toEqual(pageAt(1, { totalCount: 152, limit: 100, lastPage: 2 }));
    // The balances are the business's, not the page's.
    expect(first).toMatchObject({ balance: 500_000_150, ledgerBalance: 500_000_150 });
    const second = await ledgerPage('?page=2');
    expect(second.transactions.map((t) => t.balanceAfter)).toEqual([
      ...Array.from({ length: 50 }, (_, i) => 500_000_050 - i),
      // The fixtures' payments: the fixture balance is the balance after them.
      500_000_000,
      500_000_000 - (1_250_000 - 6_250),
    ]);
    expect(second.transactions.slice(50).map((t) => t.id)).toEqual([
      fixture.payment,
      fixture.disputedPayment,
    ]);
    expect(second.pagination).toMatchObject({ hasNextPage: false, previousPage: 1 });
  });

  it('takes a limit up to 1000, and refuses one past it', async () => {
    expect((await ledgerPage('?limit=1000')).transactions).toHaveLength(152);
    expect((await ledgerPage('?limit=7&page=3')).transactions.map((t) => t.balanceAfter)).toEqual(
      Array.from({ length: 7 }, (_, i) => 500_000_136 - i),
    );
    for (const query of ['?limit=1001', '?limit=0', '?page=0']) {
      const res = await call(sandbox, 'GET', `/__sandbox/businesses/${A.a1.id}/ledger${query}`);
      expect(res.status, query).toBe(400);
    }
  });
});

describe('GET /__sandbox/outbox', () => {
  it('is a page: 100 messages by default, newest first', async () => {
    for (let i = 0; i < 105; i++) {
      const res = await call(sandbox, 'POST', '/__sandbox/clients', { body: { name: `Outbox ${i}` } });
      expect(res.status).toBe(201);
    }
    // A BVN validated for a new business sends its one-time password to the outbox: 105 of them.
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey);
    for (let i = 0; i < 105; i++) {
      const made = await call(sandbox, 'POST', '/api/v1/clients/business', {
        headers,
        body: { businessName: `Outbox Business ${i}`, countryId: 'NG', isNewBusiness: true },
      });
      expect(made.status).toBe(201);
      const validated = await call(sandbox, 'POST', '/api/v1/clients/business/validate-bvn', {
        headers,
        body: { bvn: '12345678901', businessId: dataOf(made, createdBusiness).business.id },
      });
      expect(validated.status).toBe(200);
    }
    const first = pageOf(await call(sandbox, 'GET', '/__sandbox/outbox?type=bvn_otp'), outboxMessage);
    expect(first.data).toHaveLength(100);
    expect(first.data[0]?.subject).toContain('Outbox Business 104');
    expect(first.pagination).toMatchObject({ totalCount: 105, hasNextPage: true, limit: 100 });
    const rest = pageOf(await call(sandbox, 'GET', '/__sandbox/outbox?type=bvn_otp&page=2'), outboxMessage);
    expect(rest.data.map((m) => m.subject)).toEqual(
      [4, 3, 2, 1, 0].map((i) => `Your BVN validation code for Outbox Business ${i}`),
    );
  });
});

describe('GET /__sandbox/credentials', () => {
  it('is a page of clients in the order they were made, the fixtures first, with pagination in data', async () => {
    const all = dataOf(await call(sandbox, 'GET', '/__sandbox/credentials?limit=1000'), credentials);
    expect(all.clients.length).toBeGreaterThan(100);
    expect(all.clients.slice(0, 2).map((c) => c.clientId)).toEqual([A.id, B.id]);
    const first = dataOf(await call(sandbox, 'GET', '/__sandbox/credentials'), credentials);
    expect(first.clients).toHaveLength(100);
    expect(first.pagination).toMatchObject({ totalCount: all.clients.length, limit: 100, hasNextPage: true });
    const second = dataOf(await call(sandbox, 'GET', '/__sandbox/credentials?page=2'), credentials);
    expect(second.clients.map((c) => c.clientId)).toEqual(all.clients.slice(100).map((c) => c.clientId));
    // The handle reads every page.
    expect((await sandbox.credentials()).length).toBe(all.clients.length);
  });
});

describe('GET /__sandbox/state', () => {
  it('streams the state a chunk at a time: the document the store holds, at the moment it was asked for', async () => {
    const expected = JSON.stringify(sandbox.store.exportState());
    // Large enough for more than one chunk.
    expect(expected.length).toBeGreaterThan(256 * 1024);
    const res = await sandbox.app.request('/__sandbox/state');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const reader = res.body?.getReader();
    if (!reader) throw new Error('the export has no body');
    const first = await reader.read();
    // A change made while the export is on its way is not in it.
    await setBalance(sandbox, A.a1.id, 7);
    const chunks: Uint8Array[] = first.value ? [first.value] : [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.length).toBeGreaterThan(1);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toBe(expected);
    // And it parses as the route's own schema says.
    expect(stateOf({ status: 200, body: JSON.parse(text) }).collections.clients.length).toBeGreaterThan(100);
  });
});

describe('POST /__sandbox/scenario/rules', () => {
  it('holds at most 1000 rules in front of the scenario: past them 400 and nothing changes, until they are cleared', async () => {
    const fresh = await memorySandbox();
    const rules = Array.from({ length: 200 }, () => ({
      on: 'webhook',
      match: {},
      effect: { webhook: 'drop' },
    }));
    for (let i = 0; i < 5; i++) {
      expect((await call(fresh, 'POST', '/__sandbox/scenario/rules', { body: { rules } })).status).toBe(200);
    }
    const before = await call(fresh, 'GET', '/__sandbox/scenario');
    const refused = await call(fresh, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: rules.slice(0, 1) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      /^At most 1000 rules may be put in front of the scenario \(1000 already are\)/,
    );
    expect((await call(fresh, 'GET', '/__sandbox/scenario')).body).toEqual(before.body);
    expect((await call(fresh, 'DELETE', '/__sandbox/scenario')).status).toBe(200);
    expect((await call(fresh, 'POST', '/__sandbox/scenario/rules', { body: { rules } })).status).toBe(200);
    await fresh.close();
  });
});
