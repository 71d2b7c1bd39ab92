import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import defaultScenario from '../../../scenarios/default.json' with { type: 'json' };
import {
  type ActiveScenarioView,
  activeScenario,
  readyScenarios,
} from '../../../src/contract/control/scenarios.js';
import { scenario as scenarioSchema } from '../../../src/contract/scenarios.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { ScenarioError } from '../../../src/scenarios/library.js';
import { dataOf } from '../../support/answers.js';
import { keysA1, processBatch, RECEIVER } from '../../support/bulk.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { call, memorySandbox, ownerHeaders } from '../../support/sandbox.js';
import {
  balanceOf,
  create,
  drain,
  expectOutage,
  expectTransferFailed,
  expectTransferOk,
  getBatch,
  itemAt,
  pay,
  putScenario,
  send,
  settle,
  TRANSFER,
  transfer,
  useScenario,
  webhookAccount,
} from '../../support/scenario-calls.js';
import { delivery, FAST } from '../../support/webhooks.js';

// A scenario put whole through PUT /__sandbox/scenario, switched at run time, chosen per request or at start-up
// (scenarios.test.ts has the ready scenarios one by one).

const _ANONYMOUS = '/api/v1/clients/business/customers/funds/anonymous-transfer';
const DETAILS = '/api/v1/clients/business/account-details';
const CUSTOMERS = '/api/v1/clients/business/customers';
const SCENARIO = '/__sandbox/scenario';

const READY = [
  'default',
  'duplicate-webhooks',
  'flaky-bank',
  'happy-path',
  'insufficient-funds-midway',
  'limits',
  'narration-codes',
  'provider-outage',
  'reconciliation',
  'slow-processing',
  'soft-errors',
  'validation-422',
  'webhook-receiver-down',
];

const { later, open, receiver } = closedAfterEachTest();

async function describeScenario(sandbox: Sandbox): Promise<ActiveScenarioView> {
  const res = await call(sandbox, 'GET', SCENARIO);
  expect(res.status).toBe(200);
  return dataOf(res, activeScenario);
}

