import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import billers from '../../../fixtures/billers.json' with { type: 'json' };
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import states from '../../../fixtures/states.json' with { type: 'json' };
import { signIn } from '../../../src/contract/api/auth.js';
import { bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { business } from '../../../src/contract/api/business.js';
import { payoutAccount } from '../../../src/contract/api/payouts.js';
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { controlContracts } from '../../../src/contract/control/index.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import { activeScenario } from '../../../src/contract/control/scenarios.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { embeddedScenariosDir } from '../../../src/scenarios/library.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { deepDeliveryImport } from '../../support/deep-import.js';
import { transferEntry } from '../../support/money.js';
import { A, B, call, memorySandbox, schemeA, schemeB, tokenFor, useSandbox } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';

type Json = Record<string, unknown>;
type HeaderMap = Record<string, string>;

const PRODUCTION = 'Production credentials cannot be used in the sandbox environment';
const BANK = banks.banks[0]?.code ?? '';
const BILLER = billers[0] ?? '';
const MANAGER_ROLE = roles.find((r) => r.name === 'Manager')?.id ?? '';
const STATE = states[0]?.id ?? '';

const SIGNIN = '/api/v1/auth/signin';
const DETAILS = '/api/v1/clients/business/account-details';
const FUNDS = '/api/v1/clients/business/customers/funds';
const BULK = `${FUNDS}/bulk-transfer`;
const PAYOUTS = '/api/v1/clients/business/payouts';
const MEMBERS = '/api/v1/clients/members';
const REGISTRATION = '/api/v1/clients/business/complete-registration';

/** `__proto__`, `constructor` and `prototype`, each reaching for `Object.prototype.polluted`. */
const POISON_TEXT =
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}';
/** Parsed, so `__proto__` is an own key (an object literal would set the prototype instead). */
const poison = (): Json => JSON.parse(POISON_TEXT) as Json;
/** `target` with the poisoned keys beside its own (spread defines `__proto__` as an own key). */
const poisoned = (target: Json): Json => ({ ...target, ...poison() });

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `body` whose object at `path` carries the poisoned keys. */
function poisonAt(body: Json, path: readonly (string | number)[]): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  if (path.length === 0) return poisoned(copy);
  let parent: unknown = copy;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
  const last = path[path.length - 1] as string | number;
  const holder = parent as Record<string | number, unknown>;
  const target = holder[last];
  if (!isObject(target)) throw new Error(`no object at ${path.join('.')}`);
  holder[last] = poisoned(target);
  return copy;
}

const PROTOTYPE_KEYS = Reflect.ownKeys(Object.prototype);
const ARRAY_PROTOTYPE_KEYS = Reflect.ownKeys(Array.prototype);

/** Nothing reached a shared prototype. */
function expectNoPollution(label: string): void {
  expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
  expect(Reflect.ownKeys(Object.prototype), label).toEqual(PROTOTYPE_KEYS);
  expect(Reflect.ownKeys(Array.prototype), label).toEqual(ARRAY_PROTOTYPE_KEYS);
  expect(Object.getPrototypeOf({}), label).toBe(Object.prototype);
  expect({}.constructor, label).toBe(Object);
}

/** A refusal: a 4xx with the error envelope. */
function expectRefusal(res: { status: number; body: Json }, label: string): void {
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  expect(res.body, label).toMatchObject({ status: false, data: null });
  expect(typeof res.body.message, label).toBe('string');
}

/** A body sent as raw text (the poisoned keys survive JSON.stringify as own keys). */
async function send(sandbox: Sandbox, req: Req): Promise<{ status: number; body: Json; text: string }> {
  const text = JSON.stringify(req.body);
  const res = await sandbox.app.request(req.path, {
    method: req.method,
    headers: { 'content-type': 'application/json', ...req.headers },
    body: text,
  });
  const answer = await res.text();
  let body: Json = {};
  try {
    body = answer ? (JSON.parse(answer) as Json) : {};
  } catch {
    body = { raw: answer };
  }
  return { status: res.status, body, text: answer };
}

interface Req {
  method: string;
  path: string;
  headers: HeaderMap;
  body: Json;
}

/** A fresh client of its own: an Admin owner, an approved funded business. */
interface Tenant {
  email: string;
  password: string;
  publicKey: string;
  secretKey: string;
  businessId: string;
  token: string;
  a: HeaderMap;
  b: HeaderMap;
}

async function tenant(sandbox: Sandbox): Promise<Tenant> {
  const me = await sandbox.newClient();
  const businessId = me.businesses[0]?.id ?? '';
  const token = await tokenFor(sandbox, me);
  return {
    email: me.email,
    password: me.password,
    publicKey: me.publicKey,
    secretKey: me.secretKey,
    businessId,
    token,
    a: schemeA(token, me.secretKey, businessId),
    b: schemeB(me.publicKey, me.secretKey, businessId),
  };
}

const transferItem = (ref: string, receiver = '0123456789') => ({
  amount: 100000,
  receiverAccountNumber: receiver,
  receiverBankCode: BANK,
  retrievalReference: ref,
  narration: 'Security test',
});

async function expectStatus(
  res: Promise<{ status: number; body: Json }>,
  status: number,
): Promise<{ status: number; body: Json }> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done;
}

async function newBatch(sandbox: Sandbox, me: Tenant, tag: string, receiver?: string): Promise<string> {
  const res = await expectStatus(
    call(sandbox, 'POST', BULK, {
      headers: me.b,
      body: { batchName: `Batch ${tag}`, transfers: [transferItem(`bulk-${tag}`, receiver)] },
    }),
    201,
  );
  return dataOf(res, bulkTransferWithItems).id;
}

/** A transfer of the tenant's: its transaction reference, read from its ledger entry. */
async function transferRef(sandbox: Sandbox, me: Tenant, tag: string): Promise<string> {
  await expectStatus(
    call(sandbox, 'POST', `${FUNDS}/transfer`, { headers: me.a, body: transferItem(`tx-${tag}`) }),
    200,
  );
  return (await transferEntry(sandbox, `tx-${tag}`, me.businessId)).id;
}

