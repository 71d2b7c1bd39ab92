import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox.js';
import { ledgerOf, references, transferEntry } from '../../support/money.js';
import { A, call, closedAfterEach, ownerHeaders, schemeB } from '../../support/sandbox.js';

// Scenarios on a calendar, matched on what the request says: `match.between`, `match.over`, `match.header`,
// `match.query`, `match.body`, templates in header values, and the ready scenarios `limits` and `narration-codes`.

const DETAILS = '/api/v1/clients/business/account-details';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
const ref = references('cal');
const { sandboxFor } = closedAfterEach();

/** A sandbox frozen at `at`, with `rules` put in front. */
async function frozenAt(at: string, rules: unknown[] = []): Promise<Sandbox> {
  const sandbox = await sandboxFor();
  const isolated = await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
  expect(isolated.status).toBe(200);
  const now = Date.parse(((await call(sandbox, 'GET', '/__sandbox/clock')).body.data as { now: string }).now);
  const target = Date.parse(at);
  if (target > now) await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: target - now } });
  if (rules.length > 0) {
    const added = await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return sandbox;
}

/** The next whole Lagos day's `HH:MM` as an instant at least a day after now. */
function lagos(hhmm: string): string {
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  return `${day}T${hhmm}:00.000+01:00`;
}

const transferBody = (retrievalReference: string, extra: Record<string, unknown> = {}) => ({
  amount: 150000,
  receiverAccountNumber: '0123456789',
  receiverBankCode: '058',
  retrievalReference,
  narration: 'Pay',
  ...extra,
});

const advance = (sandbox: Sandbox, ms: number) =>
  call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms } });

describe('match.between', () => {
  const down = {
    on: 'http',
    match: { path: '/account-details$', between: { from: '10:00', to: '10:30' } },
    effect: { http: { status: 503, message: 'Bank 033 is down' } },
  };

  it('applies from its daily from (Lagos time) up to, not at, its to, every day', async () => {
    const sandbox = await frozenAt(lagos('09:59'), [down]);
    const headers = await ownerHeaders(sandbox);
    const status = async () => (await call(sandbox, 'GET', DETAILS, { headers })).status;
    expect(await status()).toBe(200);
    await advance(sandbox, 60_000);
    expect(await status()).toBe(503);
    await advance(sandbox, 29 * 60_000);
    expect(await status()).toBe(503);
    await advance(sandbox, 60_000);
    expect(await status()).toBe(200);
    await advance(sandbox, 24 * 3_600_000 - 30 * 60_000);
    const fresh = await ownerHeaders(sandbox);
    expect((await call(sandbox, 'GET', DETAILS, { headers: fresh })).status).toBe(503);
  });

  it('a daily to before from spans midnight; instants bound one stretch of time', async () => {
    const overnight = {
      ...down,
      match: { path: '/account-details$', between: { from: '23:00', to: '01:00' } },
    };
    const sandbox = await frozenAt(lagos('22:59'), [overnight]);
    // Signed in afresh each time: the clock moves past a token's hour.
    const status = async () =>
      (await call(sandbox, 'GET', DETAILS, { headers: await ownerHeaders(sandbox) })).status;
    expect(await status()).toBe(200);
    await advance(sandbox, 60_000);
    expect(await status()).toBe(503);
    await advance(sandbox, 90 * 60_000);
    expect(await status()).toBe(503);
    await advance(sandbox, 30 * 60_000);
    expect(await status()).toBe(200);

    const from = lagos('12:00');
    const to = new Date(Date.parse(from) + 60_000).toISOString();
    const once = await frozenAt(from, [
      { ...down, match: { path: '/account-details$', between: { from, to } } },
    ]);
    const h = await ownerHeaders(once);
    expect((await call(once, 'GET', DETAILS, { headers: h })).status).toBe(503);
    await advance(once, 60_000);
    expect((await call(once, 'GET', DETAILS, { headers: h })).status).toBe(200);
  });

  it.each([
    [{ from: 'ten', to: '10:30' }, 'rules[0].match.between.from'],
    [{ from: '10:00', to: '25:00' }, 'rules[0].match.between.to'],
    [{ from: '10:00', to: '10:00' }, 'rules[0].match.between.to'],
    [{ from: '2026-12-01T10:00:00Z', to: '10:30' }, 'rules[0].match.between.to'],
    [{ from: '2026-12-01T10:00:00Z', to: '2026-12-01T09:00:00Z' }, 'rules[0].match.between.to'],
  ])('refuses between %j with 400 naming %s, and the rules in force stay', async (between, field) => {
    const sandbox = await sandboxFor();
    const before = await call(sandbox, 'GET', '/__sandbox/scenario');
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: [{ ...down, match: { between } }] },
    });
    expect(res.status).toBe(400);
    expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    expect((await call(sandbox, 'GET', '/__sandbox/scenario')).body).toEqual(before.body);
  });
});

