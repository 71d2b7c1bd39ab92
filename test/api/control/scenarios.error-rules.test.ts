import { describe, expect, it } from 'vitest';
import softErrors from '../../../scenarios/soft-errors.json' with { type: 'json' };
import validation422 from '../../../scenarios/validation-422.json' with { type: 'json' };
import { requestEntry } from '../../../src/contract/control/requests.js';
import { activeScenario, readyScenarios } from '../../../src/contract/control/scenarios.js';
import { errorEnvelope } from '../../../src/contract/wire.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { bulkHelpers, type Transfer } from '../../support/bulk.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { ledgerOf, transferEntry } from '../../support/money.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor } from '../../support/sandbox.js';

// The `error` rules and the two ready scenarios made of them: the bank's docs list 422 for a
// validation error and say some errors come back 200 with `status: false`.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const DETAILS = '/api/v1/clients/business/account-details';
const SIGNIN = '/api/v1/auth/signin';
const CUSTOMERS = '/api/v1/clients/business/customers';

type Answer = Awaited<ReturnType<typeof call>>;

const { open } = closedAfterEachTest();
const bulk = bulkHelpers({ label: 'err', narration: 'Error rules', batchName: 'Errors' });

/** A transfer body of 100 000 kobo with a fresh reference, as the plain record `call` sends. */
const transfer = (overrides: Partial<Transfer> = {}): Record<string, unknown> & Transfer => ({
  ...bulk.transfer(overrides),
});

/** The error envelope of an answer, parsed: whatever its status, the body is the envelope. */
function envelope(res: Answer) {
  const parsed = errorEnvelope().safeParse(res.body);
  expect(parsed.error, JSON.stringify(res.body)).toBeUndefined();
  return parsed.data;
}

/** The newest journal entry of `/api/v1`. */
async function newest(sandbox: Sandbox) {
  const page = pageOf(await call(sandbox, 'GET', '/__sandbox/requests?limit=1&path=/api/v1'), requestEntry);
  const [entry] = page.data;
  if (!entry) throw new Error('the journal has no /api/v1 entry');
  return entry;
}

