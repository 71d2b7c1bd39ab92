import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { payoutAccount } from '../../../src/contract/api/payouts.js';
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { A, call, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';
import {
  BANK,
  BILLER,
  BULK,
  DETAILS,
  expectNoPollution,
  expectRefusal,
  expectStatus,
  FUNDS,
  invitationToken,
  isObject,
  type Json,
  MANAGER_ROLE,
  MEMBERS,
  newBatch,
  PAYOUTS,
  poison,
  poisonAt,
  type Req,
  SIGNIN,
  send,
  type Tenant,
  tenant,
  transferItem,
  transferRef,
} from '../../support/security.js';

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
