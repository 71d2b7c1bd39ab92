// The handle over HTTP against a scripted transport: what it sends for each method, and which error each answer
// becomes. Pins the wire side of requests() and verify() apart from the journal's routes.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { contractCaller } from '../../src/client/call.js';
import { handleOverHttp, type Transport } from '../../src/client/over-http.js';
import { type ClockView, getClockContract } from '../../src/contract/control/clock.js';
import { type LedgerView, ledgerContract } from '../../src/contract/control/money.js';
import { type RequestEntryView, searchRequestsContract } from '../../src/contract/control/requests.js';
import { DRAIN_TIMEOUT_MS, drainContract } from '../../src/contract/control/sandbox.js';
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

// Answers as the routes document them: the handle parses each with its route's schema.
const PAGINATION = {
  totalCount: 1,
  hasNextPage: false,
  hasPreviousPage: false,
  nextPage: 0,
  previousPage: 0,
  limit: 100,
  lastPage: 1,
};
const ENTRY = {
  id: '7',
  time: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  path: '/api/v1/clients/business/customers/funds/transfer',
  query: {},
  status: 400,
  durationMs: 1.5,
  requestId: 'req-7',
  warnings: [],
  clientId: null,
  businessId: null,
  scenario: null,
  fault: null,
  upstream: false,
  request: { headers: {}, body: null, bodySize: null, contentType: null, truncated: false },
  response: {
    status: 400,
    message: 'amount is invalid',
    body: null,
    bodySize: 40,
    contentType: 'application/json',
    truncated: false,
  },
};
const CLOCK = { now: '2026-01-01T00:00:00.000Z', frozen: true, offsetMs: 0 };
const SCENARIO = {
  startup: 'default',
  name: 'flaky-bank',
  description: 'd',
  seed: 1,
  overrides: [],
  rules: [],
};
const client = (clientId: string) => ({
  clientId,
  name: `Client ${clientId}`,
  email: `${clientId}@x.test`,
  password: 'p',
  publicKey: `pk_${clientId}`,
  secretKey: `sk_${clientId}`,
  webhookAuthKey: `wh_${clientId}`,
  businesses: [],
  members: [],
});
const NEW_CLIENT = {
  ...client('fresh'),
  virtualAccount: { accountNumber: '1234567890', accountName: 'A B', clientRef: 'r', systemRef: 'STL|x' },
};
const LEDGER = {
  businessId: 'b1',
  openingBalance: 0,
  balance: 0,
  ledgerBalance: 0,
  transactions: [],
  pagination: PAGINATION,
};
/** What a drain that gave up names: one delivery due in a minute, on a frozen clock. */
const WAITING = {
  clock: CLOCK,
  backlog: { bulkItems: 0, deliveries: 1 },
  batches: [],
  batchCount: 0,
  deliveries: [
    {
      id: 'd1',
      clientId: 'c1',
      businessId: 'b1',
      attemptsMade: 1,
      attemptsLeft: 5,
      nextAttemptAt: '2026-01-01T00:01:00.000Z',
      dueInMs: 60_000,
    },
  ],
  deliveryCount: 1,
};

