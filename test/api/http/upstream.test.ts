import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.js';
import { driftReport } from '../../../src/contract/control/drift.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { refusedUrl } from '../../support/receiver.js';
import { A, call, memorySandbox, schemeB } from '../../support/sandbox.js';
import { startFakeUpstream, type UpstreamAnswer, type UpstreamRequest } from '../../support/upstream.js';

// `--upstream URL`: every /api/v1 request goes to a fake bank started here, which answers with chosen differences
// from the routes' documents; the app must get exactly the fake's answers, and the drift report each difference
// once, counted.

const AUDITS = '/api/v1/clients/business/audits';
const TOKEN = 'upstream-access-token-0123456789abcdef';
const SECRET = 'sk_test_upstream_secret_0123456789abcdef';

const entry = {
  id: 'audit-1',
  email: 'owner@example.com',
  user: 'Ada Owner',
  action: 'login',
  type: 'auth',
  date: '2026-01-01T00:00:00.000Z',
  role: 'Admin',
  ipAddress: '10.0.0.1',
};
const ok = (data: unknown, message = 'Audit log retrieved successfully') => ({
  status: 200,
  body: { status: true, message, data },
});
const { ipAddress: _dropped, ...withoutIp } = entry;
const transferItem = {
  amount: 150000,
  receiverAccountNumber: '0123456785',
  receiverBankCode: '058',
  retrievalReference: 'upstream-batch-1',
  narration: 'Salary',
};

/** The fake bank's answers, by the last segment of the audit path. */
const AUDIT_ANSWERS: Record<string, UpstreamAnswer> = {
  good: { ...ok(entry), headers: { 'x-bank-trace': 'trace-1', 'x-request-id': 'bank-req-1' } },
  missing: ok(withoutIp),
  extra: ok({ ...entry, branchCode: 12 }),
  type: ok({ ...entry, role: 5 }),
  message: ok(entry, 'Audit fetched'),
  soft: { status: 200, body: { status: false, message: 'Audit log not found', data: null } },
  refused: { status: 404, body: { status: false, message: 'No such audit', data: null } },
  documented: { status: 404, body: { status: false, message: 'Audit log not found', data: null } },
  unprocessable: { status: 422, body: { status: false, message: 'Unprocessable', data: null } },
  html: { status: 200, headers: { 'content-type': 'text/html' }, body: '<h1>maintenance</h1>' },
  hang: 'hang',
  // Headers and the start of a body, then nothing more.
  stalled: {
    send: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":');
    },
  },
};

function bank(req: UpstreamRequest): UpstreamAnswer {
  const path = req.url.split('?')[0] ?? '';
  if (path === '/bank/api/v1/auth/signin')
    return ok({ accessToken: TOKEN, refreshToken: TOKEN, secretKey: SECRET }, 'Login successful');
  const last = path.split('/').at(-1) ?? '';
  if (path.startsWith('/bank/api/v1/clients/business/audits/') && AUDIT_ANSWERS[last])
    return AUDIT_ANSWERS[last];
  if (path === '/bank/api/v1/clients/business/customers/funds/transfer')
    return {
      status: 200,
      body: { status: true, message: 'Transfer successful', data: { echo: req.body.toString() } },
    };
  return { status: 404, body: { status: false, message: 'Not found', data: null } };
}

