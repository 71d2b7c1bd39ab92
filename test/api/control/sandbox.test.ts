import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { signIn } from '../../../src/contract/api/auth.js';
import { business } from '../../../src/contract/api/business.js';
import { credentials } from '../../../src/contract/control/clients.js';
import { metrics } from '../../../src/contract/control/sandbox.js';
import type { StateDocument } from '../../../src/domain/records.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { A, B, call, memorySandbox, schemeA, tokenFor } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';
import { setWebhookUrl } from '../../support/webhooks.js';

/**
 * The exported state loosened, so that a test can break it: a record of any collection, by name, with any field
 * set to anything or deleted (the imports below are meant to be refused).
 */
type StateRecord = Record<string, unknown>;
interface StateDoc {
  version: number;
  collections: Record<string, StateRecord[]>;
}

async function getState(sandbox: Sandbox): Promise<StateDocument> {
  const res = await call(sandbox, 'GET', '/__sandbox/state');
  expect(res.status).toBe(200);
  return stateOf(res);
}

function recordsOf(doc: StateDoc, name: string): StateRecord[] {
  const records = doc.collections[name];
  if (!records) throw new Error(`state has no collection ${name}`);
  return records;
}

function recordOf(doc: StateDoc, name: string, id: string): StateRecord {
  const record = recordsOf(doc, name).find((r) => r.id === id);
  if (!record) throw new Error(`state has no ${name} record ${id}`);
  return record;
}

async function setWebhook(sandbox: Sandbox, url: string): Promise<void> {
  const token = await tokenFor(sandbox, A.owner);
  const res = await setWebhookUrl(sandbox, schemeA(token, A.secretKey, A.a1.id), url);
  expect(res.status).toBe(200);
}