describe('match.over', () => {
  it('answers 429 past count calls a window per client, with a Retry-After right to the second; its own answers do not count', async () => {
    const limit = {
      on: 'http',
      match: { path: '^/api/v1/', over: { count: 3, windowMs: 60_000 } },
      effect: { http: { status: 429, message: 'Slow down' } },
    };
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z', [limit]);
    const me = await sandbox.newClient();
    const other = await sandbox.newClient();
    const headers = await sandbox.signIn(me);
    const theirs = await sandbox.signIn(other);
    const get = (h: Record<string, string>) => call(sandbox, 'GET', DETAILS, { headers: h });
    expect((await get(headers)).status).toBe(200);
    expect((await get(headers)).status).toBe(200);
    await advance(sandbox, 10_500);
    const third = await get(headers);
    expect(third.status).toBe(429);
    expect(third.body.message).toBe('Slow down');
    // The sign-in, the two reads: the oldest leaves the window 49.5 s from now.
    expect(third.headers.get('retry-after')).toBe('50');
    expect((await get(theirs)).status).toBe(200);
    await advance(sandbox, 49_499);
    expect((await get(headers)).status).toBe(429);
    await advance(sandbox, 1);
    expect((await get(headers)).status).toBe(200);
  });

  it('fails a business’s transfers past an amount in the window, counting only what succeeded, single and bulk alike', async () => {
    const fail = { errorCode: '61', errorMessage: 'Exceeds withdrawal limit' };
    const over = { amount: 400000, windowMs: 3_600_000 };
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z', [
      { on: 'transfer', match: { over }, effect: { fail } },
      { on: 'bulk.item', match: { over }, effect: { fail } },
    ]);
    const headers = await ownerHeaders(sandbox);
    const send = (reference: string, account = '0123456789') =>
      call(sandbox, 'POST', TRANSFER, {
        headers,
        body: transferBody(reference, { receiverAccountNumber: account }),
      });
    expect((await send(ref('a'))).status).toBe(200);
    // A refused one does not count.
    expect((await send(ref('refused'), '0000000051')).status).toBe(400);
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const created = await call(sandbox, 'POST', BULK, {
      headers: keys,
      body: { batchName: 'Within', transfers: [transferBody(ref('item'))] },
    });
    const id = (created.body.data as { id: string }).id;
    await call(sandbox, 'POST', `${BULK}/process`, { headers: keys, body: { bulkTransferId: id } });
    await sandbox.drain();
    // 150000 + 150000 so far; one more would make 450000.
    const past = await send(ref('past'));
    expect([past.status, past.body.message]).toEqual([400, 'Exceeds withdrawal limit']);
    await advance(sandbox, 3_600_000);
    expect(
      (
        await call(sandbox, 'POST', TRANSFER, {
          headers: await ownerHeaders(sandbox),
          body: transferBody(ref('later')),
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    [{ windowMs: 1000 }, 'rules[0].match.over'],
    [{ count: 1, windowMs: 0 }, 'rules[0].match.over.windowMs'],
    [{ count: 1, windowMs: 2_592_000_001 }, 'rules[0].match.over.windowMs'],
    [{ count: 1, windowMs: 1000, per: 'team' }, 'rules[0].match.over.per'],
  ])('refuses over %j with 400 naming %s', async (over, field) => {
    const sandbox = await sandboxFor();
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: { rules: [{ on: 'http', match: { over }, effect: { http: { status: 429 } } }] },
    });
    expect(res.status).toBe(400);
    expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
  });

  it('counts in each isolated sandbox apart, on its own clock', async () => {
    const sandbox = await sandboxFor();
    const rule = {
      on: 'http' as const,
      match: { path: '/account-details$', over: { count: 1, windowMs: 60_000, per: 'sandbox' as const } },
      effect: { http: { status: 429 } },
    };
    const one = await sandbox.isolate({ clock: '2030-01-01T00:00:00.000Z' });
    const two = await sandbox.isolate({ clock: '2030-01-01T00:00:00.000Z' });
    for (const world of [one, two])
      await world.setScenario({ name: 'counting', description: 'one a minute', rules: [rule] });
    const read = async (world: typeof one) => {
      const [client] = await world.credentials();
      if (!client) throw new Error('no client');
      const headers = await world.signIn(client);
      return (await world.app.request(DETAILS, { headers })).status;
    };
    expect(await read(one)).toBe(200);
    expect(await read(one)).toBe(429);
    expect(await read(two)).toBe(200);
    await one.clock.advance(60_000);
    expect(await read(one)).toBe(200);
    await one.dispose();
    await two.dispose();
  });

  it('a reset and a scenario change start the windows afresh', async () => {
    const rule = {
      on: 'http',
      match: { path: '/account-details$', over: { count: 1, windowMs: 60_000, per: 'sandbox' } },
      effect: { http: { status: 429 } },
    };
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z', [rule]);
    const headers = await ownerHeaders(sandbox);
    expect((await call(sandbox, 'GET', DETAILS, { headers })).status).toBe(200);
    expect((await call(sandbox, 'GET', DETAILS, { headers })).status).toBe(429);
    await call(sandbox, 'PUT', '/__sandbox/scenario', {
      body: { name: 'calendar', description: 'one', rules: [rule] },
    });
    expect((await call(sandbox, 'GET', DETAILS, { headers })).status).toBe(200);
  });
});

