import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { business } from '../../../src/contract/api/business.js';
import { activeScenario } from '../../../src/contract/control/scenarios.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox.js';
import { embeddedScenariosDir } from '../../../src/scenarios/library.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { deepDeliveryImport } from '../../support/deep-import.js';
import { A, call, memorySandbox, schemeA, schemeB, tokenFor, useSandbox } from '../../support/sandbox.js';
import {
  BULK,
  DETAILS,
  expectRefusal,
  FUNDS,
  type HeaderMap,
  type Json,
  MEMBERS,
  PAYOUTS,
  REGISTRATION,
  SIGNIN,
  STATE,
} from '../../support/security.js';

// Paths and shapes a request may not reach for: traversal out of the scenarios and uploads folders, nesting deeper
// than the sandbox reads (security.test.ts has prototype pollution, security.secrets.test.ts the credentials).

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