describe('health', () => {
  it('answers 200 {status: ok, version, uptimeSeconds}', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'GET', '/__sandbox/health');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['status', 'uptimeSeconds', 'version']);
    expect(res.body.status).toBe('ok');
    expect(res.body.version).toBe(pkg.version);
    expect(Number.isInteger(res.body.uptimeSeconds)).toBe(true);
    expect(res.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe('metrics', () => {
  const read = async (sandbox: Sandbox) => {
    const res = await call(sandbox, 'GET', '/__sandbox/metrics');
    expect(res.status).toBe(200);
    return dataOf(res, metrics);
  };

  it('counts the records and the journal as they change, and reports memory', async () => {
    const sandbox = await memorySandbox({ journalSize: 3 });
    const before = await read(sandbox);
    expect(before.records.clients).toBe(2);
    expect(before.records.businesses).toBe((await getState(sandbox)).collections.businesses.length);
    expect(before.memory.heapUsedBytes).toBeGreaterThan(0);
    expect(before.memory.rssBytes).toBeGreaterThanOrEqual(before.memory.heapUsedBytes);
    expect(before.queues).toEqual({ bulkItems: 0, webhookDeliveries: 0 });
    const created = await call(sandbox, 'POST', '/__sandbox/clients', { body: { name: 'Metered' } });
    expect(created.status).toBe(201);
    for (let i = 0; i < 4; i++) await call(sandbox, 'GET', '/__sandbox/health');
    const after = await read(sandbox);
    expect(after.records.clients).toBe(3);
    expect(after.records.businesses).toBe((before.records.businesses ?? 0) + 1);
    expect(after.store.seq).toBeGreaterThan(before.store.seq);
    // The journal keeps 3 however many requests were answered.
    expect(after.requestJournal).toMatchObject({ entries: 3, capacity: 3, byteLimit: 64 * 1_048_576 });
    expect(after.requestJournal.bytes).toBeGreaterThanOrEqual(3 * 1024);
  });

  it('refuses gc=true without --expose-gc (409) and a value that is not a boolean (400)', async () => {
    const sandbox = await memorySandbox();
    const gc = await call(sandbox, 'GET', '/__sandbox/metrics?gc=true');
    expect(gc.status).toBe(409);
    expect(gc.body).toMatchObject({ status: false, message: expect.stringContaining('--expose-gc') });
    const bad = await call(sandbox, 'GET', '/__sandbox/metrics?gc=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe(false);
  });
});

describe('credentials', () => {
  it('lists both clients with keys, businesses and members', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'GET', '/__sandbox/credentials');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const { clients } = dataOf(res, credentials);
    expect(clients.map((c) => c.clientId).sort()).toEqual([A.id, B.id].sort());

    const a = clients.find((c) => c.clientId === A.id);
    expect(a).toMatchObject({
      email: A.owner.email.toLowerCase(),
      password: A.owner.password,
      publicKey: A.publicKey,
      secretKey: A.secretKey,
      webhookAuthKey: A.webhookAuthKey,
    });
    expect(typeof a?.name).toBe('string');
    expect(a?.businesses).toEqual([
      {
        id: A.a1.id,
        businessName: A.a1.businessName,
        isApproved: true,
        accountNumber: A.a1.accountNumber,
        accountBalance: '500000000',
      },
      {
        id: A.a2.id,
        businessName: A.a2.businessName,
        isApproved: false,
        accountNumber: null,
        accountBalance: '0',
      },
    ]);
    expect(a?.members.map((m) => m.role).sort()).toEqual(['Manager', 'Viewer']);
    expect(a?.members.map((m) => m.email).sort()).toEqual(
      [A.manager.email.toLowerCase(), A.viewer.email.toLowerCase()].sort(),
    );

    const b = clients.find((c) => c.clientId === B.id);
    expect(b).toMatchObject({ publicKey: B.publicKey, secretKey: B.secretKey, members: [] });
    expect(b?.businesses).toEqual([
      {
        id: B.b1.id,
        businessName: B.b1.businessName,
        isApproved: true,
        accountNumber: B.b1.accountNumber,
        accountBalance: '250000000',
      },
    ]);
  });

  it('gives passwords that actually sign in, with the listed role', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'GET', '/__sandbox/credentials');
    const { clients } = dataOf(res, credentials);
    const logins = clients.flatMap((c) => [
      { email: c.email, password: c.password, role: 'Admin', clientId: c.clientId },
      ...c.members.map((m) => ({ ...m, clientId: c.clientId })),
    ]);
    expect(logins).toHaveLength(4);
    for (const login of logins) {
      const signedIn = await call(sandbox, 'POST', '/api/v1/auth/signin', {
        body: { email: login.email, password: login.password },
      });
      expect(signedIn.status, login.email).toBe(200);
      const token = dataOf(signedIn, signIn).accessToken;
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
        role: string;
        clientId: string;
      };
      expect(claims).toMatchObject({ role: login.role, clientId: login.clientId });
    }
  });

  it('reflects a new business', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    await call(sandbox, 'POST', '/api/v1/clients/business', {
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: { businessName: 'Fresh Co', countryId: 'NG', isNewBusiness: true },
    });
    const res = await call(sandbox, 'GET', '/__sandbox/credentials');
    const { clients } = dataOf(res, credentials);
    const fresh = clients
      .find((c) => c.clientId === A.id)
      ?.businesses.find((b) => b.businessName === 'Fresh Co');
    expect(fresh).toMatchObject({ isApproved: false, accountNumber: null, accountBalance: '0' });
  });
});