describe('match.header, match.query, match.body', () => {
  it('answers one amount, one header or one query differently from the rest', async () => {
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z', [
      {
        on: 'http',
        match: { path: '/funds/transfer$', body: { amount: '^7777$' } },
        effect: { http: { status: 502, message: 'By amount' } },
      },
      {
        on: 'http',
        match: { header: { 'X-Test-Case': '^timeout$' } },
        effect: { http: { status: 504, message: 'By header' } },
      },
      {
        on: 'http',
        match: { query: { page: '^9$' } },
        effect: { http: { status: 500, message: 'By query' } },
      },
    ]);
    const headers = await ownerHeaders(sandbox);
    const byAmount = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody(ref('amt'), { amount: 7777 }),
    });
    expect([byAmount.status, byAmount.body.message]).toEqual([502, 'By amount']);
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(ref('ok')) })).status).toBe(
      200,
    );
    const byHeader = await call(sandbox, 'GET', DETAILS, {
      headers: { ...headers, 'x-test-case': 'timeout' },
    });
    expect([byHeader.status, byHeader.body.message]).toEqual([504, 'By header']);
    const customers = '/api/v1/clients/business/customers';
    expect((await call(sandbox, 'GET', `${customers}?page=9`, { headers })).body.message).toBe('By query');
    expect((await call(sandbox, 'GET', `${customers}?page=1`, { headers })).status).toBe(200);
    // Nothing the amount rule matched was debited.
    expect((await ledgerOf(sandbox)).transactions.filter((t) => t.amount === 7777)).toEqual([]);
  });

  it.each([
    [{ on: 'transfer', match: { header: { a: 'b' } }, effect: { delayMs: 1 } }, 'rules[0].match.header'],
    [{ on: 'http', match: { body: { amount: '(' } }, effect: { delayMs: 1 } }, 'rules[0].match.body.amount'],
    [{ on: 'http', match: { narration: 'x' }, effect: { delayMs: 1 } }, 'rules[0].match.narration'],
    [
      { on: 'http', match: { over: { amount: 5, windowMs: 10 } }, effect: { delayMs: 1 } },
      'rules[0].match.over.amount',
    ],
  ])('refuses %j with 400 naming %s', async (rule, field) => {
    const sandbox = await sandboxFor();
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules: [rule] } });
    expect(res.status).toBe(400);
    expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
  });
});

