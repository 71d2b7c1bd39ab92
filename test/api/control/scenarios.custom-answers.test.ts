import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestEntry } from '../../../src/contract/control/requests.js';
import { activeScenario } from '../../../src/contract/control/scenarios.js';
import { isoOf } from '../../../src/domain/clock.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { ScenarioError } from '../../../src/scenarios/library.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { call, memorySandbox, nextSleepOn, ownerHeaders } from '../../support/sandbox.js';

// Custom answers: an `http` or `error` rule's `effect.http` answers any status 200..599 with the
// envelope, a JSON body as written (its templates rendered) or a text byte for byte, with headers and a delay.

const DETAILS = '/api/v1/clients/business/account-details';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const CUSTOMERS = '/api/v1/clients/business/customers';
const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';

const { open, later } = closedAfterEachTest();

type Rule = Record<string, unknown>;

/** Makes a scenario of `rules` the active one; it must be accepted. */
async function useRules(sandbox: Sandbox, rules: Rule[], seed?: number): Promise<void> {
  const res = await call(sandbox, 'PUT', '/__sandbox/scenario', {
    body: {
      name: 'under-test',
      description: 'Made by a test',
      ...(seed === undefined ? {} : { seed }),
      rules,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An http rule on one path that answers `answer`. */
const on = (path: string, answer: Rule, extra: Rule = {}): Rule => ({
  on: 'http',
  match: { path },
  effect: { http: answer, ...extra },
});

/** The newest journal entry of `/api/v1`. */
async function newest(sandbox: Sandbox) {
  const page = pageOf(await call(sandbox, 'GET', '/__sandbox/requests?limit=1&path=/api/v1'), requestEntry);
  const [entry] = page.data;
  if (!entry) throw new Error('the journal has no /api/v1 entry');
  return entry;
}

describe('custom answers: the body as written', () => {
  it('answers a 200 with an extra field, a missing one and a wrong type, in the route’s stead, with its headers', async () => {
    const sandbox = await open();
    const body = { status: true, message: 'Odd', data: { accountNumber: 1234567890, extra: [null] } };
    await useRules(sandbox, [
      on('account-details$', { status: 200, body, headers: { 'X-Bank-Trace': 't-1' } }),
    ]);
    // No credentials: the rule answers before the route, as the bank's outage would.
    const res = await call(sandbox, 'GET', DETAILS);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-bank-trace')).toBe('t-1');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // The journal keeps the answer as sent, and the rule that gave it.
    const entry = await newest(sandbox);
    expect(entry).toMatchObject({ status: 200, scenario: { name: 'under-test', rule: 0 }, fault: null });
    expect(entry.response.body).toEqual(body);
    // Another route is the route's own.
    expect((await call(sandbox, 'GET', CUSTOMERS)).status).toBe(401);
  });

  it('takes any status from 200 to 599, and a content type of its own', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('/a$', { status: 202, body: ['accepted'] }),
      on('/b$', {
        status: 599,
        body: 'a bare string',
        headers: { 'content-type': 'application/problem+json' },
      }),
      on('/c$', { status: 204 }),
    ]);
    const a = await sandbox.app.request('/api/v1/a');
    expect([a.status, await a.json()]).toEqual([202, ['accepted']]);
    const b = await sandbox.app.request('/api/v1/b');
    expect([b.status, b.headers.get('content-type'), await b.json()]).toEqual([
      599,
      'application/problem+json',
      'a bare string',
    ]);
    const c = await sandbox.app.request('/api/v1/c');
    expect([c.status, await c.text()]).toEqual([204, '']);
  });

  it('sends a bodyText byte for byte: a malformed body on purpose', async () => {
    const sandbox = await open();
    await useRules(sandbox, [on('account-details$', { status: 200, bodyText: '{"status": tru' })]);
    const res = await sandbox.app.request(DETAILS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text).toBe('{"status": tru');
    expect(() => JSON.parse(text)).toThrow();
    expect((await newest(sandbox)).response.body).toBeNull();
  });
});

describe('custom answers: the envelope form', () => {
  it('keeps {status, message} as the envelope of an error, which the error rules still shape', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('account-details$', { status: 503, message: 'Down for maintenance' }),
      on('customers$', { status: 502 }),
      { on: 'error', match: { status: { min: 503, max: 503 } }, effect: { status: 200 } },
    ]);
    const down = await call(sandbox, 'GET', DETAILS);
    expect([down.status, down.body]).toEqual([
      200,
      { status: false, message: 'Down for maintenance', data: null },
    ]);
    // Without a message, the status's reason phrase.
    const bare = await call(sandbox, 'GET', CUSTOMERS);
    expect([bare.status, bare.body]).toEqual([502, { status: false, message: 'Bad Gateway', data: null }]);
  });

  it('builds a success envelope below 400, and leaves a custom body alone by the error rules', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('account-details$', { status: 200, message: 'Done' }),
      on('customers$', { status: 503, body: { down: true } }),
      { on: 'error', effect: { status: 200 } },
    ]);
    expect((await call(sandbox, 'GET', DETAILS)).body).toEqual({ status: true, message: 'Done', data: null });
    const custom = await call(sandbox, 'GET', CUSTOMERS);
    expect([custom.status, custom.body]).toEqual([503, { down: true }]);
  });
});