describe('reset', () => {
  it('restores the fixture state after changes', async () => {
    const sandbox = await memorySandbox();
    const initial = await getState(sandbox);
    const token = await tokenFor(sandbox, A.owner);
    await setWebhook(sandbox, 'https://hooks.example.com/x');
    const created = await call(sandbox, 'POST', '/api/v1/clients/business', {
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: { businessName: 'To Be Forgotten', countryId: 'NG', isNewBusiness: true },
    });
    expect(created.status).toBe(201);
    const billers = await call(sandbox, 'POST', '/api/v1/clients/settings/configure-billers', {
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: { billers: ['044'] },
    });
    expect(billers.status).toBe(200);
    const changed = await getState(sandbox);
    expect(changed).not.toEqual(initial);

    const res = await call(sandbox, 'POST', '/__sandbox/reset');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(await getState(sandbox)).toEqual(initial);

    const list = await call(sandbox, 'GET', '/api/v1/clients/business', {
      headers: schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id),
    });
    expect(pageOf(list, business).data.map((b) => b.businessName)).not.toContain('To Be Forgotten');
  });

  it('empties the request journal, its own call included; keep=requests keeps it and journals the reset', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const paths = async () =>
      ((await call(sandbox, 'GET', '/__sandbox/requests')).body.data as { path: string }[]).map(
        (e) => e.path,
      );
    expect(await paths()).toEqual(['/api/v1/auth/signin']);

    const kept = await call(sandbox, 'POST', '/__sandbox/reset?keep=requests');
    expect(kept.status).toBe(200);
    expect(await paths()).toEqual(['/__sandbox/reset', '/api/v1/auth/signin']);

    await call(sandbox, 'GET', '/api/v1/clients/business', { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(await paths()).toEqual([]);
    // The journal starts again after it, its ids going on.
    await tokenFor(sandbox, A.owner);
    const [entry] = (await call(sandbox, 'GET', '/__sandbox/requests')).body.data as { id: string }[];
    expect(Number(entry?.id.replace(/\D/g, ''))).toBeGreaterThan(3);
  });

  it('refuses any other keep with 400, and resets nothing', async () => {
    const sandbox = await memorySandbox();
    const before = await getState(sandbox);
    await call(sandbox, 'POST', '/__sandbox/clients', { body: {} });
    const res = await call(sandbox, 'POST', '/__sandbox/reset?keep=state');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toContain('keep');
    expect(await getState(sandbox)).not.toEqual(before);
  });

  it('is idempotent on a fresh sandbox', async () => {
    const sandbox = await memorySandbox();
    const initial = await getState(sandbox);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(await getState(sandbox)).toEqual(initial);
  });
});