describe('templates in header values', () => {
  it('renders a header from the request; a line break or 8 KiB refuses the answer with 502, never a split header', async () => {
    const logged: string[] = [];
    const sandbox = await sandboxFor({ log: (line) => logged.push(String(line)) });
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: {
        rules: [
          {
            on: 'http',
            match: { path: '/account-details$' },
            effect: {
              http: { status: 200, body: { ok: true }, headers: { 'x-echo': 'case {{request.query.c}}' } },
            },
          },
        ],
      },
    });
    const headers = await ownerHeaders(sandbox);
    const ok = await call(sandbox, 'GET', `${DETAILS}?c=42`, { headers });
    expect(ok.headers.get('x-echo')).toBe('case 42');
    const split = await call(sandbox, 'GET', `${DETAILS}?c=${encodeURIComponent('1\r\nx-injected: yes')}`, {
      headers,
    });
    expect(split.status).toBe(502);
    expect(split.headers.get('x-injected')).toBeNull();
    expect(split.body.message).toMatch(/header x-echo held a line break/);
    const long = await call(sandbox, 'GET', `${DETAILS}?c=${'a'.repeat(8200)}`, { headers });
    expect(long.status).toBe(502);
    expect(long.body.message).toMatch(/more than 8192 bytes/);
    expect(logged.filter((l) => l.includes('header x-echo'))).toHaveLength(2);
  });
});

describe('ready scenarios', () => {
  it('narration-codes: #sandbox:CODE fails with the code, an unknown code is ignored, #sandbox:reverse is reversed an hour later', async () => {
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z');
    expect(
      (await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'narration-codes' } })).status,
    ).toBe(200);
    const headers = await ownerHeaders(sandbox);
    const send = (reference: string, narration: string) =>
      call(sandbox, 'POST', TRANSFER, { headers, body: transferBody(reference, { narration }) });
    const n57 = ref('n57');
    const failed = await send(n57, 'Rent #sandbox:57 please');
    expect([failed.status, failed.body.message]).toEqual([400, 'Transaction not permitted to sender']);
    expect((await transferEntry(sandbox, n57)).errorCode).toBe('57');
    expect((await send(ref('n99'), 'Rent #sandbox:99')).status).toBe(200);
    expect((await send(ref('n510'), 'Rent #sandbox:510')).status).toBe(200);
    const reversed = ref('rev');
    expect((await send(reversed, 'Rent #sandbox:reverse')).status).toBe(200);
    await advance(sandbox, 3_600_000);
    expect((await transferEntry(sandbox, reversed)).reversedAt).toBeDefined();
  });

  it('limits: the 101st successful transfer of a day fails 65', async () => {
    const sandbox = await frozenAt('2030-01-01T00:00:00.000Z');
    await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'limits' } });
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const transfers = Array.from({ length: 101 }, (_, i) => ({
      ...transferBody(ref(`bulk${i}`)),
      amount: 1000,
    }));
    const created = await call(sandbox, 'POST', BULK, {
      headers: keys,
      body: { batchName: 'Many', transfers },
    });
    const id = (created.body.data as { id: string }).id;
    await call(sandbox, 'POST', `${BULK}/process`, { headers: keys, body: { bulkTransferId: id } });
    await sandbox.drain();
    const batch = await call(sandbox, 'GET', `/__sandbox/bulk-transfers/${id}`);
    const items = (batch.body.data as { items: { status: string; errorCode: string }[] }).items;
    expect(items.filter((i) => i.status === 'completed')).toHaveLength(100);
    expect(items[100]).toMatchObject({ status: 'failed', errorCode: '65' });
  });
});