describe('custom answers: templates', () => {
  it('puts in the path, a query parameter, a header, the clock’s time and uuids, JSON-escaped', async () => {
    const sandbox = await open();
    await sandbox.clock.freeze(true);
    await useRules(sandbox, [
      on('customers$', {
        status: 200,
        body: {
          path: '{{request.path}}',
          page: 'page {{request.query.page}} of {{request.query.none}}',
          agent: '{{request.header.User-Agent}}',
          at: '{{now}}',
          ids: ['{{uuid}}', '{{uuid}}'],
        },
      }),
    ]);
    const res = await sandbox.app.request(`${CUSTOMERS}?page=${encodeURIComponent('2"\\\n')}`, {
      headers: { 'user-agent': 'app "quoted"/1.0' },
    });
    const body = (await res.json()) as { ids: string[] };
    expect(body).toEqual({
      path: CUSTOMERS,
      page: 'page 2"\\\n of ',
      agent: 'app "quoted"/1.0',
      at: isoOf(sandbox.clock.now()),
      ids: [expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)],
    });
    expect(body.ids[0]).not.toBe(body.ids[1]);
  });

  it('reads the request body, which the journal then keeps', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('funds/transfer$', {
        status: 200,
        body: {
          status: true,
          message: 'Transfer successful',
          data: {
            amount: '{{request.body.amount}}',
            said: '{{request.body.narration}}',
            none: '{{request.body.x.y}}',
          },
        },
      }),
    ]);
    const sent = { amount: 150_000, narration: 'rent "June"\n' };
    const res = await call(sandbox, 'POST', TRANSFER, { body: sent });
    expect(res.body).toEqual({
      status: true,
      message: 'Transfer successful',
      data: { amount: '150000', said: 'rent "June"\n', none: '' },
    });
    expect((await newest(sandbox)).request.body).toEqual(sent);
  });

  it('answers 413, and not the custom answer, to a body over the limit that a template would read', async () => {
    const sandbox = await open({ bodyLimit: 400 });
    await useRules(sandbox, [
      on('funds/transfer$', { status: 200, body: { n: '{{request.body.narration}}' } }),
    ]);
    const res = await call(sandbox, 'POST', TRANSFER, { body: { narration: 'x'.repeat(500) } });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe(false);
  });

  it('reads the body within the route’s own bound: a bulk create past --body-limit still gets the custom answer', async () => {
    // The bulk create takes far more than --body-limit (10 000 transfers); a rule that reads its body must too,
    // where the global limit would have answered 413 to a body the route itself takes.
    const sandbox = await open({ bodyLimit: 400 });
    await useRules(sandbox, [
      on('bulk-transfer$', { status: 201, body: { batch: '{{request.body.batchName}}' } }),
    ]);
    const transfers = Array.from({ length: 20 }, (_, i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `bulk-${i}`,
    }));
    const body = { batchName: 'Payroll', transfers };
    expect(JSON.stringify(body).length).toBeGreaterThan(400);
    const res = await call(sandbox, 'POST', BULK, { body });
    expect([res.status, res.body]).toEqual([201, { batch: 'Payroll' }]);
  });

  it('answers 502, logged, when a template renders the answer too large: the rule failed, not the sandbox', async () => {
    const lines: string[] = [];
    // Quiet, as code runs by default: the line is a warning, which a quiet run keeps.
    const sandbox = await open({ logFormat: 'json', log: (line) => lines.push(line) });
    await useRules(sandbox, [
      on('funds/transfer$', { status: 200, body: { a: '{{request.body.n}}', b: '{{request.body.n}}' } }),
    ]);
    // Within the body limit, but twice over the 1048576 characters a rendered answer may have.
    const res = await call(sandbox, 'POST', TRANSFER, { body: { n: 'x'.repeat(600_000) } });
    const message =
      'The scenario rule\'s custom answer (scenario "under-test", rule 0) rendered to more than 1048576 characters: a template put a long value of the request in it. The rule\'s answer failed, not the sandbox';
    expect([res.status, res.body]).toEqual([502, { status: false, message, data: null }]);
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        event: 'scenario.answer_too_large',
        method: 'POST',
        path: TRANSFER,
        requestId: res.headers.get('x-request-id'),
        scenario: { name: 'under-test', rule: 0 },
        limit: 1_048_576,
        message,
      },
    ]);
  });

  it('draws the same uuids for the same calls once the rules are chosen again, and others under another seed', async () => {
    const sandbox = await open();
    const rules = [on('customers$', { status: 200, body: { id: '{{uuid}}' } })];
    const ids = async () => {
      const out: unknown[] = [];
      for (let i = 0; i < 3; i++) out.push((await call(sandbox, 'GET', CUSTOMERS)).body.id);
      return out;
    };
    await useRules(sandbox, rules, 7);
    const first = await ids();
    expect(new Set(first).size).toBe(3);
    await useRules(sandbox, rules, 7);
    expect(await ids()).toEqual(first);
    await useRules(sandbox, rules, 8);
    const other = await ids();
    expect(other.some((id, i) => id === first[i])).toBe(false);
  });
});