async function invitationToken(sandbox: Sandbox, me: Tenant, email: string): Promise<string> {
  await expectStatus(
    call(sandbox, 'POST', MEMBERS, { headers: me.a, body: { email, memberRoleId: MANAGER_ROLE } }),
    201,
  );
  const sent = await call(sandbox, 'GET', `/__sandbox/outbox?to=${encodeURIComponent(email)}`);
  const token = pageOf(sent, outboxMessage).data[0]?.data.authorizationToken;
  if (!token) throw new Error(`no invitation for ${email}`);
  return token;
}

const RULE = { on: 'http', match: { path: '^/never-matches$' }, effect: { delayMs: 0 } };

/** Every JSON body the API takes: how to make a good request, what it answers, and its nested objects. */
interface JsonCase {
  name: string;
  /** The status of the request without the poisoned keys. */
  expected: number;
  /** Nested objects of the body that get the poisoned keys too. */
  inner?: (string | number)[][];
  make: (sandbox: Sandbox, me: Tenant, tag: string) => Promise<Req>;
}

const jsonCases: JsonCase[] = [
  {
    name: 'POST /auth/signin',
    expected: 200,
    make: async (_s, me) => ({
      method: 'POST',
      path: SIGNIN,
      headers: {},
      body: { email: me.email, password: me.password },
    }),
  },
  {
    name: 'PATCH /clients/settings/update-webhook-url',
    expected: 200,
    make: async (_s, me) => ({
      method: 'PATCH',
      path: '/api/v1/clients/settings/update-webhook-url',
      headers: me.a,
      body: { webhookUrl: 'https://hooks.example.com/in' },
    }),
  },
  {
    name: 'POST /clients/settings/configure-billers',
    expected: 200,
    make: async (_s, me) => ({
      method: 'POST',
      path: '/api/v1/clients/settings/configure-billers',
      headers: me.a,
      body: { billers: [BILLER] },
    }),
  },
  {
    name: 'POST /clients/business',
    expected: 201,
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: '/api/v1/clients/business',
      headers: me.a,
      body: { businessName: `Poison Check ${tag}`, countryId: 'NG', isNewBusiness: true },
    }),
  },
  {
    name: 'POST /clients/business/customers/funds/transfer',
    expected: 200,
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: `${FUNDS}/transfer`,
      headers: me.a,
      body: transferItem(`p-${tag}`),
    }),
  },
  {
    name: 'POST /clients/business/customers/funds/anonymous-transfer',
    expected: 200,
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: `${FUNDS}/anonymous-transfer`,
      headers: me.a,
      body: transferItem(`p-${tag}`),
    }),
  },
  {
    name: 'POST bulk-transfer (create)',
    expected: 201,
    inner: [['transfers', 0]],
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: BULK,
      headers: me.b,
      body: { batchName: `Batch ${tag}`, transfers: [transferItem(`p-${tag}`)] },
    }),
  },
  {
    name: 'POST bulk-transfer/process',
    expected: 202,
    make: async (sandbox, me, tag) => ({
      method: 'POST',
      path: `${BULK}/process`,
      headers: me.b,
      body: { bulkTransferId: await newBatch(sandbox, me, tag) },
    }),
  },
  {
    name: 'POST bulk-transfer/reprocess',
    expected: 202,
    make: async (sandbox, me, tag) => {
      // A batch whose one item fails (a magic receiver), so there is something to reprocess.
      const id = await newBatch(sandbox, me, tag, '0000000096');
      await expectStatus(
        call(sandbox, 'POST', `${BULK}/process`, { headers: me.b, body: { bulkTransferId: id } }),
        202,
      );
      await sandbox.drain();
      return { method: 'POST', path: `${BULK}/reprocess`, headers: me.b, body: { bulkTransferId: id } };
    },
  },
  {
    name: 'POST /clients/business/payouts',
    expected: 201,
    make: async (_s, me) => ({
      method: 'POST',
      path: PAYOUTS,
      headers: me.a,
      body: { accountName: 'Ada Obi', accountNumber: '0123456789', bankName: 'Access Bank', bankCode: BANK },
    }),
  },
  {
    name: 'PUT /clients/business/payouts/{id}',
    expected: 200,
    make: async (sandbox, me) => {
      await expectStatus(
        call(sandbox, 'POST', PAYOUTS, {
          headers: me.a,
          body: {
            accountName: 'Ada Obi',
            accountNumber: '0123456789',
            bankName: 'Access Bank',
            bankCode: BANK,
          },
        }),
        201,
      );
      // The create answers no data: the new account is the tenant's only one.
      const [created] = pageOf(await call(sandbox, 'GET', PAYOUTS, { headers: me.a }), payoutAccount).data;
      if (!created) throw new Error('expected the payout account just created');
      const { id } = created;
      return {
        method: 'PUT',
        path: `${PAYOUTS}/${id}`,
        headers: me.a,
        body: {
          accountName: 'Ada Obi',
          accountNumber: '1234567890',
          bankName: 'Access Bank',
          bankCode: BANK,
        },
      };
    },
  },
  {
    name: 'POST /clients/business/disputes',
    expected: 201,
    make: async (sandbox, me, tag) => ({
      method: 'POST',
      path: '/api/v1/clients/business/disputes',
      headers: me.a,
      body: { transactionId: await transferRef(sandbox, me, tag), description: 'Never arrived' },
    }),
  },
  {
    name: 'POST /clients/members (invite)',
    expected: 201,
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: MEMBERS,
      headers: me.a,
      body: { email: `invitee-${tag}@poison.test`, memberRoleId: MANAGER_ROLE },
    }),
  },
  {
    name: 'PATCH /clients/members/complete-registration',
    expected: 200,
    make: async (sandbox, me, tag) => ({
      method: 'PATCH',
      path: `${MEMBERS}/complete-registration`,
      headers: { SECRET_KEY: me.secretKey },
      body: {
        authorizationToken: await invitationToken(sandbox, me, `member-${tag}@poison.test`),
        firstName: 'Ngozi',
        lastName: 'Eze',
        phoneNo: '08012345678',
        password: 'Sandbox123!',
      },
    }),
  },
  {
    name: 'POST /clients/business/virtual-accounts',
    expected: 201,
    make: async (_s, me, tag) => ({
      method: 'POST',
      path: '/api/v1/clients/business/virtual-accounts',
      headers: me.a,
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'permanent', reference: `va-${tag}` },
    }),
  },
  {
    name: 'POST /__sandbox/incoming-payments',
    expected: 201,
    make: async (sandbox, me, tag) => {
      const va = await expectStatus(
        call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
          headers: me.a,
          body: { firstName: 'Tunde', lastName: 'Bakare', type: 'permanent', reference: `in-${tag}` },
        }),
        201,
      );
      const { accountNumber } = dataOf(va, virtualAccount);
      return {
        method: 'POST',
        path: '/__sandbox/incoming-payments',
        headers: {},
        body: { accountNumber, amount: 500000, accountName: 'Tunde Bakare', narration: 'Invoice 42' },
      };
    },
  },
  {
    name: 'PUT /__sandbox/businesses/{id}/balance',
    expected: 200,
    make: async (_s, me) => ({
      method: 'PUT',
      path: `/__sandbox/businesses/${me.businessId}/balance`,
      headers: {},
      body: { balance: 400000000 },
    }),
  },
  {
    name: 'POST /__sandbox/clock/advance',
    expected: 200,
    make: async () => ({ method: 'POST', path: '/__sandbox/clock/advance', headers: {}, body: { ms: 1 } }),
  },
  {
    name: 'POST /__sandbox/clock/freeze',
    expected: 200,
    make: async () => ({
      method: 'POST',
      path: '/__sandbox/clock/freeze',
      headers: {},
      body: { frozen: false },
    }),
  },
  {
    name: 'POST /__sandbox/clients',
    expected: 201,
    make: async (_s, _me, tag) => ({
      method: 'POST',
      path: '/__sandbox/clients',
      headers: {},
      body: { name: `Tenant ${tag}`, balance: 1000, members: ['Viewer'] },
    }),
  },
  {
    name: 'PUT /__sandbox/scenario {name}',
    expected: 200,
    make: async () => ({
      method: 'PUT',
      path: '/__sandbox/scenario',
      headers: {},
      body: { name: 'default' },
    }),
  },
  {
    name: 'PUT /__sandbox/scenario (a scenario object)',
    expected: 200,
    inner: [
      ['rules', 0],
      ['rules', 0, 'match'],
      ['rules', 0, 'effect'],
    ],
    make: async (_s, _me, tag) => ({
      method: 'PUT',
      path: '/__sandbox/scenario',
      headers: {},
      body: { name: `poison-${tag}`, description: 'Security test', extends: 'default', rules: [RULE] },
    }),
  },
  {
    name: 'POST /__sandbox/scenario/rules',
    expected: 200,
    inner: [
      ['rules', 0],
      ['rules', 0, 'match'],
    ],
    make: async () => ({
      method: 'POST',
      path: '/__sandbox/scenario/rules',
      headers: {},
      body: { rules: [RULE] },
    }),
  },
];