/** Makes a whole scenario object active; it must be accepted. */
async function useRules(sandbox: Sandbox, rules: Record<string, unknown>[]): Promise<void> {
  const res = await call(sandbox, 'PUT', '/__sandbox/scenario', {
    body: { name: 'under-test', description: 'Made by a test', rules },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A transfer with no amount: a validation failure, with `errors`. */
const noAmount = () => {
  const { amount: _amount, ...rest } = transfer();
  return rest;
};

/**
 * One of each refusal of `/api/v1` the sandbox gives, as `[what, status it has by default, the call]`: the same
 * requests under `soft-errors` answer 200 with the same body.
 */
function refusals(sandbox: Sandbox, headers: Record<string, string>, viewer: Record<string, string>) {
  const used = transfer();
  return [
    ['no credentials: 401', 401, () => call(sandbox, 'GET', DETAILS)],
    [
      'a Viewer sending money: 403',
      403,
      () => call(sandbox, 'POST', TRANSFER, { headers: viewer, body: transfer() }),
    ],
    ['an unknown route: 404', 404, () => call(sandbox, 'GET', '/api/v1/nowhere', { headers })],
    [
      'a business not the client’s: 401',
      401,
      () => call(sandbox, 'GET', DETAILS, { headers: { ...headers, businessId: B.b1.id } }),
    ],
    ['a method the path does not take: 405', 405, () => call(sandbox, 'DELETE', DETAILS, { headers })],
    [
      'a validation failure: 400 with errors',
      400,
      () => call(sandbox, 'POST', TRANSFER, { headers, body: noAmount() }),
    ],
    [
      'a malformed JSON body: 400',
      400,
      () =>
        call(sandbox, 'POST', SIGNIN, { headers: { 'content-type': 'application/json' }, body: '{"email":' }),
    ],
    [
      'a reference used for another transfer: 409',
      409,
      async () => {
        expect((await call(sandbox, 'POST', TRANSFER, { headers, body: used })).status).toBe(200);
        return call(sandbox, 'POST', TRANSFER, { headers, body: { ...used, amount: 200_000 } });
      },
    ],
    [
      'a body over the limit: 413',
      413,
      () => call(sandbox, 'POST', SIGNIN, { body: { email: A.owner.email, password: 'x'.repeat(4096) } }),
    ],
    [
      'another content type: 415',
      415,
      () => call(sandbox, 'POST', SIGNIN, { headers: { 'content-type': 'text/plain' }, body: 'hello' }),
    ],
  ] as const;
}

describe('ready scenario: validation-422', () => {
  it('answers a validation failure 422 with the envelope and the errors the 400 had', async () => {
    const sandbox = await open({ scenario: 'validation-422' });
    const headers = await ownerHeaders(sandbox);
    const res = await call(sandbox, 'POST', TRANSFER, { headers, body: noAmount() });
    expect(res.status).toBe(422);
    expect(envelope(res)).toMatchObject({
      status: false,
      message: 'amount is required',
      data: null,
      errors: [{ field: 'amount', message: 'is required' }],
    });
    // A query that does not validate is one too.
    expect((await call(sandbox, 'GET', `${CUSTOMERS}?page=0`, { headers })).status).toBe(422);
    expect((await newest(sandbox)).scenario).toEqual({ name: 'validation-422', rule: 0 });
  });

  it('leaves every other error as it is: a malformed JSON body (no field to name), 401, 404, a failed transfer', async () => {
    const sandbox = await open({ scenario: 'validation-422' });
    const headers = await ownerHeaders(sandbox);
    const malformed = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(envelope(malformed)).toEqual({ status: false, message: 'Malformed JSON body', data: null });
    expect((await newest(sandbox)).scenario).toBeNull();
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(401);
    expect((await call(sandbox, 'GET', '/api/v1/nowhere')).status).toBe(404);
    // It extends default: the magic accounts still fail, 400 as ever (a failed transfer names no field).
    const failing = transfer({ receiverAccountNumber: '0000000051' });
    const failed = await call(sandbox, 'POST', TRANSFER, { headers, body: failing });
    expect(failed.status).toBe(400);
    expect(envelope(failed)).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    expect((await transferEntry(sandbox, failing.retrievalReference)).errorCode).toBe('51');
  });
});

describe('ready scenario: soft-errors', () => {
  it('answers every refusal 200 with the body the 4xx had', async () => {
    /** The same calls to a sandbox: what each is, the status it has by default, and what came back. */
    const refused = async (sandbox: Sandbox) => {
      const headers = await ownerHeaders(sandbox);
      const viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey, A.a1.id);
      const answers: { what: string; status: number; res: Answer }[] = [];
      for (const [what, status, send] of refusals(sandbox, headers, viewer))
        answers.push({ what, status, res: await send() });
      return answers;
    };
    const plain = await refused(await open({ bodyLimit: 1024 }));
    const soft = await refused(await open({ bodyLimit: 1024, scenario: 'soft-errors' }));
    for (const { what, status, res } of plain) expect(res.status, what).toBe(status);
    for (const { what, res } of soft) {
      expect(res.status, what).toBe(200);
      expect(envelope(res)?.status, what).toBe(false);
      expect(res.headers.get('x-request-id'), what).toBeTruthy();
    }
    expect(soft.map((a) => a.res.body)).toEqual(plain.map((a) => a.res.body));
  });

  it('keeps what the refusal said in its headers: Allow on a 405, connection: close on a 413', async () => {
    const sandbox = await open({ bodyLimit: 1024, scenario: 'soft-errors' });
    const headers = await ownerHeaders(sandbox);
    const notAllowed = await call(sandbox, 'DELETE', DETAILS, { headers });
    expect(notAllowed.status).toBe(200);
    expect(notAllowed.headers.get('allow')).toBe('GET, HEAD');
    const large = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: 'x'.repeat(4096) },
    });
    expect(large.status).toBe(200);
    expect(envelope(large)?.message).toBe('Request body too large');
    expect(large.headers.get('connection')).toBe('close');
  });

  it('answers a failed transfer to a magic account 200 status: false, and debits nothing', async () => {
    const sandbox = await open({ scenario: 'soft-errors' });
    const headers = await ownerHeaders(sandbox);
    const before = (await ledgerOf(sandbox)).balance;
    const failing = transfer({ receiverAccountNumber: '0000000051' });
    const res = await call(sandbox, 'POST', TRANSFER, { headers, body: failing });
    expect(res.status).toBe(200);
    expect(envelope(res)).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    // Its code is on its ledger entry, as for any failed transfer.
    expect(await transferEntry(sandbox, failing.retrievalReference)).toMatchObject({
      status: 'failed',
      errorCode: '51',
    });
    expect((await ledgerOf(sandbox)).balance).toBe(before);
    // The journal names the rule that gave the answer its status, the error rule, over the transfer rule.
    expect((await newest(sandbox)).scenario).toEqual({ name: 'soft-errors', rule: 0 });
    // A transfer that goes through is untouched.
    const ok = await call(sandbox, 'POST', TRANSFER, { headers, body: transfer() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: true, message: 'Transfer successful' });
    expect((await newest(sandbox)).scenario).toBeNull();
  });

  it('meets an http rule’s own answer too, but leaves a 5xx as it is', async () => {
    const sandbox = await open({ scenario: 'soft-errors' });
    const headers = await ownerHeaders(sandbox);
    const res = await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: {
        rules: [
          {
            on: 'http',
            match: { method: 'GET', path: 'account-details$' },
            effect: { http: { status: 429, message: 'Slow down' } },
          },
          {
            on: 'http',
            match: { method: 'GET', path: 'customers$' },
            effect: { http: { status: 503, message: 'Down' } },
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const limited = await call(sandbox, 'GET', DETAILS, { headers });
    expect(limited.status).toBe(200);
    expect(envelope(limited)).toEqual({ status: false, message: 'Slow down', data: null });
    // Overrides first: the error rule is the third rule in force.
    expect((await newest(sandbox)).scenario).toEqual({ name: 'soft-errors', rule: 2 });
    const down = await call(sandbox, 'GET', CUSTOMERS, { headers });
    expect(down.status).toBe(503);
    expect((await newest(sandbox)).scenario).toEqual({ name: 'soft-errors', rule: 1 });
  });

  it('never touches /__sandbox: its refusals keep their status', async () => {
    const sandbox = await open({ scenario: 'soft-errors' });
    expect((await call(sandbox, 'GET', '/__sandbox/nowhere')).status).toBe(404);
    expect((await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'nope' } })).status).toBe(404);
    const advance = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: -1 } });
    expect(advance.status).toBe(400);
    expect(advance.body.errors).toBeDefined();
  });
});