describe('custom answers: error rules', () => {
  it('replaces an error answer, its templates reading the body the route read', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useRules(sandbox, [
      {
        on: 'error',
        match: { validation: true },
        effect: {
          http: {
            status: 422,
            body: { ok: false, field: 'amount', ref: '{{request.body.retrievalReference}}' },
          },
        },
      },
    ]);
    const res = await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: { retrievalReference: 'ref-9', receiverAccountNumber: '0123456785', receiverBankCode: '058' },
    });
    expect([res.status, res.body]).toEqual([422, { ok: false, field: 'amount', ref: 'ref-9' }]);
    // An error that is no validation failure is the route's own.
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(401);
  });

  it('waits the answer’s delayMs on the sandbox clock', async () => {
    const sandbox = await open();
    await sandbox.clock.freeze(true);
    await useRules(sandbox, [on('account-details$', { status: 200, body: { late: true }, delayMs: 400 })]);
    const clock = sandbox.clock;
    const asleep = nextSleepOn(clock);
    let answered = false;
    const pending = call(sandbox, 'GET', DETAILS).finally(() => {
      answered = true;
    });
    expect(await asleep).toBe(400);
    await clock.advance(399);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).body).toEqual({ late: true });
  });
});

describe('bad custom answers and faults are 400 naming the field, nothing applied', () => {
  const bad: [string, Rule, string][] = [
    [
      'a template that names nothing',
      on('x', { status: 200, body: { data: { ref: '{{request.bodyy.ref}}' } } }),
      'rules[0].effect.http.body.data.ref',
    ],
    ['a status of 199', on('x', { status: 199 }), 'rules[0].effect.http.status'],
    [
      'a content-length header',
      on('x', { status: 200, headers: { 'Content-Length': '1' } }),
      'rules[0].effect.http.headers.Content-Length',
    ],
    [
      'a body over 64 KiB',
      on('x', { status: 200, body: { a: 'x'.repeat(70_000) } }),
      'rules[0].effect.http.body',
    ],
    [
      'a fault on a transfer rule',
      { on: 'transfer', effect: { fault: { kind: 'reset' } } },
      'rules[0].effect.fault',
    ],
    [
      'a slowBody without bytesPerSecond',
      { on: 'http', effect: { fault: { kind: 'slowBody' } } },
      'rules[0].effect.fault.bytesPerSecond',
    ],
  ];

  it.each(bad)('PUT /__sandbox/scenario refuses %s', async (_name, rule, field) => {
    const sandbox = await open();
    const before = dataOf(await call(sandbox, 'GET', '/__sandbox/scenario'), activeScenario);
    const res = await call(sandbox, 'PUT', '/__sandbox/scenario', {
      body: { name: 'bad', description: 'd', rules: [rule] },
    });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(dataOf(await call(sandbox, 'GET', '/__sandbox/scenario'), activeScenario)).toEqual(before);
  });

  it.each(bad)('POST /__sandbox/scenario/rules refuses %s', async (_name, rule, field) => {
    const sandbox = await open();
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules: [rule] } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(dataOf(await call(sandbox, 'GET', '/__sandbox/scenario'), activeScenario).overrides).toEqual([]);
  });

  it('a start-up scenario file with a bad template is refused naming the file and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'custom-answer-'));
    later(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'bad',
        description: 'd',
        rules: [on('x', { status: 200, body: { a: '{{nope}}' } })],
      }),
    );
    const started = memorySandbox({ scenario: file });
    await expect(started).rejects.toBeInstanceOf(ScenarioError);
    await expect(started).rejects.toThrow(
      `scenario ${file}: rules[0].effect.http.body.a: {{nope}} names nothing`,
    );
  });
});