describe('state export and import', () => {
  it('exports every collection with version 1', async () => {
    const sandbox = await memorySandbox();
    const doc = await getState(sandbox);
    expect(doc.version).toBe(1);
    expect(Object.keys(doc.collections)).toEqual(
      expect.arrayContaining(['businesses', 'clients', 'customers', 'meta', 'roles', 'users']),
    );
    expect(recordsOf(doc, 'meta')).toHaveLength(1);
    expect(recordsOf(doc, 'clients')).toHaveLength(2);
    expect(recordsOf(doc, 'customers')).toHaveLength(35);
  });

  it('GET then PUT of the same document round-trips, and brings an earlier state back', async () => {
    const sandbox = await memorySandbox();
    const saved = await getState(sandbox);

    const same = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...saved } });
    expect(same.status).toBe(200);
    expect(same.body.status).toBe(true);
    expect(await getState(sandbox)).toEqual(saved);

    await setWebhook(sandbox, 'https://later.example.com/hook');
    expect(recordOf(await getState(sandbox), 'clients', A.id).webhookUrl).toBe(
      'https://later.example.com/hook',
    );

    const restore = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...saved } });
    expect(restore.status).toBe(200);
    expect(await getState(sandbox)).toEqual(saved);
  });

  it('an imported change is served by the API', async () => {
    const sandbox = await memorySandbox();
    const doc = await getState(sandbox);
    const b1 = recordOf(doc, 'businesses', B.b1.id);
    // A consistent change: B1 has no ledger in the fixtures, so its balance is its opening balance.
    b1.openingBalance = 123;
    b1.balance = 123;
    const res = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...doc } });
    expect(res.status).toBe(200);
    const token = await tokenFor(sandbox, B.owner);
    const details = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
      headers: schemeA(token, B.secretKey, B.b1.id),
    });
    expect(details.body.data).toMatchObject({ accountBalance: '123' });
  });

  /** An otherwise valid copy of the state with A's webhook changed, so an accepted import would show. */
  function tweaked(doc: StateDoc): StateDoc {
    const copy = structuredClone(doc);
    recordOf(copy, 'clients', A.id).webhookUrl = 'https://should-not-land.example.com/x';
    return copy;
  }

  const invalid: [string, (doc: StateDoc) => unknown][] = [
    [
      'a balance its opening balance and ledger do not explain',
      (doc) => {
        const copy = tweaked(doc);
        recordOf(copy, 'businesses', A.a1.id).balance = 1;
        return copy;
      },
    ],
    [
      'a record with an empty id',
      (doc) => {
        const copy = tweaked(doc);
        recordOf(copy, 'businesses', A.a2.id).id = '';
        return copy;
      },
    ],
    ['missing collections', () => ({ version: 1 })],
    [
      'a missing collection',
      (doc) => {
        const copy = tweaked(doc);
        delete copy.collections.users;
        return copy;
      },
    ],
    ['a wrong version', (doc) => ({ ...tweaked(doc), version: 2 })],
    [
      'a record with a wrong type',
      (doc) => {
        const copy = tweaked(doc);
        recordOf(copy, 'businesses', A.a1.id).balance = 'a lot';
        return copy;
      },
    ],
    [
      'a record missing a field',
      (doc) => {
        const copy = tweaked(doc);
        delete recordOf(copy, 'clients', B.id).secretKey;
        return copy;
      },
    ],
    [
      'a negative balance',
      (doc) => {
        const copy = tweaked(doc);
        recordOf(copy, 'businesses', A.a1.id).balance = -1;
        return copy;
      },
    ],
    [
      'two meta records',
      (doc) => {
        const copy = tweaked(doc);
        const meta = recordsOf(copy, 'meta');
        copy.collections.meta = [...meta, ...structuredClone(meta)];
        return copy;
      },
    ],
    [
      'no meta record',
      (doc) => {
        const copy = tweaked(doc);
        copy.collections.meta = [];
        return copy;
      },
    ],
    [
      'duplicate ids',
      (doc) => {
        const copy = tweaked(doc);
        const clients = recordsOf(copy, 'clients');
        copy.collections.clients = [...clients, { ...recordOf(copy, 'clients', B.id), name: 'Impostor' }];
        return copy;
      },
    ],
    ['an array', () => []],
    ['null', () => null],
  ];

  it.each(invalid)('answers 400 to %s and leaves the state unchanged', async (_name, make) => {
    const sandbox = await memorySandbox();
    const before = await getState(sandbox);
    const res = await call(sandbox, 'PUT', '/__sandbox/state', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(make(before)),
    });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.data).toBeNull();
    expect(typeof res.body.message).toBe('string');
    expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+/);
    expect(await getState(sandbox)).toEqual(before);
  });

  it('answers 400 Malformed JSON body to a broken document and leaves the state unchanged', async () => {
    const sandbox = await memorySandbox();
    const before = await getState(sandbox);
    const res = await call(sandbox, 'PUT', '/__sandbox/state', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(before).slice(0, -5),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: 'Malformed JSON body', data: null });
    expect(await getState(sandbox)).toEqual(before);
  });

  it('__proto__ keys in a document pollute nothing', async () => {
    const sandbox = await memorySandbox();
    const before = await getState(sandbox);
    const poison = '"__proto__":{"polluted":"yes","isApproved":true,"account":{"accountNumber":"1"}}';
    const text = JSON.stringify(before)
      .replace('{"version":1', `{${poison},"version":1`)
      .replace('"collections":{', `"collections":{${poison},`)
      .replace(`{"id":"${A.id}"`, `{${poison},"id":"${A.id}"`)
      .replace(`{"id":"${A.a2.id}"`, `{${poison},"id":"${A.a2.id}"`);
    expect(text.split('__proto__')).toHaveLength(5);

    const res = await call(sandbox, 'PUT', '/__sandbox/state', {
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect([200, 400]).toContain(res.status);

    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(Object.hasOwn(Object.prototype, 'isApproved')).toBe(false);

    for (const record of [sandbox.store.get('clients', A.id), sandbox.store.get('businesses', A.a2.id)]) {
      expect(record).toBeDefined();
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect('polluted' in (record ?? {})).toBe(false);
    }
    expect(await getState(sandbox)).toEqual(before);

    const token = await tokenFor(sandbox, A.owner);
    const details = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
      headers: schemeA(token, A.secretKey, A.a2.id),
    });
    expect(details.status).toBe(400);
    expect(details.body.message).toBe('No payment account for this business');
  });
});

