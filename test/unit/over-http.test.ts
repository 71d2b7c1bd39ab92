// The handle over HTTP against a scripted transport: what it sends for each method, and which error each answer
// becomes. Pins the wire side of requests() and verify() apart from the journal's routes.

import { describe, expect, it } from 'vitest';
import { handleOverHttp, type Transport } from '../../src/client/over-http.js';
import { MAX_LONG_PAGE } from '../../src/domain/pagination.js';
import {
  ControlApiError,
  DrainTimeoutError,
  SandboxError,
  SandboxUnreachableError,
  VerificationError,
} from '../../src/errors.js';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** A transport that records each request and answers `reply` (JSON) with `status`. */
function scripted(status: number, reply: unknown) {
  const sent: Sent[] = [];
  const transport: Transport = async (path, init) => {
    sent.push({
      method: init.method ?? 'GET',
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return new Response(typeof reply === 'string' ? reply : JSON.stringify(reply), { status });
  };
  return { sent, handle: handleOverHttp('http://bank:4010', transport) };
}

const ok = (data: unknown) => ({ status: true, message: 'OK', data });

describe('requests and verify over HTTP', () => {
  it('requests(filter) posts the filters to /__sandbox/requests/search and answers the list', async () => {
    const entries = [{ method: 'POST', path: '/api/v1/x', status: 400 }];
    const { sent, handle } = scripted(200, { ...ok(entries), pagination: {} });
    const filter = { method: 'POST', status: '4xx' as const, body: { retrievalReference: 'abc' }, limit: 5 };
    expect(await handle.requests(filter)).toEqual(entries);
    expect(sent).toEqual([{ method: 'POST', path: '/__sandbox/requests/search', body: filter }]);
    await handle.requests();
    expect(sent[1]?.body).toEqual({});
  });

  it('verify() posts filters and expectation to /__sandbox/requests/verify; 200 answers the count', async () => {
    const { sent, handle } = scripted(200, ok({ count: 2 }));
    expect(await handle.verify({ path: '/funds/transfer', atLeast: 1 })).toEqual({ count: 2 });
    expect(sent).toEqual([
      { method: 'POST', path: '/__sandbox/requests/verify', body: { path: '/funds/transfer', atLeast: 1 } },
    ]);
  });

  it('a 409 with count, expected and nearest is a VerificationError carrying them', async () => {
    const nearest = [
      { method: 'POST', path: '/api/v1/clients/business/customers/funds/transfer', status: 400 },
    ];
    const { handle } = scripted(409, {
      status: false,
      message: 'Expected at least 1 matching request, found 0',
      data: { count: 0, expected: { atLeast: 1 }, nearest },
    });
    const error = await handle.verify({ path: '/funds/transfer', atLeast: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationError);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({
      name: 'VerificationError',
      status: 409,
      message: 'Expected at least 1 matching request, found 0',
      count: 0,
      expected: { atLeast: 1 },
      nearest,
    });
  });
});

describe('answers that are errors', () => {
  it('a 408 with waiting is a DrainTimeoutError with the sandbox’s message and its timeout', async () => {
    const waiting = { clock: { now: '', frozen: true, offsetMs: 0 }, batches: [], deliveries: [] };
    const message = 'The queues were still busy after 250 ms. Still waiting for: …';
    const { sent, handle } = scripted(408, { status: false, message, data: null, waiting });
    const error = await handle.drain({ timeoutMs: 250 }).catch((e: unknown) => e);
    expect(sent[0]?.path).toBe('/__sandbox/drain?timeoutMs=250');
    expect(error).toBeInstanceOf(DrainTimeoutError);
    expect(error).toMatchObject({ name: 'DrainTimeoutError', status: 408, message, timeoutMs: 250, waiting });
  });

  it('any other refusal is a ControlApiError with status, message, data and errors', async () => {
    const errors = [{ field: 'balance', message: 'must be at least 0' }];
    const { handle } = scripted(400, {
      status: false,
      message: 'balance is invalid: must be at least 0',
      data: null,
      errors,
    });
    const error = await handle.newClient({ balance: -5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({
      name: 'ControlApiError',
      status: 400,
      message: 'balance is invalid: must be at least 0',
      data: null,
      errors,
    });
  });

  it('a 409 that is not a verification stays a ControlApiError', async () => {
    const { handle } = scripted(409, {
      status: false,
      message: 'This temporal virtual account has expired',
      data: null,
    });
    const error = await handle.incomingPayment({ accountNumber: '1234567890', amount: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).not.toBeInstanceOf(VerificationError);
  });

  it('an answer that is not JSON, and a transport that throws, are SandboxUnreachableErrors', async () => {
    const { handle } = scripted(502, '<html>Bad gateway</html>');
    await expect(handle.reset()).rejects.toThrow(
      new SandboxUnreachableError(
        "http://bank:4010 did not answer POST /__sandbox/reset as a banking sandbox does (502, not JSON): is it the sandbox's URL?",
        'http://bank:4010',
      ),
    );
    const refused = handleOverHttp('http://bank:4010', async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      });
    });
    const error = await refused.credentials().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnreachableError);
    expect(error).toMatchObject({
      status: 503,
      url: 'http://bank:4010',
      message: 'cannot reach the sandbox at http://bank:4010 (ECONNREFUSED)',
    });
  });
});

describe('what each method sends', () => {
  it('setScenario, clock, reset and newClient', async () => {
    const { sent, handle } = scripted(
      200,
      ok({ now: '2026-01-01T00:00:00.000Z', frozen: true, offsetMs: 0 }),
    );
    await handle.setScenario('flaky-bank');
    await handle.setScenario(null);
    await handle.clock.freeze();
    await handle.clock.freeze(false);
    await handle.clock.advance(1000);
    await handle.clock.get();
    await handle.drain();
    await handle.reset();
    await handle.newClient();
    expect(sent).toEqual([
      { method: 'PUT', path: '/__sandbox/scenario', body: { name: 'flaky-bank' } },
      { method: 'DELETE', path: '/__sandbox/scenario', body: undefined },
      { method: 'POST', path: '/__sandbox/clock/freeze', body: { frozen: true } },
      { method: 'POST', path: '/__sandbox/clock/freeze', body: { frozen: false } },
      { method: 'POST', path: '/__sandbox/clock/advance', body: { ms: 1000 } },
      { method: 'GET', path: '/__sandbox/clock', body: undefined },
      { method: 'POST', path: '/__sandbox/drain', body: undefined },
      { method: 'POST', path: '/__sandbox/reset', body: undefined },
      { method: 'POST', path: '/__sandbox/clients', body: {} },
    ]);
  });

  it('schemeB names the business asked for, or the first approved one; none is a SandboxError', () => {
    const { handle } = scripted(200, ok(null));
    const client = {
      email: 'owner@x.test',
      password: 'p',
      publicKey: 'pk_sandbox_1',
      secretKey: 'sk_sandbox_1',
      businesses: [
        {
          id: 'b-not-approved',
          businessName: 'N',
          isApproved: false,
          accountNumber: null,
          accountBalance: '0',
        },
        { id: 'b-approved', businessName: 'A', isApproved: true, accountNumber: '1', accountBalance: '0' },
      ],
    };
    expect(handle.schemeB(client)).toEqual({
      'x-api-key': 'pk_sandbox_1',
      'x-api-secret': 'sk_sandbox_1',
      businessId: 'b-approved',
    });
    expect(handle.schemeB(client, 'b-not-approved').businessId).toBe('b-not-approved');
    expect(() => handle.schemeB({ ...client, businesses: [] })).toThrow(
      new SandboxError('client owner@x.test has no business: name one'),
    );
  });
});

describe('credentials over HTTP', () => {
  it('reads every page of GET /__sandbox/credentials, the largest pages allowed, until there is no next one', async () => {
    const sent: string[] = [];
    const pages = [
      { clients: [{ clientId: 'a' }, { clientId: 'b' }], pagination: { hasNextPage: true } },
      { clients: [{ clientId: 'c' }], pagination: { hasNextPage: false } },
    ];
    const handle = handleOverHttp('http://bank:4010', async (path) => {
      sent.push(path);
      return new Response(JSON.stringify(ok(pages[sent.length - 1])), { status: 200 });
    });
    expect((await handle.credentials()).map((c) => c.clientId)).toEqual(['a', 'b', 'c']);
    expect(sent).toEqual([
      `/__sandbox/credentials?limit=${MAX_LONG_PAGE}&page=1`,
      `/__sandbox/credentials?limit=${MAX_LONG_PAGE}&page=2`,
    ]);
  });

  it('ledger() sends its page and filter as the query', async () => {
    const { sent, handle } = scripted(200, ok({ transactions: [] }));
    await handle.ledger('b1', { retrievalReference: 'ref 1', page: 2, limit: 5 });
    await handle.ledger('b1');
    expect(sent.map((s) => s.path)).toEqual([
      '/__sandbox/businesses/b1/ledger?retrievalReference=ref+1&page=2&limit=5',
      '/__sandbox/businesses/b1/ledger',
    ]);
  });
});