describe('prototype pollution: every JSON body', () => {
  const sandbox = useSandbox();
  let tags = 0;
  beforeEach(() => expectNoPollution('before'));

  describe.each(jsonCases)('$name', (c) => {
    const variants: [string, (body: Json) => Json][] = [
      ['at the top level', (body) => poisonAt(body, [])],
      ['nested under an extra key', (body) => ({ ...body, extra: { deeper: poison() } })],
      ...(c.inner ?? []).map((path): [string, (body: Json) => Json] => [
        `in ${path.join('.')}`,
        (body) => poisonAt(body, path),
      ]),
    ];

    it(`answers ${c.expected} without the keys (the request is right)`, async () => {
      tags += 1;
      const req = await c.make(sandbox, await tenant(sandbox), `clean-${tags}`);
      const res = await send(sandbox, req);
      expect(res.status, res.text).toBe(c.expected);
      await call(sandbox, 'DELETE', '/__sandbox/scenario');
    });

    it.each(variants)(
      'with __proto__, constructor and prototype %s: as if absent, or a 4xx',
      async (_label, add) => {
        tags += 1;
        const req = await c.make(sandbox, await tenant(sandbox), `p-${tags}`);
        const body = add(req.body);
        const text = JSON.stringify(body);
        expect(text).toContain('"__proto__":{"polluted":true}');
        expect(text).toContain('"constructor":{"prototype":{"polluted":true}}');
        const res = await send(sandbox, { ...req, body });
        if (res.status < 400) {
          expect(res.status, res.text).toBe(c.expected);
          expect(res.text).not.toContain('polluted');
        } else expectRefusal(res, res.text);
        expectNoPollution(c.name);
        await call(sandbox, 'DELETE', '/__sandbox/scenario');
      },
    );
  });

  it('stored none of the poisoned keys anywhere in the state, and the API answers as before', async () => {
    const state = await sandbox.app.request('/__sandbox/state');
    const text = await state.text();
    expect(text).not.toContain('polluted');
    expect(suspectKeys(JSON.parse(text))).toEqual([]);
    const scenario = await call(sandbox, 'GET', '/__sandbox/scenario');
    expect(JSON.stringify(scenario.body)).not.toContain('polluted');
    const token = await tokenFor(sandbox, A.owner);
    const details = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(details.status).toBe(200);
    expectNoPollution('after all');
  });
});

/** Every plain object inside `value` (records and the objects nested in them), but not `skip`'s subtrees. */
function objectsIn(value: unknown, skip: (key: string) => boolean, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, skip, out);
  else if (isObject(value)) {
    out.push(value);
    for (const [k, v] of Object.entries(value)) if (!skip(k)) objectsIn(v, skip, out);
  }
  return out;
}

/** Adds the poisoned keys to `target` in place, as own keys. */
function addPoison(target: Json, keys: Json = poison()): void {
  for (const [k, v] of Object.entries(keys)) Object.defineProperty(target, k, { value: v, enumerable: true });
}