describe('effects through PUT /__sandbox/scenario with a whole scenario', () => {
  it('hold: keeps bulk items processing until a drain, then completes them', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useScenario(sandbox, [{ on: 'bulk.item', effect: { hold: true } }]);
    const batch = await create(sandbox, [transfer(), transfer(), transfer()]);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const held = await getBatch(sandbox, batch.id);
    expect(held).toMatchObject({ status: 'processing', completedItems: 0, failedItems: 0 });
    expect(held.items.map((i) => i.status)).toEqual(['processing', 'processing', 'processing']);
    // Other work goes on meanwhile, and the items are still held after it.
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    expect((await getBatch(sandbox, batch.id)).items.map((i) => i.status)).toEqual([
      'processing',
      'processing',
      'processing',
    ]);

    expect((await drain(sandbox)).status).toBe(200);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'completed', completedItems: 3, failedItems: 0 });
  });

  it('hold: a drain also lets go items that reach their turn while it runs (batch larger than the concurrency)', async () => {
    const sandbox = await open({ bulkConcurrency: 2 });
    await useScenario(sandbox, [{ on: 'bulk.item', effect: { hold: true } }]);
    const batch = await create(
      sandbox,
      Array.from({ length: 5 }, () => transfer()),
    );
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    const res = await drain(sandbox, '?timeoutMs=1000');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await getBatch(sandbox, batch.id);
    expect(done).toMatchObject({ status: 'completed', completedItems: 5, failedItems: 0 });
  });

  it('webhook drop: the delivery is dropped and the receiver gets nothing', async () => {
    const hook = await receiver();
    const sandbox = await open(FAST);
    await useScenario(sandbox, [{ on: 'webhook', effect: { webhook: 'drop' } }]);
    const account = await webhookAccount(sandbox, hook.url);
    const id = await pay(sandbox, account);
    await sandbox.drain();
    const d = await delivery(sandbox, id);
    expect(d.status).toBe('dropped');
    expect(hook.received).toEqual([]);
  });

  it('times 2: only the first two matching transfers fail', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useScenario(sandbox, [
      {
        on: 'transfer',
        match: { accountNumber: RECEIVER },
        effect: { fail: { errorCode: '12', errorMessage: 'Invalid transaction' } },
        times: 2,
      },
    ]);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12', 'Invalid transaction');
    // A transfer the rule does not match does not use up its times.
    expectTransferOk(await send(sandbox, headers, '0000000052'));
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12', 'Invalid transaction');
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    expectTransferOk(await send(sandbox, headers, RECEIVER));
  });

  it('everyNth 2 on bulk.item: the items at itemIndex 1, 3 and 5 fail', async () => {
    const sandbox = await open();
    await useScenario(sandbox, [
      {
        on: 'bulk.item',
        match: { everyNth: 2 },
        effect: { fail: { errorCode: '96', errorMessage: 'System malfunction' } },
      },
    ]);
    const batch = await settle(
      sandbox,
      Array.from({ length: 6 }, () => transfer()),
    );
    expect(batch).toMatchObject({ status: 'partially_completed', completedItems: 3, failedItems: 3 });
    const failed = batch.items.filter((i) => i.status === 'failed').map((i) => i.itemIndex);
    expect(failed.sort((a, b) => a - b)).toEqual([1, 3, 5]);
    for (const i of [1, 3, 5]) expect(itemAt(batch, i).errorCode).toBe('96');
  });

  it('batchName: fails the items of the named batch only', async () => {
    const sandbox = await open();
    await useScenario(sandbox, [
      {
        on: 'bulk.item',
        match: { batchName: 'Payroll' },
        effect: { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } },
      },
    ]);
    const payroll = await settle(sandbox, [transfer(), transfer()], keysA1, 'Payroll');
    expect(payroll).toMatchObject({ status: 'failed', failedItems: 2 });
    const vendors = await settle(sandbox, [transfer(), transfer()], keysA1, 'Vendors');
    expect(vendors).toMatchObject({ status: 'completed', completedItems: 2 });
  });

  it('http: a GET rule with a path regex answers 418 on that route only (with its delay)', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useScenario(sandbox, [
      {
        on: 'http',
        match: { method: 'GET', path: '^/api/v1/clients/business/account-details$' },
        effect: { http: { status: 418, message: 'I am a teapot' }, delayMs: 20 },
      },
    ]);
    expectOutage(await call(sandbox, 'GET', DETAILS, { headers }), 418, 'I am a teapot');
    expect((await call(sandbox, 'GET', CUSTOMERS, { headers })).status).toBe(200);
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    // Another method on the same path is not the rule's: the path's own answer (no POST route there: 405).
    const post = await call(sandbox, 'POST', DETAILS, { headers, body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('http: a rule meets a path no route takes (404 and 405 alike), and an unknown scenario there is 400', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    await useScenario(sandbox, [
      {
        on: 'http',
        match: { path: '^/api/v1/(nowhere|clients/business/account-details)$' },
        effect: { http: { status: 418, message: 'I am a teapot' } },
      },
    ]);
    expectOutage(await call(sandbox, 'GET', '/api/v1/nowhere', { headers }), 418, 'I am a teapot');
    expectOutage(await call(sandbox, 'POST', DETAILS, { headers, body: {} }), 418, 'I am a teapot');
    expect((await call(sandbox, 'GET', '/api/v1/elsewhere', { headers })).status).toBe(404);
    const nope = await call(sandbox, 'GET', '/api/v1/elsewhere', {
      headers: { ...headers, 'x-sandbox-scenario': 'nope' },
    });
    expect(nope.status).toBe(400);
    expect(nope.body.message).toContain('nope');
  });

  it('http: the rules come before the body limit: a transfer too large for it gets the outage, not 413', async () => {
    const sandbox = await open({ bodyLimit: 1024 });
    const headers = await ownerHeaders(sandbox);
    const large = { ...transfer(RECEIVER), narration: 'x'.repeat(2000) };
    const outage = await call(sandbox, 'POST', TRANSFER, {
      headers: { ...headers, 'x-sandbox-scenario': 'provider-outage' },
      body: large,
    });
    expectOutage(outage);
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body: large })).status).toBe(413);
  });

  it('extends: a whole scenario may extend a ready one, its rules first', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const res = await putScenario(sandbox, {
      name: 'mine',
      description: 'Mine',
      extends: 'default',
      rules: [
        {
          on: 'transfer',
          match: { accountNumber: '0000000051' },
          effect: { fail: { errorCode: '12', errorMessage: 'Invalid transaction' } },
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(dataOf(res, activeScenario).rules).toHaveLength(1 + defaultScenario.rules.length);
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '12');
    await expectTransferFailed(await send(sandbox, headers, '0000000007'), '07');
  });
});