describe('per-request choice of an error scenario: x-sandbox-scenario', () => {
  it('soft-errors and validation-422 on one request each; the requests around them answer as ever', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const soft = { 'x-sandbox-scenario': 'soft-errors' };
    expect((await call(sandbox, 'GET', DETAILS, { headers: soft })).status).toBe(200);
    expect((await newest(sandbox)).scenario).toEqual({ name: 'soft-errors', rule: 0 });
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(401);
    const failed = await call(sandbox, 'POST', TRANSFER, {
      headers: { ...headers, ...soft },
      body: transfer({ receiverAccountNumber: '0000000051' }),
    });
    expect(failed.status).toBe(200);
    expect(envelope(failed)).toEqual({ status: false, message: 'Insufficient Funds', data: null });
    const strict = { ...headers, 'x-sandbox-scenario': 'validation-422' };
    expect((await call(sandbox, 'POST', TRANSFER, { headers: strict, body: noAmount() })).status).toBe(422);
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: noAmount() })).status).toBe(400);
    // The active scenario stays default.
    expect(dataOf(await call(sandbox, 'GET', '/__sandbox/scenario'), activeScenario).name).toBe('default');
  });

  it('a header that names no ready scenario gets its own 400, which no error rule changes', async () => {
    const sandbox = await open({ scenario: 'soft-errors' });
    const res = await call(sandbox, 'GET', DETAILS, { headers: { 'x-sandbox-scenario': 'nope' } });
    expect(res.status).toBe(400);
    expect(envelope(res)?.message).toMatch(
      /^x-sandbox-scenario: no ready scenario named "nope" \(ready: default, /,
    );
  });
});