describe('custom answers: isolated sandboxes', () => {
  it('answer at /sandboxes/{id}/… from that sandbox’s rules alone', async () => {
    const root = await open();
    const isolated = await root.isolate({ id: 'custom' });
    later(() => isolated.dispose());
    await useRules(isolated, [on('account-details$', { status: 200, body: { from: '{{request.path}}' } })]);
    const res = await root.app.request(`/sandboxes/custom${DETAILS}`);
    expect(await res.json()).toEqual({ from: DETAILS });
    expect((await call(root, 'GET', DETAILS)).status).toBe(401);
  });
});

describe('custom answers on the sandbox’s own origin', () => {
  const XSS = '<script>alert("x")</script>&\'';

  it('a page’s templates are HTML-escaped, its own text sent as written, with nosniff and a sandboxing policy', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('account-details$', {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: { page: '<b>Hello {{request.query.q}}</b>' },
      }),
    ]);
    const res = await sandbox.app.request(`${DETAILS}?q=${encodeURIComponent(XSS)}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      JSON.stringify({
        page: '<b>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</b>',
      }),
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('a JSON answer’s templates are JSON-escaped only (application/json and +json alike), with the same headers', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('account-details$', { status: 200, body: { echo: '{{request.query.q}}' } }),
      on('customers$', {
        status: 200,
        headers: { 'Content-Type': 'application/problem+json' },
        body: { echo: '{{request.query.q}}' },
      }),
    ]);
    const plain = await call(sandbox, 'GET', `${DETAILS}?q=${encodeURIComponent(XSS)}`);
    expect(plain.body).toEqual({ echo: XSS });
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('content-security-policy')).toBe('sandbox');
    const problem = await call(sandbox, 'GET', `${CUSTOMERS}?q=${encodeURIComponent(XSS)}`);
    expect(problem.body).toEqual({ echo: XSS });
  });

  it('keeps a rule’s own X-Content-Type-Options and Content-Security-Policy, once each', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      on('account-details$', {
        status: 200,
        headers: { 'X-Content-Type-Options': 'none', 'Content-Security-Policy': "default-src 'self'" },
        bodyText: '<p>as written</p>',
      }),
    ]);
    const res = await sandbox.app.request(DETAILS);
    expect(res.headers.get('x-content-type-options')).toBe('none');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(await res.text()).toBe('<p>as written</p>');
  });
});