describe('runtime switching', () => {
  it('shows the start-up scenario default and its rules', async () => {
    const sandbox = await open();
    const described = await describeScenario(sandbox);
    expect(described).toMatchObject({
      startup: 'default',
      name: 'default',
      description: defaultScenario.description,
      overrides: [],
    });
    expect(described.rules).toEqual(scenarioSchema.parse(defaultScenario).rules);
    expect(typeof described.seed).toBe('number');
  });

  it('PUT {name} switches to a ready scenario; DELETE brings default back', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const put = await putScenario(sandbox, { name: 'happy-path' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ startup: 'default', name: 'happy-path', rules: [] });
    expect((await describeScenario(sandbox)).name).toBe('happy-path');
    expectTransferOk(await send(sandbox, headers, '0000000051'));

    const del = await call(sandbox, 'DELETE', SCENARIO);
    expect(del.status).toBe(200);
    expect(dataOf(del, activeScenario).name).toBe('default');
    expect((await describeScenario(sandbox)).name).toBe('default');
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '51');
  });

  it('PUT {name} of an unknown scenario is 404 and changes nothing', async () => {
    const sandbox = await open();
    const res = await putScenario(sandbox, { name: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toContain('nope');
    expect((await describeScenario(sandbox)).name).toBe('default');
  });

  it.each([
    [
      'an empty effect',
      { name: 'bad', description: 'd', rules: [{ on: 'transfer', effect: {} }] },
      'rules[0].effect',
    ],
    ['a name with capitals', { name: 'Bad', description: 'd', rules: [] }, 'name'],
    ['no rules', { name: 'bad', description: 'd' }, 'rules'],
    [
      'an unknown rule key',
      { name: 'bad', description: 'd', rules: [{ on: 'transfer', effect: { delayMs: 1 }, when: 1 }] },
      'rules[0]',
    ],
    ['a path to a file as name', { name: '../default' }, 'name'],
    [
      'extends of an unknown scenario',
      { name: 'bad', description: 'd', extends: 'nope', rules: [] },
      'extends',
    ],
  ] as [string, Record<string, unknown>, string][])(
    'PUT with %s is 400 with the error envelope, the active scenario unchanged',
    async (_n, body, field) => {
      const sandbox = await open();
      const headers = await ownerHeaders(sandbox);
      expect((await putScenario(sandbox, { name: 'happy-path' })).status).toBe(200);
      const res = await putScenario(sandbox, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ status: false, data: null });
      expect(res.body.message).toContain(field);
      expect((await describeScenario(sandbox)).name).toBe('happy-path');
      expectTransferOk(await send(sandbox, headers, '0000000051'));
    },
  );

  it('PUT with a body that is not JSON is refused', async () => {
    const sandbox = await open();
    const res = await call(sandbox, 'PUT', SCENARIO, {
      headers: { 'content-type': 'application/json' },
      body: '{name',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect((await describeScenario(sandbox)).name).toBe('default');
  });

  it('POST /scenario/rules puts rules in front of the active ones', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const overrides = [
      {
        on: 'transfer',
        match: { accountNumber: RECEIVER },
        effect: { fail: { errorCode: '12', errorMessage: 'Invalid transaction' } },
      },
      {
        on: 'transfer',
        match: { accountNumber: '0000000051' },
        effect: { fail: { errorCode: '12', errorMessage: 'Invalid transaction' } },
      },
    ];
    const res = await call(sandbox, 'POST', `${SCENARIO}/rules`, { body: { rules: overrides } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const described = dataOf(res, activeScenario);
    expect(described.name).toBe('default');
    expect(described.overrides).toHaveLength(2);
    expect(described.rules).toHaveLength(2 + defaultScenario.rules.length);
    expect(described.rules.slice(0, 2)).toEqual(described.overrides);

    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12', 'Invalid transaction');
    // In front of the magic rule for the same account: the override wins.
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '12', 'Invalid transaction');
    // The other magic accounts still fail as before.
    await expectTransferFailed(await send(sandbox, headers, '0000000007'), '07', 'Invalid Account');
    expectTransferOk(await send(sandbox, headers, '0000000052'));
  });

  it('POST /scenario/rules puts newer overrides in front of older ones', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const failWith = (errorCode: string) => ({
      rules: [
        {
          on: 'transfer',
          match: { accountNumber: RECEIVER },
          effect: { fail: { errorCode, errorMessage: 'x' } },
        },
      ],
    });
    expect((await call(sandbox, 'POST', `${SCENARIO}/rules`, { body: failWith('12') })).status).toBe(200);
    expect((await call(sandbox, 'POST', `${SCENARIO}/rules`, { body: failWith('13') })).status).toBe(200);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '13');
  });

  it.each([
    ['no rules', { rules: [] }],
    ['an invalid rule', { rules: [{ on: 'transfer', effect: { hold: true } }] }],
    ['no body fields', {}],
  ] as [string, Record<string, unknown>][])(
    'POST /scenario/rules with %s is 400 and adds nothing',
    async (_n, body) => {
      const sandbox = await open();
      const res = await call(sandbox, 'POST', `${SCENARIO}/rules`, { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, data: null });
      const described = await describeScenario(sandbox);
      expect(described.overrides).toEqual([]);
      expect(described.rules).toHaveLength(defaultScenario.rules.length);
    },
  );

  it('POST /__sandbox/reset brings back the start-up scenario and drops the overrides', async () => {
    const sandbox = await open();
    expect((await putScenario(sandbox, { name: 'happy-path' })).status).toBe(200);
    const rules = [
      {
        on: 'transfer',
        match: { accountNumber: RECEIVER },
        effect: { fail: { errorCode: '12', errorMessage: 'x' } },
      },
    ];
    expect((await call(sandbox, 'POST', `${SCENARIO}/rules`, { body: { rules } })).status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);

    const described = await describeScenario(sandbox);
    expect(described).toMatchObject({ startup: 'default', name: 'default', overrides: [] });
    expect(described.rules).toHaveLength(defaultScenario.rules.length);
    const headers = await ownerHeaders(sandbox);
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '51');
  });

  it('starts counters afresh when a scenario is set again: a times rule applies again', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const rules = [
      {
        on: 'transfer',
        match: { accountNumber: RECEIVER },
        effect: { fail: { errorCode: '12', errorMessage: 'x' } },
        times: 1,
      },
    ];
    await useScenario(sandbox, rules);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12');
    expectTransferOk(await send(sandbox, headers, RECEIVER));
    await useScenario(sandbox, rules);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12');
  });

  it('a sandbox started with happy-path resets to happy-path, not default', async () => {
    const sandbox = await open({ scenario: 'happy-path' });
    expect(await describeScenario(sandbox)).toMatchObject({ startup: 'happy-path', name: 'happy-path' });
    expect((await putScenario(sandbox, { name: 'default' })).status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(await describeScenario(sandbox)).toMatchObject({ startup: 'happy-path', name: 'happy-path' });
    const headers = await ownerHeaders(sandbox);
    expectTransferOk(await send(sandbox, headers, '0000000051'));

    expect((await putScenario(sandbox, { name: 'default' })).status).toBe(200);
    const del = await call(sandbox, 'DELETE', SCENARIO);
    expect(dataOf(del, activeScenario).name).toBe('happy-path');
  });

  it('GET /__sandbox/scenarios lists the 13 ready scenarios with their descriptions', async () => {
    const sandbox = await open();
    const res = await call(sandbox, 'GET', '/__sandbox/scenarios');
    expect(res.status).toBe(200);
    const list = dataOf(res, readyScenarios);
    expect(list.map((s) => s.name).sort()).toEqual(READY);
    for (const s of list) expect(s.description.length).toBeGreaterThan(10);
    expect(list.find((s) => s.name === 'default')?.description).toBe(defaultScenario.description);
  });
});

