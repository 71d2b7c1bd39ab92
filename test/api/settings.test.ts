import { beforeAll, describe, expect, it } from 'vitest';
import billers from '../../fixtures/billers.json' with { type: 'json' };
import type { Sandbox } from '../../src/sandbox.js';
import { A, B, call, memorySandbox, schemeA, tokenFor } from '../support/sandbox.js';

const KEYS = '/api/v1/clients/settings/get-keys';
const WEBHOOK = '/api/v1/clients/settings/update-webhook-url';
const BILLERS = '/api/v1/clients/settings/billers';
const CONFIGURE = '/api/v1/clients/settings/configure-billers';

interface ClientState {
  id: string;
  webhookUrl: string | null;
  billers: string[];
}

/** The client record of `clientId` in `GET /__sandbox/state`. */
async function clientState(sandbox: Sandbox, clientId: string): Promise<ClientState> {
  const res = await call(sandbox, 'GET', '/__sandbox/state');
  expect(res.status).toBe(200);
  const collections = res.body.collections as { clients: ClientState[] };
  const client = collections.clients.find((c) => c.id === clientId);
  if (!client) throw new Error(`no client ${clientId} in the state`);
  return client;
}

describe('get-keys', () => {
  it("returns the caller's client's current publicKey and secretKey", async () => {
    const sandbox = await memorySandbox();
    const tokenA = await tokenFor(sandbox, A.owner);
    const resA = await call(sandbox, 'GET', KEYS, { headers: schemeA(tokenA, A.secretKey) });
    expect(resA.status).toBe(200);
    expect(resA.body.status).toBe(true);
    expect(resA.body.data).toEqual({ publicKey: A.publicKey, secretKey: A.secretKey });

    const tokenB = await tokenFor(sandbox, B.owner);
    const resB = await call(sandbox, 'GET', KEYS, { headers: schemeA(tokenB, B.secretKey) });
    expect(resB.status).toBe(200);
    expect(resB.body.data).toEqual({ publicKey: B.publicKey, secretKey: B.secretKey });
  });

  it('keys follow the contract format', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', KEYS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    const data = res.body.data as { publicKey: string; secretKey: string };
    expect(data.publicKey).toMatch(/^pk_sandbox_[0-9a-f]{32}$/);
    expect(data.secretKey).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
  });

  it('requires credentials', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'GET', KEYS, { headers: { SECRET_KEY: A.secretKey } });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(A.publicKey);
  });
});

/** errors[] names webhookUrl, and only it. */
function expectWebhookErrors(errors: unknown): void {
  expect(Array.isArray(errors)).toBe(true);
  const list = errors as { field: string; message: string }[];
  expect(list.length).toBeGreaterThan(0);
  for (const e of list) expect(e).toEqual({ field: 'webhookUrl', message: expect.any(String) });
}

describe('update-webhook-url', () => {
  let sandbox: Sandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    token = await tokenFor(sandbox, A.owner);
  });

  const update = (body: Record<string, unknown>) =>
    call(sandbox, 'PATCH', WEBHOOK, { headers: schemeA(token, A.secretKey), body });

  it('starts with no webhook URL', async () => {
    expect((await clientState(sandbox, A.id)).webhookUrl).toBeNull();
  });

  it('accepts an https URL and stores it', async () => {
    const res = await update({ webhookUrl: 'https://hooks.example.com/banking?x=1' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe('https://hooks.example.com/banking?x=1');
  });

  it.each([
    'http://localhost:3000/hook',
    'http://127.0.0.1/x',
    'http://host.docker.internal:8080/x',
    'http://app:3000/hooks',
  ])('accepts plain http to a local or container host: %s', async (url) => {
    const res = await update({ webhookUrl: url });
    expect(res.status).toBe(200);
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe(url);
  });

  it.each(['http://example.com/x', 'not a url', 'ftp://files.example.com/hook', '/relative/path', ''])(
    'rejects %j with 400 and keeps the URL',
    async (url) => {
      const before = (await clientState(sandbox, A.id)).webhookUrl;
      const res = await update({ webhookUrl: url });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.data).toBeNull();
      expectWebhookErrors(res.body.errors);
      expect((await clientState(sandbox, A.id)).webhookUrl).toBe(before);
    },
  );

  it('rejects a missing or non-string field with 400', async () => {
    for (const body of [{}, { webhookUrl: 42 }, { webhookUrl: null }, { url: 'https://example.com' }]) {
      const res = await update(body);
      expect(res.status).toBe(400);
      expectWebhookErrors(res.body.errors);
    }
  });

  it("changes only the caller's client", async () => {
    await update({ webhookUrl: 'https://a-only.example.com/hook' });
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe('https://a-only.example.com/hook');
    expect((await clientState(sandbox, B.id)).webhookUrl).toBeNull();
  });
});

describe('billers', () => {
  let sandbox: Sandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await memorySandbox();
    token = await tokenFor(sandbox, A.owner);
  });

  const configure = (body: Record<string, unknown>) =>
    call(sandbox, 'POST', CONFIGURE, { headers: schemeA(token, A.secretKey), body });

  it('lists the fixture billers', async () => {
    const res = await call(sandbox, 'GET', BILLERS, { headers: schemeA(token, A.secretKey) });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.data).toEqual({ billers });
  });

  it('replaces the enabled set', async () => {
    const first = await configure({ billers: ['044', '058', '011'] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: true, message: 'Billers has been updated' });
    expect((await clientState(sandbox, A.id)).billers).toEqual(['044', '058', '011']);

    const second = await configure({ billers: ['232', '100004'] });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: true, message: 'Billers has been updated' });
    expect((await clientState(sandbox, A.id)).billers).toEqual(['232', '100004']);
    expect((await clientState(sandbox, B.id)).billers).toEqual([]);
  });

  it('removes duplicates', async () => {
    const res = await configure({ billers: ['044', '058', '044', '058', '044'] });
    expect(res.status).toBe(200);
    expect((await clientState(sandbox, A.id)).billers).toEqual(['044', '058']);
  });

  it('accepts an empty array, which disables every biller', async () => {
    await configure({ billers: ['044'] });
    const res = await configure({ billers: [] });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Billers has been updated');
    expect((await clientState(sandbox, A.id)).billers).toEqual([]);
  });

  it('rejects an unknown code with 400 and changes nothing', async () => {
    await configure({ billers: ['033'] });
    const res = await configure({ billers: ['044', 'XYZ'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: 'Invalid biller code: XYZ', data: null });
    expect((await clientState(sandbox, A.id)).billers).toEqual(['033']);
  });

  it('rejects billers that is not an array, or missing, with 400', async () => {
    for (const body of [{ billers: '044' }, { billers: { code: '044' } }, { billers: null }, {}]) {
      const res = await configure(body);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(/^billers/) })]),
      );
    }
  });

  it('rejects non-string codes with 400', async () => {
    const res = await configure({ billers: [44, 58] });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });
});
