import { describe, expect, it } from 'vitest';
import { requestEntry } from '../../src/control/requests/schemas.js';
import { activeScenario } from '../../src/control/scenarios/schemas.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf, pageOf } from '../support/answers.js';
import { bulkHelpers, type Transfer } from '../support/bulk.js';
import { closedAfterEachTest } from '../support/cleanups.js';
import { call, ownerHeaders } from '../support/sandbox.js';

// The `error` rules: an error answer of /api/v1 sent with another status, just before it goes out.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const DETAILS = '/api/v1/clients/business/account-details';
const SIGNIN = '/api/v1/auth/signin';
const CUSTOMERS = '/api/v1/clients/business/customers';

const { open } = closedAfterEachTest();
const bulk = bulkHelpers({ label: 'err', narration: 'Error rules', batchName: 'Errors' });

/** A transfer body of 100 000 kobo with a fresh reference, as the plain record `call` sends. */
const transfer = (overrides: Partial<Transfer> = {}): Record<string, unknown> => ({
  ...bulk.transfer(overrides),
});

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
      'rules.0.effect.status',
    ],
    ['a 2xx other than 200', { on: 'error', effect: { status: 201 } }, 'rules.0.effect.status'],
    [
      'delayMs on an error rule',
      { on: 'error', effect: { status: 200, delayMs: 5 } },
      'rules.0.effect.delayMs',
    ],
    ['status on an http rule', { on: 'http', effect: { status: 200 } }, 'rules.0.effect.status'],
    [
      'validation on an http rule',
      { on: 'http', match: { validation: true }, effect: { http: { status: 503, message: 'x' } } },
      'rules.0.match.validation',
    ],
    [
      'a status range below 400',
      { on: 'error', match: { status: { min: 200 } }, effect: { status: 200 } },
      'rules.0.match.status.min',
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