describe('per-request choice: x-sandbox-scenario', () => {
  it('happy-path on one transfer lets 0000000051 through; the next request without it fails 51', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    expectTransferOk(await send(sandbox, headers, '0000000051', { 'x-sandbox-scenario': 'happy-path' }));
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '51', 'Insufficient Funds');
    expect((await describeScenario(sandbox)).name).toBe('default');
  });

  it('provider-outage: account details still 200, a transfer 503', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const outage = { 'x-sandbox-scenario': 'provider-outage' };
    expect((await call(sandbox, 'GET', DETAILS, { headers: { ...headers, ...outage } })).status).toBe(200);
    expectOutage(await send(sandbox, headers, RECEIVER, outage));
    expectTransferOk(await send(sandbox, headers, RECEIVER));
  });

  it('an unknown name is 400, on a transfer and on a read', async () => {
    const sandbox = await open();
    const headers = await ownerHeaders(sandbox);
    const before = await balanceOf(sandbox);
    const nope = { 'x-sandbox-scenario': 'nope' };
    const res = await send(sandbox, headers, RECEIVER, nope);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toContain('nope');
    expect((await call(sandbox, 'GET', DETAILS, { headers: { ...headers, ...nope } })).status).toBe(400);
    expect(await balanceOf(sandbox)).toBe(before);
  });
});