describe('error rules of a scenario of its own', () => {
  it('match on status, validation, method and path; the first that holds wins', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useRules(sandbox, [
      {
        on: 'error',
        match: { method: 'GET', path: 'account-details$', status: { min: 401, max: 401 } },
        effect: { status: 403 },
      },
      { on: 'error', match: { validation: false, status: { min: 400, max: 400 } }, effect: { status: 418 } },
      { on: 'error', match: { status: { min: 400, max: 499 } }, effect: { status: 500 } },
    ]);
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(403);
    const malformed = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(418);
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: noAmount() })).status).toBe(500);
    expect((await call(sandbox, 'GET', CUSTOMERS)).status).toBe(500);
  });

  it('times: the rule applies so often, and a rule that would change nothing neither applies nor shows', async () => {
    const sandbox = await open();
    await useRules(sandbox, [{ on: 'error', effect: { status: 404 }, times: 1 }]);
    // A 404 already: the rule changes nothing, keeps its one time, and the journal names no rule.
    expect((await call(sandbox, 'GET', '/api/v1/nowhere')).status).toBe(404);
    expect((await newest(sandbox)).scenario).toBeNull();
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(404);
    expect((await newest(sandbox)).scenario).toEqual({ name: 'under-test', rule: 0 });
    expect((await call(sandbox, 'GET', DETAILS)).status).toBe(401);
    expect((await newest(sandbox)).scenario).toBeNull();
  });

  it.each([
    [
      'a status that is not 200 nor an error',
      { on: 'error', effect: { status: 302 } },
      'rules[0].effect.status',
    ],
    ['a 2xx other than 200', { on: 'error', effect: { status: 201 } }, 'rules[0].effect.status'],
    [
      'delayMs on an error rule',
      { on: 'error', effect: { status: 200, delayMs: 5 } },
      'rules[0].effect.delayMs',
    ],
    ['status on an http rule', { on: 'http', effect: { status: 200 } }, 'rules[0].effect.status'],
    [
      'validation on an http rule',
      { on: 'http', match: { validation: true }, effect: { http: { status: 503, message: 'x' } } },
      'rules[0].match.validation',
    ],
    [
      'a status range below 400',
      { on: 'error', match: { status: { min: 200 } }, effect: { status: 200 } },
      'rules[0].match.status.min',
    ],
  ])('refuses %s with 400 naming the field, and the scenario stays', async (_what, rule, field) => {
    const sandbox = await open();
    const res = await call(sandbox, 'PUT', '/__sandbox/scenario', {
      body: { name: 'bad', description: 'A bad rule', rules: [rule] },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(dataOf(await call(sandbox, 'GET', '/__sandbox/scenario'), activeScenario).name).toBe('default');
  });
});

describe('GET /__sandbox/scenarios', () => {
  it('lists validation-422 and soft-errors with the descriptions of their files', async () => {
    const sandbox = await open();
    const list = dataOf(await call(sandbox, 'GET', '/__sandbox/scenarios'), readyScenarios);
    expect(list).toContainEqual({ name: 'validation-422', description: validation422.description });
    expect(list).toContainEqual({ name: 'soft-errors', description: softErrors.description });
  });
});