describe('control token', () => {
  const createLocked = () => memorySandbox({ controlToken: 'secret' });

  it('answers 401 without x-sandbox-token', async () => {
    const sandbox = await createLocked();
    for (const [method, path] of [
      ['GET', '/__sandbox/health'],
      ['GET', '/__sandbox/credentials'],
      ['GET', '/__sandbox/state'],
      ['POST', '/__sandbox/reset'],
    ] as const) {
      const res = await call(sandbox, method, path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toMatchObject({ status: false, data: null });
      expect(JSON.stringify(res.body)).not.toContain(A.secretKey);
    }
  });

  it('answers 401 to a wrong token', async () => {
    const sandbox = await createLocked();
    for (const token of ['wrong', 'Secret', 'secretsecret', 'secre']) {
      const res = await call(sandbox, 'GET', '/__sandbox/credentials', {
        headers: { 'x-sandbox-token': token },
      });
      expect(res.status, token).toBe(401);
    }
  });

  it('answers 200 to the right token', async () => {
    const sandbox = await createLocked();
    const headers = { 'x-sandbox-token': 'secret' };
    expect((await call(sandbox, 'GET', '/__sandbox/health', { headers })).status).toBe(200);
    const creds = await call(sandbox, 'GET', '/__sandbox/credentials', { headers });
    expect(creds.status).toBe(200);
    expect(JSON.stringify(creds.body)).toContain(A.secretKey);
  });

  it('a PUT state without the token changes nothing', async () => {
    const sandbox = await createLocked();
    const headers = { 'x-sandbox-token': 'secret' };
    const before = await call(sandbox, 'GET', '/__sandbox/state', { headers });
    const doc: StateDoc = structuredClone(stateOf(before));
    recordOf(doc, 'clients', A.id).webhookUrl = 'https://attacker.example.com/x';
    const res = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...doc } });
    expect(res.status).toBe(401);
    const after = await call(sandbox, 'GET', '/__sandbox/state', { headers });
    expect(after.body).toEqual(before.body);
  });

  it('does not affect /api/v1', async () => {
    const sandbox = await createLocked();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accountBalance: '500000000' });
  });

  it('is not required when no token is configured', async () => {
    const sandbox = await memorySandbox();
    expect((await call(sandbox, 'GET', '/__sandbox/credentials')).status).toBe(200);
  });
});

describe('requests from the webhook client', () => {
  const agent = { 'user-agent': `banking-sandbox-webhooks/${pkg.version}` };

  it.each([
    ['GET', '/__sandbox/health'],
    ['GET', '/__sandbox/credentials'],
    ['POST', '/__sandbox/reset'],
    ['POST', '/__sandbox/incoming-payments'],
    ['PUT', '/__sandbox/state'],
    ['GET', '/__sandbox/ui'],
    ['POST', '/__sandbox/nowhere'],
  ])('%s %s answers 403 with the envelope, and does nothing', async (method, path) => {
    for (const sandbox of [await memorySandbox(), await memorySandbox({ controlToken: 'secret' })]) {
      await setWebhook(sandbox, 'https://kept.example.com/hook');
      const res = await call(sandbox, method, path, {
        headers: { ...agent, 'x-sandbox-token': 'secret', 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({
        status: false,
        message: 'Webhook deliveries cannot call the control API',
        data: null,
      });
      const after = await call(sandbox, 'GET', '/__sandbox/state', {
        headers: { 'x-sandbox-token': 'secret' },
      });
      expect(recordOf(stateOf(after), 'clients', A.id).webhookUrl).toBe('https://kept.example.com/hook');
    }
  });

  it('another version, or another case, of the same agent is refused too; other agents are not', async () => {
    const sandbox = await memorySandbox();
    for (const ua of ['banking-sandbox-webhooks/9.9.9', 'Banking-Sandbox-Webhooks/0.0.1 (extra)']) {
      expect(
        (await call(sandbox, 'GET', '/__sandbox/health', { headers: { 'user-agent': ua } })).status,
      ).toBe(403);
    }
    for (const ua of ['curl/8.5.0', 'banking-sandbox/0.1.0', 'node']) {
      expect(
        (await call(sandbox, 'GET', '/__sandbox/health', { headers: { 'user-agent': ua } })).status,
      ).toBe(200);
    }
  });

  it('does not affect /api/v1', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
      headers: { ...schemeA(token, A.secretKey, A.a1.id), ...agent },
    });
    expect(res.status).toBe(200);
  });
});