describe('an unknown scenario name: the ready ones, and the one meant', () => {
  const LIST = `ready: ${READY.join(', ')}`;
  const MEANT = `no ready scenario named "flakey-bank" (did you mean "flaky-bank"? ${LIST})`;

  it('PUT {name}: 404 with the suggestion and the list, in the root and in an isolated sandbox alike', async () => {
    const root = await open();
    const isolated = await root.isolate();
    for (const sandbox of [root, isolated]) {
      const res = await putScenario(sandbox, { name: 'flakey-bank' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, data: null, message: `N${MEANT.slice(1)}` });
      expect((await describeScenario(sandbox)).name).toBe('default');
    }
    // Nothing near enough to have been meant: the list alone.
    const far = await putScenario(root, { name: 'nope' });
    expect(far.body.message).toBe(`No ready scenario named "nope" (${LIST})`);
  });

  it('x-sandbox-scenario: 400 with the suggestion and the list, at /sandboxes/{id}/api/v1 too', async () => {
    const root = await open();
    const isolated = await root.isolate();
    for (const sandbox of [root, isolated]) {
      const headers = await ownerHeaders(sandbox);
      const before = await balanceOf(sandbox);
      const res = await send(sandbox, headers, RECEIVER, { 'x-sandbox-scenario': 'flakey-bank' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, data: null, message: `x-sandbox-scenario: ${MEANT}` });
      expect(await balanceOf(sandbox)).toBe(before);
    }
  });

  it('a new isolated sandbox: 400 naming the field, with the suggestion and the list', async () => {
    const root = await open();
    const res = await call(root, 'POST', '/__sandbox/sandboxes', { body: { scenario: 'happy-pth' } });
    const said = `no ready scenario named "happy-pth" (did you mean "happy-path"? ${LIST})`;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      message: `scenario: ${said}`,
      errors: [{ field: 'scenario', message: said }],
    });
  });

  it('extends, and --scenario at start-up: the suggestion and the list', async () => {
    const root = await open();
    const res = await putScenario(root, { name: 'mine', description: 'd', extends: 'defualt', rules: [] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(
      `extends: no ready scenario named "defualt" (did you mean "default"? ${LIST})`,
    );
    await expect(memorySandbox({ scenario: 'soft-error' })).rejects.toThrow(
      `no ready scenario named "soft-error" (did you mean "soft-errors"? ${LIST})`,
    );
  });
});