const SUSPECT_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Every key of `value` at any depth that names a prototype, with its path. */
function suspectKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => suspectKeys(v, `${path}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(SUSPECT_KEYS.includes(k) ? [`${path}.${k}`] : []),
    ...suspectKeys(v, `${path}.${k}`),
  ]);
}

describe('prototype pollution: state import (PUT /__sandbox/state)', () => {
  const sandbox = useSandbox();
  let exported: Json;
  beforeAll(async () => {
    // Records of every kind that holds a free-form field: an invitation in the outbox (`data`) and a webhook
    // delivery (`payload`), beside the fixtures.
    const me = await tenant(sandbox);
    await invitationToken(sandbox, me, 'state-import@poison.test');
    const va = await expectStatus(
      call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
        headers: me.a,
        body: { firstName: 'Tunde', lastName: 'Bakare', type: 'permanent', reference: 'state-import' },
      }),
      201,
    );
    await sandbox.incomingPayment({
      accountNumber: dataOf(va, virtualAccount).accountNumber,
      amount: 500000,
    });
    await transferRef(sandbox, me, 'state-import');
    await sandbox.drain();
    exported = (await call(sandbox, 'GET', '/__sandbox/state')).body;
  });
  beforeEach(() => expectNoPollution('before'));

  async function importAndExport(doc: Json): Promise<{ status: number; state: Json; text: string }> {
    const res = await send(sandbox, { method: 'PUT', path: '/__sandbox/state', headers: {}, body: doc });
    if (res.status !== 200) expectRefusal(res, res.text);
    expectNoPollution('after the import');
    const after = await sandbox.app.request('/__sandbox/state');
    const text = await after.text();
    return { status: res.status, state: JSON.parse(text) as Json, text };
  }

  /** Imports `doc` (taken or refused), and checks the export after it holds none of the poison. */
  async function expectNoneKept(doc: Json): Promise<void> {
    const { status, state, text } = await importAndExport(doc);
    const kept = suspectKeys(state);
    expect(
      kept,
      `PUT /__sandbox/state answered ${status}; GET /__sandbox/state holds ${kept.join(', ')}`,
    ).toEqual([]);
    expect(text).not.toContain('polluted');
  }

  it('the export holds an outbox message and a webhook delivery to poison', () => {
    const collections = exported.collections as Record<string, unknown[]>;
    expect(collections.outbox?.length).toBeGreaterThan(0);
    expect(collections.deliveries?.length).toBeGreaterThan(0);
    expect(suspectKeys(exported)).toEqual([]);
  });

  it('poison at the top of the document and of collections: none of it is kept', async () => {
    const doc = JSON.parse(JSON.stringify(exported)) as Json;
    addPoison(doc);
    addPoison(doc.collections as Json);
    await expectNoneKept(doc);
  });

  it('poison in every record and every fixed-shape object nested in one: none of it is kept', async () => {
    const doc = JSON.parse(JSON.stringify(exported)) as Json;
    const free = (k: string) => k === 'payload' || k === 'data';
    const targets = Object.values(doc.collections as Record<string, unknown[]>).flatMap((records) =>
      objectsIn(records, free),
    );
    expect(targets.length).toBeGreaterThan(40);
    for (const target of targets) addPoison(target);
    expect(JSON.stringify(doc)).toContain('"__proto__":{"polluted":true}');
    await expectNoneKept(doc);
  });

  it('poison in the free-form payload of a webhook delivery: none of it is kept', async () => {
    const doc = JSON.parse(JSON.stringify(exported)) as Json;
    const deliveries = (doc.collections as Record<string, Json[]>).deliveries ?? [];
    for (const delivery of deliveries) {
      // The payload and every object in it (collected first, so the poison itself is not walked into).
      for (const target of objectsIn(delivery.payload, () => false)) addPoison(target);
    }
    await expectNoneKept(doc);
  });

  it('poison in the free-form data of an outbox message: none of it is kept', async () => {
    const doc = JSON.parse(JSON.stringify(exported)) as Json;
    const messages = (doc.collections as Record<string, Json[]>).outbox ?? [];
    // `data` holds strings only, so the keys come with string values.
    const strings = '{"__proto__":"polluted","constructor":"polluted","prototype":"polluted"}';
    for (const message of messages) addPoison(message.data as Json, JSON.parse(strings) as Json);
    await expectNoneKept(doc);
  });
});

describe('path traversal: scenario names', () => {
  const sandbox = useSandbox();
  let dir: string;
  /** A valid scenario outside the scenarios folder; loading it would answer every API call 599. */
  let outside: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-traversal-'));
    outside = join(dir, 'outside-evil.json');
    await writeFile(
      outside,
      JSON.stringify({
        name: 'outside-evil',
        description: 'Must never be loaded through a name',
        rules: [{ on: 'http', match: {}, effect: { http: { status: 599, message: 'Loaded from outside' } } }],
      }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const names = (): string[] => [
    '../fixtures/banks',
    '..%2F..%2Fetc%2Fpasswd',
    '/etc/passwd',
    '../scenarios/default',
    '..\\..\\etc\\passwd',
    relative(embeddedScenariosDir, outside).replace(/\.json$/, ''),
    relative(embeddedScenariosDir, outside),
    outside,
  ];

  it('PUT /__sandbox/scenario {name} answers 4xx to each, and the active scenario stays default', async () => {
    for (const name of names()) {
      const res = await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name } });
      expectRefusal(res, name);
      const active = await call(sandbox, 'GET', '/__sandbox/scenario');
      expect(dataOf(active, activeScenario).name, name).toBe('default');
    }
  });

  it('the x-sandbox-scenario header answers 400 to each, and no outside file takes effect', async () => {
    const token = await tokenFor(sandbox, A.owner);
    for (const name of names()) {
      const res = await call(sandbox, 'GET', DETAILS, {
        headers: { ...schemeA(token, A.secretKey, A.a1.id), 'x-sandbox-scenario': name },
      });
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ status: false, data: null });
      expect(res.body.message, name).toMatch(/^x-sandbox-scenario: no ready scenario named/);
    }
    // The header works for a ready scenario, so the refusals above are about the names.
    const ok = await call(sandbox, 'GET', DETAILS, {
      headers: { ...schemeA(token, A.secretKey, A.a1.id), 'x-sandbox-scenario': 'happy-path' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('path traversal: uploads, on a sandbox with a data file', () => {
  let sandbox: Sandbox;
  let dir: string;
  const PNG = new Uint8Array([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
  ]);
  const SENTINEL = 'SENTINEL-must-never-be-served';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-uploads-'));
    sandbox = await createSandbox({ data: join(dir, 'db.json'), log: () => undefined });
    // Files a traversal would reach: beside the data file, in uploads/, and a hidden one in a business's folder.
    await mkdir(join(dir, 'uploads', A.a1.id), { recursive: true });
    await writeFile(join(dir, 'sentinel.png'), SENTINEL);
    await writeFile(join(dir, 'uploads', 'sentinel.png'), SENTINEL);
    await writeFile(join(dir, 'uploads', A.a1.id, '.hidden'), SENTINEL);
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a file named ../../../etc/passwd.png under a safe name, at a URL under /uploads/<businessId>/', async () => {
    const token = await tokenFor(sandbox, A.owner);
    const form = new FormData();
    const values = {
      businessId: A.a2.id,
      bvn: '22233344455',
      residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
      stateId: STATE,
      otp: '123456',
      password: A.owner.password,
    };
    for (const [k, v] of Object.entries(values)) form.append(k, v);
    form.append('photoId', new File([PNG], '../../../etc/passwd.png', { type: 'image/png' }));
    const docs = [
      '../../../../sentinel.pdf',
      '..\\..\\evil.pdf',
      '.hidden.pdf',
      '..%2F..%2Fdb.json',
      '/etc/x.pdf',
    ];
    for (const [i, name] of docs.entries())
      form.append('businessDocuments', new File([`document ${i}`], name, { type: 'application/pdf' }));
    const res = await sandbox.app.request(REGISTRATION, {
      method: 'PATCH',
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);

    const list = await call(sandbox, 'GET', '/api/v1/clients/business?limit=100', {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    const a2 = pageOf(list, business).data.find((b) => b.id === A.a2.id);
    if (!a2) throw new Error('A2 not listed');
    const urls = [a2.photoIdUrl, ...a2.businessDocumentsUrls];
    expect(urls).toHaveLength(1 + docs.length);
    const safe = new RegExp(`^/uploads/${A.a2.id}/[A-Za-z0-9][A-Za-z0-9._-]*$`);
    for (const url of urls) {
      const path = new URL(url).pathname;
      expect(path, url).toMatch(safe);
      expect(path, url).not.toContain('..');
      const served = await sandbox.app.request(path);
      expect(served.status, url).toBe(200);
    }
    const photo = await sandbox.app.request(new URL(a2.photoIdUrl).pathname);
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG);
    // On disk: exactly those files, in the business's folder, and nothing written outside it.
    const stored = await readdir(join(dir, 'uploads', A.a2.id));
    expect(stored.sort()).toEqual(urls.map((u) => u.slice(u.lastIndexOf('/') + 1)).sort());
    expect((await readdir(join(dir, 'uploads'))).sort()).toEqual([A.a1.id, A.a2.id, 'sentinel.png'].sort());
    expect(existsSync(join(dir, 'etc'))).toBe(false);
    expect(existsSync(join(dir, 'sentinel.pdf'))).toBe(false);
    expect(await readFile(join(dir, 'sentinel.png'), 'utf8')).toBe(SENTINEL);
  });

  it.each([
    `/uploads/${A.a1.id}/..%2F..%2Fdb.json`,
    `/uploads/${A.a1.id}/..%2F..%2Fsentinel.png`,
    `/uploads/${A.a1.id}/..%2Fsentinel.png`,
    `/uploads/${A.a1.id}/%2e%2e%2f%2e%2e%2fsentinel.png`,
    `/uploads/${A.a1.id}/..%5C..%5Csentinel.png`,
    '/uploads/..%2F/x',
    '/uploads/..%2F/sentinel.png',
    '/uploads/%2e%2e/sentinel.png',
    '/uploads/..%2F..%2F/sentinel.png',
    `/uploads/${A.a1.id}/.hidden`,
    `/uploads/${A.a1.id}/%2Ehidden`,
  ])('GET %s answers 404 and serves nothing', async (path) => {
    const res = await sandbox.app.request(path);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ status: false, data: null });
    expect(text).not.toContain(SENTINEL);
    expect(text).not.toContain('jwtSecret');
  });
});

describe('deeply nested JSON', () => {
  const sandbox = useSandbox();
  let headers: HeaderMap;
  let keyPair: HeaderMap;
  const DEPTH = 100_000;
  const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  const objects = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
  beforeAll(async () => {
    headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    keyPair = schemeB(A.publicKey, A.secretKey, A.a1.id);
  });

  const routes = (): [string, string, HeaderMap][] => [
    ['POST', SIGNIN, {}],
    ['PATCH', '/api/v1/clients/settings/update-webhook-url', headers],
    ['POST', '/api/v1/clients/business', headers],
    ['POST', `${FUNDS}/transfer`, headers],
    ['POST', BULK, keyPair],
    ['POST', `${BULK}/process`, keyPair],
    ['POST', PAYOUTS, headers],
    ['POST', '/api/v1/clients/business/virtual-accounts', headers],
    ['PATCH', `${MEMBERS}/complete-registration`, { SECRET_KEY: A.secretKey }],
    ['PUT', '/__sandbox/state', {}],
    ['PUT', '/__sandbox/scenario', {}],
    ['POST', '/__sandbox/scenario/rules', {}],
    ['POST', '/__sandbox/incoming-payments', {}],
    ['POST', '/__sandbox/clients', {}],
  ];

  it('[[[...]]], 100 000 levels, as the whole body: 400 or 413 on every JSON route, and health answers right after', async () => {
    for (const [method, path, h] of routes()) {
      const res = await call(sandbox, method, path, {
        headers: { ...h, 'content-type': 'application/json' },
        body: arrays,
      });
      expectRefusal(res, `${method} ${path}`);
      expect([400, 413], `${method} ${path}`).toContain(res.status);
      const health = await call(sandbox, 'GET', '/__sandbox/health');
      expect(health.status, `health after ${method} ${path}`).toBe(200);
    }
  });

  it('{"a":{"a":...}}, 100 000 levels, as the whole body: 400 or 413, or (all of it under the unknown key "a") the answer to {}; health answers right after', async () => {
    for (const [method, path, h] of routes()) {
      const headers = { ...h, 'content-type': 'application/json' };
      const res = await call(sandbox, method, path, { headers, body: objects });
      const label = `${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`;
      if (res.status >= 400) {
        expectRefusal(res, label);
        expect([400, 413], label).toContain(res.status);
      } else {
        // Accepted: then only because every field is optional and "a" is not one (POST /__sandbox/clients).
        const empty = await call(sandbox, method, path, { headers, body: '{}' });
        expect(res.status, label).toBe(empty.status);
      }
      const health = await call(sandbox, 'GET', '/__sandbox/health');
      expect(health.status, `health after ${method} ${path}`).toBe(200);
    }
  });

  it.each([
    ['[[[...]]]', arrays],
    ['{"a":{"a":...}}', objects],
  ])('%s, 100 000 levels, inside a field: 4xx or ignored, never a 5xx', async (_label, deep) => {
    const cases: [string, string, HeaderMap, string][] = [
      ['POST', SIGNIN, {}, `{"email":"x@y.test","password":"p","extra":${deep}}`],
      ['PUT', '/__sandbox/scenario', {}, `{"name":"default","extra":${deep}}`],
      ['POST', '/__sandbox/scenario/rules', {}, `{"rules":[${deep}]}`],
      ['POST', BULK, keyPair, `{"batchName":"Deep","transfers":[${deep}]}`],
    ];
    for (const [method, path, h, body] of cases) {
      const res = await call(sandbox, method, path, {
        headers: { ...h, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      if (res.status >= 400) expectRefusal(res, `${method} ${path}`);
    }
    expect((await call(sandbox, 'GET', '/__sandbox/health')).status).toBe(200);
  });

  // A webhook payload is the one free-form place of the state (`z.unknown()` values), so depth reaches the store.
  it.each([5_000, 100_000])(
    'a state import with a %i-level value in a webhook payload: 4xx, the state unchanged and still exported',
    async (depth) => {
      // A sandbox of its own: a failed import may leave the state broken.
      const sandbox = await memorySandbox();
      const before = await (await sandbox.app.request('/__sandbox/state')).text();
      const doc = JSON.parse(before) as { collections: Record<string, Json[]> };
      const [client] = doc.collections.clients ?? [];
      if (!client) throw new Error('no client in the state');
      // A change that must not survive a refused import.
      client.name = 'Changed by a refused import';
      const body = deepDeliveryImport(doc, depth);
      const res = await call(sandbox, 'PUT', '/__sandbox/state', {
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect((await call(sandbox, 'GET', '/__sandbox/health')).status).toBe(200);
      const exported = await sandbox.app.request('/__sandbox/state');
      const after = await exported.text();
      const answer = `PUT /__sandbox/state answered ${res.status} ${JSON.stringify(res.body)}`;
      expect.soft(res.status, answer).toBeGreaterThanOrEqual(400);
      expect.soft(res.status, answer).toBeLessThan(500);
      expect.soft(exported.status, `GET /__sandbox/state afterwards (${answer})`).toBe(200);
      expect
        .soft(after === before, `the state changed: ${answer}; GET /__sandbox/state: ${after.slice(0, 200)}`)
        .toBe(true);
    },
  );
});

describe('secrets are compared in constant time', () => {
  // secureEqual's own cases, through crypto.timingSafeEqual, are in test/unit/secure-compare.test.ts.
  /** `a === b`-like comparisons (`===`, `!==`, `==`, `!=`) with the two operands. */
  /** The source without its comments. */
  const code = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

  function equalities(source: string): { line: string; operands: string[] }[] {
    const found: { line: string; operands: string[] }[] = [];
    for (const line of code(source).split('\n')) {
      for (const m of line.matchAll(/([\w.$?'"[\]()-]+)\s*(?:===|!==|==|!=)\s*([\w.$?'"[\]()-]+)/g))
        found.push({ line: line.trim(), operands: [m[1] ?? '', m[2] ?? ''] });
    }
    return found;
  }
  const SECRETISH = /secret|token|given|\bkey\b|api[-_]?key|password/i;

  it.each(['src/http/auth.ts', 'src/domain/secrets.ts', 'src/control/guard.ts', 'src/dashboard/token.ts'])(
    '%s compares no secret with ===, !==, == or !=',
    async (file) => {
      const source = await readFile(join(import.meta.dirname, '..', '..', '..', file), 'utf8');
      const suspicious = equalities(source).filter((e) => e.operands.some((o) => SECRETISH.test(o)));
      expect(suspicious).toEqual([]);
      // Nor looks a secret up by value (a Map or index lookup is not constant time).
      expect(source).not.toMatch(/where\(\s*'clients',\s*'secretKey'/);
      expect(source).not.toMatch(/\.(?:includes|indexOf|localeCompare)\(\s*(?:secret|given|token)\b/);
    },
  );

  it('secrets.ts checks the current and every retired secret through secureEqual', async () => {
    const source = await readFile(
      join(import.meta.dirname, '..', '..', '..', 'src/domain/secrets.ts'),
      'utf8',
    );
    expect(source).toMatch(/import \{ secureEqual \} from '\.\/secure-compare\.js';/);
    expect(source).toMatch(/secureEqual\(client\.secretKey, key\)/);
    expect(source).toMatch(/secureEqual\(s\.key, key\)/);
    // The current key alone (get-keys), the same way.
    expect(source).toMatch(/isCurrentSecret[^{]*\{\s*return secureEqual\(client\.secretKey, key\);/);
  });

  it('auth.ts checks SECRET_KEY and x-api-secret only through isClientSecret (and isCurrentSecret)', async () => {
    const source = await readFile(join(import.meta.dirname, '..', '..', '..', 'src/http/auth.ts'), 'utf8');
    expect(source).toMatch(/isClientSecret\(client, secret, clock\.now\(\)\)/);
    expect(source.match(/isClientSecret\(/g)?.length).toBeGreaterThanOrEqual(2);
    // Every mention of the secret header values: read, checked for a production prefix, or given to isClientSecret.
    const uses = code(source).match(/[^\n]*\bsecret\b[^\n]*/g) ?? [];
    for (const line of uses)
      expect(line).toMatch(
        /header\(c, '(?:secret_key|x-api-secret)'\)|!secret|isProductionKey|isClientSecret|isCurrentSecret/,
      );
  });

  it('the auth middleware, end to end: only the exact key passes', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const near = `${A.secretKey.slice(0, -1)}${A.secretKey.endsWith('0') ? '1' : '0'}`;
    const attempts: [string, number][] = [
      [A.secretKey, 200],
      [near, 401],
      [A.secretKey.slice(0, -1), 401],
      [`${A.secretKey}0`, 401],
      [A.secretKey.toUpperCase(), 401],
    ];
    for (const [secret, status] of attempts) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, secret, A.a1.id) });
      expect(res.status, secret).toBe(status);
      const b = await call(sandbox, 'GET', BULK, { headers: schemeB(A.publicKey, secret, A.a1.id) });
      expect(b.status, `x-api-secret ${secret}`).toBe(status);
    }
  });
});

describe('--control-token protects every control route', () => {
  const TOKEN = 't0ken';
  const sandbox = useSandbox({ controlToken: TOKEN });

  const routes = controlContracts.map((op) => ({
    label: `${op.method.toUpperCase()} /__sandbox${op.path}`,
    method: op.method.toUpperCase(),
    path: `/__sandbox${op.path.replace(/\{(\w+)\}/g, (_m, name: string) => op.params?.[name]?.example ?? 'unknown-id')}`,
  }));

  it('the list is the whole control document (every route of src/control/routes.ts)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(28);
    expect(routes.map((r) => r.label)).toEqual(
      expect.arrayContaining([
        'GET /__sandbox/health',
        'GET /__sandbox/openapi.json',
        'PUT /__sandbox/state',
        'POST /__sandbox/reset',
        'POST /__sandbox/clients/{id}/rotate-secret',
      ]),
    );
  });

  it.each(routes)(
    '$label: 401 without x-sandbox-token and with a wrong one, not 401 with the right one',
    async (route) => {
      for (const wrong of [
        undefined,
        '',
        'wrong',
        't0keN',
        't0ke',
        `${TOKEN}0`,
        ` ${TOKEN}x`,
        TOKEN.toUpperCase(),
      ]) {
        const headers: HeaderMap = wrong === undefined ? {} : { 'x-sandbox-token': wrong };
        const res = await call(sandbox, route.method, route.path, { headers });
        expect(res.status, `${route.label} with ${JSON.stringify(wrong)}`).toBe(401);
        expect(res.body).toMatchObject({ status: false, data: null });
      }
      if (route.path === '/__sandbox/ui/events') {
        // A stream that does not end by itself: its status and type, then it is closed.
        const stream = await sandbox.app.request(route.path, { headers: { 'x-sandbox-token': TOKEN } });
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await stream.body?.cancel();
        return;
      }
      const res = await call(sandbox, route.method, route.path, { headers: { 'x-sandbox-token': TOKEN } });
      expect(res.status, `${route.label} with the token: ${JSON.stringify(res.body)}`).not.toBe(401);
      expect(String(res.body.message ?? '')).not.toMatch(/^Route not found/);
    },
  );

  it('an unknown /__sandbox path answers 401 too (no route map without the token)', async () => {
    expect((await call(sandbox, 'GET', '/__sandbox/no-such-route')).status).toBe(401);
  });

  it('GET /__sandbox/openapi.json is protected, and served with the token', async () => {
    expect((await call(sandbox, 'GET', '/__sandbox/openapi.json')).status).toBe(401);
    const res = await call(sandbox, 'GET', '/__sandbox/openapi.json', {
      headers: { 'x-sandbox-token': TOKEN },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('openapi');
  });

  it('/api/v1 needs no x-sandbox-token, and a wrong one changes nothing there', async () => {
    // A sandbox of its own: the routes above rotated A's secret and reset the state.
    const sandbox = await memorySandbox({ controlToken: TOKEN });
    for (const extra of [{}, { 'x-sandbox-token': 'wrong' }] as HeaderMap[]) {
      const signin = await call(sandbox, 'POST', SIGNIN, {
        headers: extra,
        body: { email: A.owner.email, password: A.owner.password },
      });
      expect(signin.status).toBe(200);
      const token = dataOf(signin, signIn).accessToken;
      const details = await call(sandbox, 'GET', DETAILS, {
        headers: { ...extra, ...schemeA(token, A.secretKey, A.a1.id) },
      });
      expect(details.status).toBe(200);
      const bulk = await call(sandbox, 'GET', BULK, {
        headers: { ...extra, ...schemeB(A.publicKey, A.secretKey, A.a1.id) },
      });
      expect(bulk.status).toBe(200);
    }
  });
});

describe('access tokens after the token key changes', () => {
  it('a state import with another token key makes every earlier token invalid, one verified just before too', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const headers = schemeA(token, A.secretKey, A.a1.id);
    // Verified, and so remembered.
    expect((await call(sandbox, 'GET', DETAILS, { headers })).status).toBe(200);
    const state = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const [meta] = state.collections.meta;
    if (!meta) throw new Error('the state has its meta record');
    const imported = await call(sandbox, 'PUT', '/__sandbox/state', {
      body: {
        ...state,
        collections: { ...state.collections, meta: [{ ...meta, jwtSecret: 'f'.repeat(64) }] },
      },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const after = await call(sandbox, 'GET', DETAILS, { headers });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Invalid access token');
    // A token of the new key works.
    const fresh = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    expect((await call(sandbox, 'GET', DETAILS, { headers: fresh })).status).toBe(200);
    await sandbox.close();
  });

  it('a token with padding appended or its signature in standard base64 is refused, though its bytes are the same', async () => {
    const sandbox = await memorySandbox();
    let token = await tokenFor(sandbox, A.owner);
    // Sign in until the signature has a character standard base64 writes otherwise.
    while (!/[-_]/.test(token.split('.')[2] ?? '')) token = await tokenFor(sandbox, A.owner);
    const [h, p, sig = ''] = token.split('.');
    const standard = sig.replaceAll('-', '+').replaceAll('_', '/');
    expect(
      (await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) })).status,
    ).toBe(200);
    for (const altered of [`${sig}=`, standard]) {
      const res = await call(sandbox, 'GET', DETAILS, {
        headers: schemeA(`${h}.${p}.${altered}`, A.secretKey, A.a1.id),
      });
      expect(res.status, altered).toBe(401);
    }
    await sandbox.close();
  });
});

describe('sandbox and production keys never mix', () => {
  const sandbox = useSandbox();
  let tokenA: string;
  let tokenB: string;
  const live = (key: string, prefix: 'sk_live_' | 'pk_live_') => prefix + key.replace(/^[sp]k_sandbox_/, '');
  beforeAll(async () => {
    tokenA = await tokenFor(sandbox, A.owner);
    tokenB = await tokenFor(sandbox, B.owner);
  });

  const expectProduction = (res: { status: number; body: Json }, label: string) => {
    expect(res.status, label).toBe(401);
    expect(res.body, label).toMatchObject({ status: false, message: PRODUCTION, data: null });
  };

  it('sk_live_ and pk_live_ in SECRET_KEY: 401 with the production message', async () => {
    for (const key of [live(A.secretKey, 'sk_live_'), live(A.publicKey, 'pk_live_'), 'sk_live_x']) {
      expectProduction(
        await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenA, key, A.a1.id) }),
        `SECRET_KEY ${key}`,
      );
    }
  });

  it('sk_live_ / pk_live_ in x-api-key or x-api-secret: 401 with the production message', async () => {
    const pairs: [string, string][] = [
      [live(A.publicKey, 'pk_live_'), A.secretKey],
      [A.publicKey, live(A.secretKey, 'sk_live_')],
      [live(A.publicKey, 'pk_live_'), live(A.secretKey, 'sk_live_')],
      [live(A.secretKey, 'sk_live_'), A.secretKey],
    ];
    for (const [key, secret] of pairs) {
      expectProduction(
        await call(sandbox, 'GET', BULK, { headers: schemeB(key, secret, A.a1.id) }),
        `${key} / ${secret}`,
      );
      expectProduction(
        await call(sandbox, 'POST', `${BULK}/process`, {
          headers: schemeB(key, secret, A.a1.id),
          body: { bulkTransferId: '00000000-0000-4000-8000-000000000000' },
        }),
        `process ${key} / ${secret}`,
      );
    }
  });

  it('sk_live_ in SECRET_KEY of member complete-registration: 401 with the production message', async () => {
    for (const key of [live(A.secretKey, 'sk_live_'), live(A.publicKey, 'pk_live_')]) {
      expectProduction(
        await call(sandbox, 'PATCH', `${MEMBERS}/complete-registration`, {
          headers: { SECRET_KEY: key },
          body: {
            authorizationToken: 'whatever',
            firstName: 'Ngozi',
            lastName: 'Eze',
            phoneNo: '08012345678',
            password: 'Sandbox123!',
          },
        }),
        key,
      );
    }
  });

  // B's key with A's token: route-auth.test.ts, on every scheme A route. It signs in as A only, hence these.
  it("a sandbox key of client A with client B's token: 401", async () => {
    const ab = await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenB, A.secretKey, B.b1.id) });
    expect(ab.status).toBe(401);
    expect(ab.body).toMatchObject({ status: false, data: null });
    const noBusiness = await call(sandbox, 'GET', '/api/v1/clients/business', {
      headers: schemeA(tokenB, A.secretKey, A.a1.id),
    });
    expect(noBusiness.status).toBe(401);
  });

  it("A's own credentials naming B's business: scheme A 401 Invalid businessId, scheme B 404", async () => {
    const unknown = '00000000-0000-4000-8000-00000000beef';
    for (const businessId of [B.b1.id, B.b1.id.toUpperCase(), unknown]) {
      const a = await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenA, A.secretKey, businessId) });
      expect(a.status, businessId).toBe(401);
      // Another client's business and one that does not exist answer exactly alike.
      expect(a.body, businessId).toStrictEqual({ status: false, message: 'Invalid businessId', data: null });
      const b = await call(sandbox, 'GET', BULK, { headers: schemeB(A.publicKey, A.secretKey, businessId) });
      expect(b.status, businessId).toBe(404);
      expect(b.body, businessId).toStrictEqual({ status: false, message: 'Business not found', data: null });
    }
  });

  it("A's public key with B's secret (and B's with A's): 401", async () => {
    for (const [key, secret, business] of [
      [A.publicKey, B.secretKey, A.a1.id],
      [A.publicKey, B.secretKey, B.b1.id],
      [B.publicKey, A.secretKey, B.b1.id],
    ] as const) {
      const res = await call(sandbox, 'GET', BULK, { headers: schemeB(key, secret, business) });
      expect(res.status, `${key} / ${secret}`).toBe(401);
      expect(res.body).toMatchObject({ status: false, data: null });
    }
  });

  it('a member registration with the other client’s secret does not complete the invitation', async () => {
    const email = 'crossed@poison.test';
    const invite = await call(sandbox, 'POST', MEMBERS, {
      headers: schemeA(tokenA, A.secretKey, A.a1.id),
      body: { email, memberRoleId: MANAGER_ROLE },
    });
    expect(invite.status).toBe(201);
    const sent = await call(sandbox, 'GET', `/__sandbox/outbox?to=${email}`);
    const [message] = pageOf(sent, outboxMessage).data;
    const body = {
      authorizationToken: message?.data.authorizationToken ?? '',
      firstName: 'Ngozi',
      lastName: 'Eze',
      phoneNo: '08012345678',
      password: 'Sandbox123!',
    };
    const crossed = await call(sandbox, 'PATCH', `${MEMBERS}/complete-registration`, {
      headers: { SECRET_KEY: B.secretKey },
      body,
    });
    expect(crossed.status).toBeGreaterThanOrEqual(400);
    expect(crossed.status).toBeLessThan(500);
    const own = await call(sandbox, 'PATCH', `${MEMBERS}/complete-registration`, {
      headers: { SECRET_KEY: A.secretKey },
      body,
    });
    expect(own.status).toBe(200);
  });
});