/** A transport that records each request and answers each path (without its query) from `answers`, 200 JSON. */
function routed(answers: Record<string, [status: number, body: unknown]>) {
  const sent: Sent[] = [];
  const transport: Transport = async (path, init) => {
    const method = init.method ?? 'GET';
    sent.push({ method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    const [status, body] = answers[`${method} ${path.split('?')[0]}`] ?? [404, { message: 'unscripted' }];
    return Response.json(body, { status });
  };
  return { sent, handle: handleOverHttp('http://bank:4010', transport) };
}

describe('requests and verify over HTTP', () => {
  it('requests(filter) posts the filters to /__sandbox/requests/search and answers the list', async () => {
    const entries = [ENTRY];
    const { sent, handle } = scripted(200, { ...ok(entries), pagination: PAGINATION });
    const filter = { method: 'POST', status: '4xx' as const, body: { retrievalReference: 'abc' }, limit: 5 };
    expect(await handle.requests(filter)).toEqual(entries);
    expect(sent).toEqual([{ method: 'POST', path: '/__sandbox/requests/search', body: filter }]);
    await handle.requests();
    expect(sent[1]?.body).toEqual({});
  });

  it('verify() posts filters and expectation to /__sandbox/requests/verify; 200 answers the count', async () => {
    const { sent, handle } = scripted(200, ok({ count: 2, expected: { atLeast: 1 } }));
    expect(await handle.verify({ path: '/funds/transfer', atLeast: 1 })).toEqual({
      count: 2,
      expected: { atLeast: 1 },
    });
    expect(sent).toEqual([
      { method: 'POST', path: '/__sandbox/requests/verify', body: { path: '/funds/transfer', atLeast: 1 } },
    ]);
  });

  it('a 409 with count, expected and nearest is a VerificationError carrying them', async () => {
    // Each with the criteria it misses, as the journal ranks them.
    const nearest = [{ unmatched: ['status'], entry: ENTRY }];
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
    const message = 'The queues were still busy after 250 ms. Still waiting for: …';
    const { sent, handle } = scripted(408, { status: false, message, data: null, waiting: WAITING });
    const error = await handle.drain({ timeoutMs: 250 }).catch((e: unknown) => e);
    expect(sent[0]?.path).toBe('/__sandbox/drain?timeoutMs=250');
    expect(error).toBeInstanceOf(DrainTimeoutError);
    expect(error).toMatchObject({
      name: 'DrainTimeoutError',
      status: 408,
      message,
      timeoutMs: 250,
      waiting: WAITING,
    });
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
    const { sent, handle } = routed({
      'PUT /__sandbox/scenario': [200, ok(SCENARIO)],
      'DELETE /__sandbox/scenario': [200, ok(SCENARIO)],
      'POST /__sandbox/clock/freeze': [200, ok(CLOCK)],
      'POST /__sandbox/clock/advance': [200, ok(CLOCK)],
      'GET /__sandbox/clock': [200, ok(CLOCK)],
      'POST /__sandbox/drain': [200, { status: true, message: 'Queues are idle' }],
      'POST /__sandbox/reset': [200, { status: true, message: 'Sandbox reset to the fixtures' }],
      'POST /__sandbox/clients': [201, ok(NEW_CLIENT)],
    });
    await handle.setScenario('flaky-bank');
    await handle.setScenario(null);
    await handle.clock.freeze();
    await handle.clock.freeze(false);
    await handle.clock.advance(1000);
    expect(await handle.clock.get()).toEqual(CLOCK);
    await handle.drain();
    await handle.reset();
    expect(await handle.newClient()).toEqual(NEW_CLIENT);
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
      { clients: [client('a'), client('b')], pagination: { ...PAGINATION, hasNextPage: true } },
      { clients: [client('c')], pagination: PAGINATION },
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
    const { sent, handle } = scripted(200, ok(LEDGER));
    await handle.ledger('b1', { retrievalReference: 'ref 1', page: 2, limit: 5 });
    await handle.ledger('b1');
    expect(sent.map((s) => s.path)).toEqual([
      '/__sandbox/businesses/b1/ledger?retrievalReference=ref+1&page=2&limit=5',
      '/__sandbox/businesses/b1/ledger',
    ]);
  });
});

describe('answers that do not fit their route’s schema', () => {
  it('a success whose data does not fit is a SandboxError naming the operation and the field, never a value', async () => {
    const { handle } = scripted(200, ok({ ...CLOCK, frozen: 'yes' }));
    const error = await handle.clock.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).not.toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({ name: 'SandboxError', status: 502 });
    expect(String(error)).toContain(
      'http://bank:4010 answered GET /__sandbox/clock (getClock) with a 200 whose data (Clock) does not fit',
    );
    expect(String(error)).toContain('frozen: Invalid input: expected boolean, received string');
  });

  it('entries of another shape in a page are refused, with the first few issues and how many more', async () => {
    const partial = [{ method: 'POST', path: '/api/v1/x', status: 400 }];
    const { handle } = scripted(200, { ...ok(partial), pagination: PAGINATION });
    const error = await handle.requests().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SandboxError', status: 502 });
    expect(String(error)).toMatch(
      /answered POST \/__sandbox\/requests\/search \(searchRequests\) with a 200 whose data \(a page of RequestEntry\) does not fit .*0\.id: .*; and \d+ more\./,
    );
  });

  it('an envelope of another shape, and a success status the route does not document, are refused too', async () => {
    const extra = scripted(200, { ...ok(CLOCK), note: 'new field' });
    await expect(extra.handle.clock.get()).rejects.toThrow(/\(getClock\) with a 200 whose body does not fit/);
    // `POST /__sandbox/clients` answers 201.
    const created = scripted(200, ok(NEW_CLIENT));
    await expect(created.handle.newClient()).rejects.toThrow(
      "http://bank:4010 answered POST /__sandbox/clients (createClient) with a 200, which the route does not document. Is the sandbox of this package's version?",
    );
  });

  it('a 408 whose `waiting` does not fit is a SandboxError naming the drain, not a DrainTimeoutError', async () => {
    const waiting = { ...WAITING, deliveries: [{ id: 'd1' }] };
    const { handle } = scripted(408, { status: false, message: 'Gave up', data: null, waiting });
    const error = await handle.drain({ timeoutMs: 5 }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(DrainTimeoutError);
    expect(error).toMatchObject({ name: 'SandboxError', status: 502 });
    expect(String(error)).toContain(
      'answered POST /__sandbox/drain (drain) with a 408 whose `waiting` does not fit',
    );
  });

  it('a refusal that is not the envelope (a proxy’s) stays a ControlApiError with its message, or the status', async () => {
    const proxy = scripted(502, { message: 'upstream went away', code: 'E_UPSTREAM' });
    await expect(proxy.handle.reset()).rejects.toThrow(new ControlApiError('upstream went away', 502));
    const bare = scripted(502, { error: 'bad gateway' });
    const error = await bare.handle.reset().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({ status: 502, message: 'POST /__sandbox/reset answered 502', data: null });
  });
});

describe('a drain that gave up', () => {
  it('carries the timeout the handle asked for (the sandbox’s default when none was), not one read from the message', async () => {
    const body = { status: false, message: 'Gave up: the queues are busy.', data: null, waiting: WAITING };
    const asked = scripted(408, body);
    await expect(asked.handle.drain({ timeoutMs: 250 })).rejects.toMatchObject({
      name: 'DrainTimeoutError',
      message: 'Gave up: the queues are busy.',
      timeoutMs: 250,
      waiting: WAITING,
    });
    const byDefault = scripted(408, body);
    await expect(byDefault.handle.drain()).rejects.toMatchObject({
      timeoutMs: DRAIN_TIMEOUT_MS,
      waiting: WAITING,
    });
    expect(byDefault.sent[0]?.path).toBe('/__sandbox/drain');
  });

  it('a 408 of another route is a ControlApiError: only the drain’s own refusal becomes a DrainTimeoutError', async () => {
    const { handle } = scripted(408, { status: false, message: 'slow', data: null, waiting: WAITING });
    const error = await handle.reset().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).not.toBeInstanceOf(DrainTimeoutError);
  });
});

describe('signIn over the bank’s API', () => {
  const me = {
    email: 'owner@x.test',
    password: 'p',
    publicKey: 'pk',
    secretKey: 'sk',
    businesses: [{ id: 'b1', businessName: 'B', isApproved: true, accountNumber: null, accountBalance: '0' }],
  };

  it('posts the login to /api/v1/auth/signin and builds scheme A headers from the parsed answer', async () => {
    const signedIn = {
      id: 'u1',
      firstName: 'O',
      lastName: 'W',
      email: me.email,
      phoneNo: '0800',
      accessToken: 'jwt-1',
      businesses: [{ id: 'b1', businessName: 'B', isApproved: true }],
    };
    const { sent, handle } = scripted(200, { status: true, message: 'Login successful', data: signedIn });
    expect(await handle.signIn(me)).toEqual({
      authorization: 'Bearer jwt-1',
      SECRET_KEY: 'sk',
      businessId: 'b1',
    });
    expect(sent).toEqual([
      { method: 'POST', path: '/api/v1/auth/signin', body: { email: me.email, password: 'p' } },
    ]);
  });

  it('a refusal is read with the bank’s envelope; an answer without a token is refused, not sent as `Bearer undefined`', async () => {
    const refused = scripted(401, { status: false, message: 'Invalid email or password', data: null });
    await expect(refused.handle.signIn(me)).rejects.toThrow(
      new ControlApiError('Invalid email or password', 401),
    );
    const tokenless = scripted(200, ok({ email: me.email }));
    await expect(tokenless.handle.signIn(me)).rejects.toThrow(
      /answered POST \/api\/v1\/auth\/signin \(signIn\) with a 200 whose data \(SignIn\) does not fit/,
    );
  });
});

describe('contractCaller', () => {
  it('takes what each contract takes and answers what its reply documents, parsed', async () => {
    const control = contractCaller(async () => Response.json(ok(CLOCK)), 'http://bank:4010', 'control');
    // Typed only: never called (this transport's clock would not fit them, and the rejections go unhandled).
    const typed = () => ({
      ledger: control.data(ledgerContract, { params: { id: 'b1' } }),
      search: control.page(searchRequestsContract, { body: {} }),
      drain: control.done(drainContract, { query: { timeoutMs: 5 } }),
    });
    expectTypeOf(typed).returns.toEqualTypeOf<{
      ledger: Promise<LedgerView>;
      search: Promise<RequestEntryView[]>;
      drain: Promise<void>;
    }>();
    const now = control.data(getClockContract);
    expectTypeOf(now).resolves.toEqualTypeOf<ClockView>();
    expect(await now).toEqual(CLOCK);
    // What the compiler refuses (`tsc` checks that each line is an error); never called.
    const refused = () => [
      // @ts-expect-error the ledger names its business
      control.data(ledgerContract),
      // @ts-expect-error a parameter the path does not have
      control.data(ledgerContract, { params: { businessId: 'b1' } }),
      // @ts-expect-error a GET takes no body
      control.data(getClockContract, { body: {} }),
      // @ts-expect-error the drain answers no data
      control.data(drainContract),
      // @ts-expect-error the search answers a page
      control.data(searchRequestsContract, { body: {} }),
    ];
    expect(refused).toBeTypeOf('function');
  });
});