describe('start-up choice', () => {
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'scenario-test-'));
    later(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  it('refuses an unknown ready scenario with a ScenarioError', async () => {
    const started = memorySandbox({ scenario: 'nope' });
    await expect(started).rejects.toBeInstanceOf(ScenarioError);
    await expect(started).rejects.toThrow(/nope/);
  });

  it.each(['../fixtures/banks', '../scenarios/default', 'Default'])(
    'refuses %s: a name that is not a name must be a .json file',
    async (value) => {
      const started = memorySandbox({ scenario: value });
      await expect(started).rejects.toBeInstanceOf(ScenarioError);
      await expect(started).rejects.toThrow(/\.json/);
    },
  );

  it('starts with a scenario file that extends default', async () => {
    const dir = await tempDir();
    const file = join(dir, 'custom.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'custom-file',
        description: 'From a file',
        extends: 'default',
        rules: [
          {
            on: 'transfer',
            match: { accountNumber: RECEIVER },
            effect: { fail: { errorCode: '12', errorMessage: 'Invalid transaction' } },
          },
        ],
      }),
    );
    const sandbox = await open({ scenario: file });
    const described = await describeScenario(sandbox);
    expect(described).toMatchObject({ startup: 'custom-file', name: 'custom-file' });
    expect(described.rules).toHaveLength(1 + defaultScenario.rules.length);
    const headers = await ownerHeaders(sandbox);
    await expectTransferFailed(await send(sandbox, headers, RECEIVER), '12', 'Invalid transaction');
    await expectTransferFailed(await send(sandbox, headers, '0000000051'), '51', 'Insufficient Funds');
    expectTransferOk(await send(sandbox, headers, '0000000052'));
    // The file's scenario is the start-up one: a reset comes back to it.
    expect((await putScenario(sandbox, { name: 'happy-path' })).status).toBe(200);
    expect((await call(sandbox, 'DELETE', SCENARIO)).status).toBe(200);
    expect((await describeScenario(sandbox)).name).toBe('custom-file');
  });

  it('refuses an invalid scenario file with a message naming the file and the field', async () => {
    const dir = await tempDir();
    const file = join(dir, 'broken.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'broken',
        description: 'Broken',
        rules: [{ on: 'transfer', match: { everyNth: 0 }, effect: { delayMs: 1 } }],
      }),
    );
    const started = memorySandbox({ scenario: file });
    await expect(started).rejects.toBeInstanceOf(ScenarioError);
    await expect(started).rejects.toThrow(file);
    await expect(started).rejects.toThrow('rules[0].match.everyNth');
  });

  it('refuses a scenario file that is not JSON, or that is missing', async () => {
    const dir = await tempDir();
    const file = join(dir, 'garbled.json');
    await writeFile(file, '{ "name": ');
    await expect(memorySandbox({ scenario: file })).rejects.toBeInstanceOf(ScenarioError);
    await expect(memorySandbox({ scenario: join(dir, 'missing.json') })).rejects.toBeInstanceOf(
      ScenarioError,
    );
  });

  it('refuses a scenario file that extends an unknown scenario', async () => {
    const dir = await tempDir();
    const file = join(dir, 'orphan.json');
    await writeFile(file, JSON.stringify({ name: 'orphan', description: 'd', extends: 'nope', rules: [] }));
    const started = memorySandbox({ scenario: file });
    await expect(started).rejects.toBeInstanceOf(ScenarioError);
    await expect(started).rejects.toThrow(/extends/);
  });
});