describe('--upstream: the app gets the upstream’s answers, the report their differences', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let sandbox: Sandbox;
  const report = async () => dataOf(await call(sandbox, 'GET', '/__sandbox/drift'), driftReport);
  const findingsOf = async (method: string, path: string) =>
    (await report()).routes.find((r) => r.method === method && r.path === path)?.findings ?? [];

  beforeAll(async () => {
    fake = await startFakeUpstream(bank);
    sandbox = await memorySandbox({ upstream: fake.base, upstreamTimeout: 300 });
  });
  afterAll(async () => {
    await sandbox.close();
    await fake.close();
  });

  it('forwards a request as it was sent: method, path after the base’s own, query, body bytes, headers but hop-by-hop ones', async () => {
    const body = '{"amount":  150000, "narration":"as sent"}';
    const res = await sandbox.app.request('/api/v1/clients/business/customers/funds/transfer?x=1&y=%20z', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${TOKEN}`,
        SECRET_KEY: SECRET,
        'x-custom': 'kept',
        'keep-alive': 'timeout=5',
        te: 'trailers',
      },
      body,
    });
    expect(res.status).toBe(200);
    const got = fake.received.at(-1);
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/bank/api/v1/clients/business/customers/funds/transfer?x=1&y=%20z');
    expect(got?.body.toString()).toBe(body);
    expect(got?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      secret_key: SECRET,
      'x-custom': 'kept',
    });
    expect(got?.headers['keep-alive']).toBeUndefined();
    expect(got?.headers.te).toBeUndefined();
    expect(got?.headers.host).toBe(new URL(fake.base).host);
  });

  it('answers exactly what the upstream answered, with the sandbox’s x-request-id and the upstream’s beside it', async () => {
    const res = await sandbox.app.request(`${AUDITS}/good`, { headers: { 'x-request-id': 'mine-1' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(JSON.stringify(ok(entry).body));
    expect(res.headers.get('x-bank-trace')).toBe('trace-1');
    expect(res.headers.get('x-request-id')).toBe('mine-1');
    expect(res.headers.get('x-upstream-request-id')).toBe('bank-req-1');
    expect(await findingsOf('GET', '/clients/business/audits/{auditId}')).toEqual([]);
  });

  it('applies nothing of its own: no auth, no validation, no scenario, no state', async () => {
    const batches = async () => (await call(sandbox, 'GET', '/__sandbox/bulk-transfers')).body;
    const batchesBefore = await batches();
    const before = fake.received.length;
    // No credentials, a scenario that would refuse everything, a body the sandbox would refuse: the upstream decides.
    const res = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers: { 'x-sandbox-scenario': 'provider-outage' },
      body: { amount: -1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transfer successful');
    // A batch the sandbox itself would accept and keep (its own fixture keys): the upstream's answer stands, and
    // the sandbox's state does not move.
    const batch = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/bulk-transfer', {
      headers: schemeB(A.publicKey, A.secretKey, A.a1.id),
      body: { batchName: 'Payroll', transfers: [transferItem] },
    });
    expect(batch).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(fake.received.length).toBe(before + 2);
    expect(await batches()).toEqual(batchesBefore);
  });

  it('reports each difference once per kind and path, counted, with the request id of its first call', async () => {
    await call(sandbox, 'DELETE', '/__sandbox/drift');
    for (const id of [
      'missing',
      'missing',
      'extra',
      'type',
      'message',
      'soft',
      'refused',
      'documented',
      'unprocessable',
      'html',
    ])
      await sandbox.app.request(`${AUDITS}/${id}`, { headers: { 'x-request-id': `req-${id}` } });
    const [route] = (await report()).routes;
    expect(route).toMatchObject({
      method: 'GET',
      path: '/clients/business/audits/{auditId}',
      calls: 10,
      statuses: { '200': 7, '404': 2, '422': 1 },
    });
    const seen = (route?.findings ?? []).map(({ kind, at, expected, seen, count, requestId }) => ({
      kind,
      at,
      expected,
      seen,
      count,
      requestId,
    }));
    expect(seen).toEqual([
      {
        kind: 'missing-field',
        at: 'data.ipAddress',
        expected: 'string',
        seen: 'absent',
        count: 2,
        requestId: 'req-missing',
      },
      {
        kind: 'extra-field',
        at: 'data.branchCode',
        expected: 'absent',
        seen: 'integer',
        count: 1,
        requestId: 'req-extra',
      },
      { kind: 'type', at: 'data.role', expected: 'string', seen: 'integer', count: 1, requestId: 'req-type' },
      {
        kind: 'message',
        at: 'message',
        expected: 'Audit log retrieved successfully',
        seen: 'Audit fetched',
        count: 2,
        requestId: 'req-message',
      },
      { kind: 'type', at: 'status', expected: 'true', seen: 'false', count: 1, requestId: 'req-soft' },
      { kind: 'type', at: 'data', expected: 'object', seen: 'null', count: 1, requestId: 'req-soft' },
      {
        kind: 'message',
        at: 'message',
        expected: expect.stringContaining('Audit log not found'),
        seen: 'No such audit',
        count: 1,
        requestId: 'req-refused',
      },
      {
        kind: 'undocumented-status',
        at: 'status',
        expected: expect.stringContaining('404'),
        seen: '422',
        count: 1,
        requestId: 'req-unprocessable',
      },
      {
        kind: 'upstream-error',
        at: 'body',
        expected: 'JSON',
        seen: 'not JSON (text/html)',
        count: 1,
        requestId: 'req-html',
      },
    ]);
  });
});

describe('--upstream: what the app gets when the upstream fails it, and what the journal keeps', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let sandbox: Sandbox;
  const report = async (s = sandbox) => dataOf(await call(s, 'GET', '/__sandbox/drift'), driftReport);

  beforeAll(async () => {
    fake = await startFakeUpstream(bank);
    sandbox = await memorySandbox({ upstream: fake.base, upstreamTimeout: 200 });
  });
  afterAll(async () => {
    await sandbox.close();
    await fake.close();
  });

  it('a path the sandbox does not emulate is forwarded too, and reported as unknown-route', async () => {
    const res = await call(sandbox, 'GET', '/api/v1/clients/business/loans', {
      headers: { 'x-request-id': 'loans-1' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, message: 'Not found', data: null });
    const route = (await report()).routes.find((r) => r.path === '/clients/business/loans');
    expect(route).toMatchObject({ method: 'GET', calls: 1, statuses: { '404': 1 } });
    expect(route?.findings).toEqual([
      {
        kind: 'unknown-route',
        at: 'path',
        expected: 'a route the sandbox emulates',
        seen: 'GET /clients/business/loans',
        count: 1,
        requestId: 'loans-1',
      },
    ]);
  });

  it('an upstream that does not answer within --upstream-timeout: 502 with the envelope, counted as a call', async () => {
    const res = await call(sandbox, 'GET', `${AUDITS}/hang`, { headers: { 'x-request-id': 'hang-1' } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      status: false,
      message: `The upstream ${fake.base} did not answer: no answer within 200 ms`,
      data: null,
    });
    const route = (await report()).routes.find((r) => r.path === '/clients/business/audits/{auditId}');
    expect(route?.calls).toBe(1);
    expect(route?.statuses).toEqual({});
    expect(route?.findings).toEqual([
      {
        kind: 'upstream-error',
        at: 'connection',
        expected: 'an answer',
        seen: 'no answer within 200 ms',
        count: 1,
        requestId: 'hang-1',
      },
    ]);
  });

  it('an answer that begins and does not end within --upstream-timeout: 502, its status counted', async () => {
    const res = await call(sandbox, 'GET', `${AUDITS}/stalled`, { headers: { 'x-request-id': 'stalled-1' } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      status: false,
      message: `The upstream ${fake.base} broke off its answer: not whole within 200 ms`,
      data: null,
    });
    const route = (await report()).routes.find((r) => r.path === '/clients/business/audits/{auditId}');
    expect(route?.statuses).toMatchObject({ '200': 1 });
    expect(route?.findings).toContainEqual({
      kind: 'upstream-error',
      at: 'body',
      expected: 'a whole answer',
      seen: 'not whole within 200 ms',
      count: 1,
      requestId: 'stalled-1',
    });
  });

  it('an upstream that refuses the connection: 502 with the envelope', async () => {
    const refused = await refusedUrl();
    const other = await memorySandbox({ upstream: `${refused}/api/v1` });
    try {
      const res = await call(other, 'GET', `${AUDITS}/good`);
      expect(res.status).toBe(502);
      expect(res.body.message).toBe(`The upstream ${refused}/api/v1 did not answer: ECONNREFUSED`);
      const [route] = (await report(other)).routes;
      expect(route?.findings).toMatchObject([
        { kind: 'upstream-error', at: 'connection', seen: 'ECONNREFUSED' },
      ]);
    } finally {
      await other.close();
    }
  });

  it('journals a forwarded request as upstream, in the journal and the HAR, redacted as any other', async () => {
    await call(sandbox, 'POST', '/api/v1/auth/signin', {
      headers: { 'x-request-id': 'signin-up' },
      body: { email: 'owner@example.com', password: 'CorrectHorse1!' },
    });
    const journal = await call(sandbox, 'GET', '/__sandbox/requests?path=/api/v1/auth/signin');
    const [first] = journal.body.data as { upstream: boolean; requestId: string }[];
    expect(first).toMatchObject({ upstream: true, requestId: 'signin-up' });
    const own = await call(sandbox, 'GET', '/__sandbox/requests?path=/__sandbox/drift');
    expect(own.status).toBe(200);
    const har = await sandbox.app.request('/__sandbox/requests.har');
    const entries = ((await har.json()) as { log: { entries: { _requestId: string; _upstream?: true }[] } })
      .log.entries;
    expect(entries.find((e) => e._requestId === 'signin-up')?._upstream).toBe(true);
  });

  it('never holds a credential or a secret value: not in the report, the journal or the HAR', async () => {
    await call(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: 'owner@example.com', password: 'CorrectHorse1!' },
    });
    await call(sandbox, 'GET', `${AUDITS}/good`, {
      headers: { authorization: `Bearer ${TOKEN}`, SECRET_KEY: SECRET },
    });
    for (const path of ['/__sandbox/drift', '/__sandbox/requests?limit=1000', '/__sandbox/requests.har']) {
      const raw = await (await sandbox.app.request(path)).text();
      for (const secret of [TOKEN, SECRET, 'CorrectHorse1!'])
        expect(raw, `${path} holds ${secret}`).not.toContain(secret);
    }
  });

  it('the handle reads and clears the same report', async () => {
    await sandbox.clearDrift();
    await call(sandbox, 'GET', `${AUDITS}/extra`);
    expect(await sandbox.drift()).toEqual(await report());
    expect((await sandbox.drift()).routes[0]?.findings[0]).toMatchObject({
      kind: 'extra-field',
      at: 'data.branchCode',
    });
    await sandbox.clearDrift();
    expect(await sandbox.drift()).toEqual({ upstream: fake.base, routes: [] });
  });

  it('DELETE /__sandbox/drift empties the report', async () => {
    await call(sandbox, 'GET', `${AUDITS}/missing`);
    expect((await report()).routes.length).toBeGreaterThan(0);
    const cleared = await call(sandbox, 'DELETE', '/__sandbox/drift');
    expect(cleared.body).toEqual({ status: true, message: 'Drift report cleared' });
    expect(await report()).toEqual({ upstream: fake.base, routes: [] });
  });
});

describe('without --upstream', () => {
  it('the sandbox answers /api/v1 itself and the drift report is empty', async () => {
    const sandbox = await memorySandbox();
    try {
      const res = await call(sandbox, 'GET', `${AUDITS}/x`);
      expect(res.status).toBe(401);
      expect(dataOf(await call(sandbox, 'GET', '/__sandbox/drift'), driftReport)).toEqual({
        upstream: null,
        routes: [],
      });
    } finally {
      await sandbox.close();
    }
  });

  it('--upstream with a user and a password is refused with a ConfigError that does not repeat them', async () => {
    const start = memorySandbox({ upstream: 'https://bankUser42:S3cretPassw0rd@bank.example/api/v1' });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(
      /^invalid option upstream: must not hold a user or a password: credentials belong in headers[^@]*$/,
    );
  });

  it.each([
    'ftp://bank.example/api/v1',
    'https://bank.example/v1',
    'https://bank.example/api/v1?key=1',
    'not a url',
  ])('--upstream %s is refused with one clear line', async (upstream) => {
    await expect(memorySandbox({ upstream })).rejects.toThrow(
      /upstream.*must be an http or https URL ending in \/api\/v1/,
    );
  });
});
