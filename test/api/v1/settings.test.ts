import { hostname, networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import billers from '../../../fixtures/billers.json' with { type: 'json' };
import { apiKeys } from '../../../src/contract/api/settings.js';
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { rotatedSecret } from '../../../src/contract/control/clients.js';
import { errorEnvelope } from '../../../src/contract/wire.js';
import type { ClientRecord } from '../../../src/domain/records.js';
import { type RunningSandbox, type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { type Answered, bodyOf, dataOf } from '../../support/answers.js';
import { refusedUrl } from '../../support/receiver.js';
import { A, B, call, memorySandbox, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';

const KEYS = '/api/v1/clients/settings/get-keys';
const WEBHOOK = '/api/v1/clients/settings/update-webhook-url';
const BILLERS = '/api/v1/clients/settings/billers';
const CONFIGURE = '/api/v1/clients/settings/configure-billers';

/** The client record of `clientId` in `GET /__sandbox/state`. */
async function clientState(sandbox: Sandbox, clientId: string): Promise<ClientRecord> {
  const res = await call(sandbox, 'GET', '/__sandbox/state');
  expect(res.status).toBe(200);
  const client = stateOf(res).collections.clients.find((c) => c.id === clientId);
  if (!client) throw new Error(`no client ${clientId} in the state`);
  return client;
}

// Which credentials and roles get-keys and the other settings routes refuse: route-auth.test.ts.
describe('get-keys', () => {
  it("returns the caller's client's current publicKey and secretKey", async () => {
    const sandbox = await memorySandbox();
    const tokenA = await tokenFor(sandbox, A.owner);
    const resA = await call(sandbox, 'GET', KEYS, { headers: schemeA(tokenA, A.secretKey, A.a1.id) });
    expect(resA.status).toBe(200);
    expect(resA.body.status).toBe(true);
    expect(resA.body.message).toBe('Keys retrieved successfully');
    expect(resA.body.data).toEqual({ publicKey: A.publicKey, secretKey: A.secretKey });

    const tokenB = await tokenFor(sandbox, B.owner);
    const resB = await call(sandbox, 'GET', KEYS, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(resB.status).toBe(200);
    expect(resB.body.data).toEqual({ publicKey: B.publicKey, secretKey: B.secretKey });
  });

  it('keys follow the contract format', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', KEYS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    const data = dataOf(res, apiKeys);
    expect(data.publicKey).toMatch(/^pk_sandbox_[0-9a-f]{32}$/);
    expect(data.secretKey).toMatch(/^sk_sandbox_[0-9a-f]{32}$/);
  });
});

describe('get-keys after a rotation, in the grace period', () => {
  // The old key keeps working elsewhere for an hour; get-keys, which hands out the keys, wants the current one.
  const sandbox = useSandbox({ secretGrace: 3600 });
  let token: string;
  let oldKey: string;
  let newKey: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
    const rotated = await call(sandbox, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const data = dataOf(rotated, rotatedSecret);
    oldKey = A.secretKey;
    newKey = data.secretKey;
    expect(newKey).not.toBe(oldKey);
    // Still in the grace period: an hour from now.
    expect(Date.parse(data.previousSecretValidUntil)).toBeGreaterThan(Date.now() + 3_500_000);
  });

  it('the old key still works on another route', async () => {
    const res = await call(sandbox, 'GET', BILLERS, { headers: schemeA(token, oldKey, A.a1.id) });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
  });

  it('get-keys with the old key is 401 SECRET_KEY must be the current key', async () => {
    const res = await call(sandbox, 'GET', KEYS, { headers: schemeA(token, oldKey, A.a1.id) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      status: false,
      message: 'SECRET_KEY must be the current key',
      data: null,
    });
  });

  it('get-keys with the new key answers the new key', async () => {
    const res = await call(sandbox, 'GET', KEYS, { headers: schemeA(token, newKey, A.a1.id) });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Keys retrieved successfully');
    expect(dataOf(res, apiKeys)).toEqual({ publicKey: A.publicKey, secretKey: newKey });
  });

  it("the rotation is A's alone: B's key still gets B's keys", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', KEYS, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(res.status).toBe(200);
    expect(dataOf(res, apiKeys)).toEqual({ publicKey: B.publicKey, secretKey: B.secretKey });
  });
});

/** errors[] of the 400 names webhookUrl, and only it. */
function expectWebhookErrors(res: Answered): void {
  const { errors = [] } = bodyOf(res, errorEnvelope);
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(e).toEqual({ field: 'webhookUrl', message: expect.any(String) });
}

describe('update-webhook-url', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });

  const update = (body: Record<string, unknown>) =>
    call(sandbox, 'PATCH', WEBHOOK, { headers: schemeA(token, A.secretKey, A.a1.id), body });

  it('starts with no webhook URL', async () => {
    expect((await clientState(sandbox, A.id)).webhookUrl).toBeNull();
  });

  it('accepts an https URL and stores it', async () => {
    const res = await update({ webhookUrl: 'https://hooks.example.com/banking?x=1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, message: 'Webhook Url updated successfully' });
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
      expectWebhookErrors(res);
      expect((await clientState(sandbox, A.id)).webhookUrl).toBe(before);
    },
  );

  it('rejects a missing or non-string field with 400', async () => {
    for (const body of [{}, { webhookUrl: 42 }, { webhookUrl: null }, { url: 'https://example.com' }]) {
      const res = await update(body);
      expect(res.status).toBe(400);
      expectWebhookErrors(res);
    }
  });

  it("changes only the caller's client", async () => {
    await update({ webhookUrl: 'https://a-only.example.com/hook' });
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe('https://a-only.example.com/hook');
    expect((await clientState(sandbox, B.id)).webhookUrl).toBeNull();
  });
});

/** Plain-http receivers the bank's setting takes: this machine, a container network, a private address. */
const LOCAL_HTTP = [
  'http://localhost:3000/hooks',
  'http://LocalHost:3000/hooks',
  'http://app.localhost/hooks',
  'http://printer.local:8080/in',
  'http://host.docker.internal:8080/hooks',
  'http://host.containers.internal:8080/hooks',
  'http://host.testcontainers.internal:8080/hooks',
  'http://receiver.corp.internal/hooks',
  'http://127.0.0.1:3000/x',
  'http://127.8.9.10/x',
  'http://10.0.2.2:8080/x',
  'http://172.16.0.5/x',
  'http://172.31.255.255/x',
  'http://192.168.1.20:3000/x',
  'http://[::1]:3000/x',
  'http://[fd12:3456::1]/x',
  'http://app:3000/hooks',
  'http://localhost./hooks',
];
/** Plain-http URLs to anywhere else: production's https rule stands, as an AUTH-KEY sent there travels in clear. */
const REMOTE_HTTP = [
  'http://example.com/x',
  'http://hooks.example.com:3000/in',
  'http://localhost.example.com/x',
  'http://internal.example.com/x',
  'http://8.8.8.8/x',
  'http://172.32.0.1/x',
  'http://192.169.1.1/x',
  'http://11.0.0.1/x',
  'http://[2001:db8::1]/x',
  'http://[fe80::1]/x',
];

describe('a webhook URL, through each way of setting one', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });
  const patch = (webhookUrl: string) =>
    call(sandbox, 'PATCH', WEBHOOK, { headers: schemeA(token, A.secretKey, A.a1.id), body: { webhookUrl } });
  const create = (webhookUrl: string) =>
    call(sandbox, 'POST', '/__sandbox/clients', { body: { webhookUrl } });

  it.each(LOCAL_HTTP)('the bank takes plain http to the local host %s', async (url) => {
    const res = await patch(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe(url);
  });

  it.each(REMOTE_HTTP)(
    'the bank refuses plain http to %s with 400 naming webhookUrl, and keeps the URL',
    async (url) => {
      const before = (await clientState(sandbox, A.id)).webhookUrl;
      const res = await patch(url);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'webhookUrl is invalid: must be an absolute https URL; plain http only to localhost, *.localhost, *.local, *.internal (host.docker.internal, host.containers.internal, host.testcontainers.internal), a loopback or private IP address or a single-label name',
      );
      expectWebhookErrors(res);
      expect((await clientState(sandbox, A.id)).webhookUrl).toBe(before);
    },
  );

  it.each([...LOCAL_HTTP, ...REMOTE_HTTP, 'https://hooks.example.com/in'])(
    'the control API and the handle take any http or https URL: %s',
    async (url) => {
      const made = await create(url);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const { clientId } = made.body.data as { clientId: string };
      expect((await clientState(sandbox, clientId)).webhookUrl).toBe(url);
      const viaHandle = await sandbox.newClient({ webhookUrl: url });
      expect((await clientState(sandbox, viaHandle.clientId)).webhookUrl).toBe(url);
    },
  );

  it('the control API refuses a URL of another scheme with 400 naming webhookUrl', async () => {
    const res = await create('ftp://files.example.com/hook');
    expect(res.status).toBe(400);
    expectWebhookErrors(res);
    await expect(sandbox.newClient({ webhookUrl: 'ftp://files.example.com/hook' })).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('update-webhook-url: a URL pointing at the sandbox itself', () => {
  // Served on a port (0: a free one, known only once it listens), as only then can a URL reach it.
  let sandbox: RunningSandbox;
  let port: number;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ log: () => undefined });
    port = Number(new URL(sandbox.url).port);
    token = await tokenFor(sandbox, A.owner);
  });
  afterAll(() => sandbox.close());

  const update = (webhookUrl: string) =>
    call(sandbox, 'PATCH', WEBHOOK, { headers: schemeA(token, A.secretKey, A.a1.id), body: { webhookUrl } });

  /** Every non-loopback IPv4 and IPv6 address of this machine, and its host name when it is one label. */
  const ownAddresses = () => {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((i) => !i.internal && !i.address.startsWith('fe80'))
      .map((i) => (i.family === 'IPv6' ? `[${i.address}]` : i.address));
    return /^[a-z0-9-]+$/i.test(hostname()) ? [...addresses, hostname()] : addresses;
  };

  it.each([
    'http://127.0.0.1:PORT/__sandbox/reset',
    'http://localhost:PORT/__sandbox/incoming-payments',
    'http://LOCALHOST:PORT/hooks',
    'https://localhost.:PORT/',
    'http://app.localhost:PORT/x',
    'http://127.0.0.2:PORT/x',
    'http://127.1:PORT/x',
    'http://2130706433:PORT/x',
    'http://[::1]:PORT/api/v1/clients/business',
    'https://[0:0:0:0:0:0:0:1]:PORT/x',
    'https://[::ffff:127.0.0.1]:PORT/x',
    'https://0.0.0.0:PORT/x',
    'https://[::]:PORT/x',
  ])('refuses %s on its own port with 400 and keeps the URL', async (form) => {
    const before = (await clientState(sandbox, A.id)).webhookUrl;
    const url = form.replace('PORT', String(port));
    const res = await update(url);
    expect(res.status, url).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
    expect(res.body.message).toBe(
      `webhookUrl must not point at the sandbox itself (port ${port} of this machine): a delivery would call the sandbox's own API`,
    );
    expect(res.body.errors).toEqual([{ field: 'webhookUrl', message: expect.stringContaining('itself') }]);
    expect((await clientState(sandbox, A.id)).webhookUrl).toBe(before);
  });

  it("refuses the machine's own interface addresses and host name on its port", async () => {
    for (const host of ownAddresses()) {
      const url = `https://${host}:${port}/hook`;
      expect((await update(url)).status, url).toBe(400);
    }
  });

  it('accepts loopback on another port, and another host on the same port number', async () => {
    for (const url of [
      `http://127.0.0.1:${port + 1}/hooks/bank`,
      `http://localhost:${port === 3000 ? 3001 : 3000}/hooks/bank`,
      `https://hooks.example.com:${port}/in`,
      `http://app:${port}/hooks`,
    ]) {
      const res = await update(url);
      expect(res.status, url).toBe(200);
      expect((await clientState(sandbox, A.id)).webhookUrl).toBe(url);
    }
  });

  it('a sandbox served on a server of its own is told its port with listeningOn()', async () => {
    const own = await memorySandbox();
    const ownToken = await tokenFor(own, A.owner);
    const set = (webhookUrl: string) =>
      call(own, 'PATCH', WEBHOOK, { headers: schemeA(ownToken, A.secretKey, A.a1.id), body: { webhookUrl } });
    expect((await set('http://127.0.0.1:4555/hook')).status).toBe(200);
    own.listeningOn(4555);
    expect((await set('http://127.0.0.1:4555/hook')).status).toBe(400);
  });

  it('POST /__sandbox/clients refuses it too', async () => {
    const res = await call(sandbox, 'POST', '/__sandbox/clients', {
      body: { webhookUrl: `http://localhost:${port}/__sandbox/reset` },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^webhookUrl must not point at the sandbox itself/);
    await expect(sandbox.newClient({ webhookUrl: `http://127.0.0.1:${port}/x` })).rejects.toThrow(/itself/);
    const other = await call(sandbox, 'POST', '/__sandbox/clients', {
      body: { webhookUrl: `http://localhost:${port + 1}/hooks` },
    });
    expect(other.status).toBe(201);
  });

  it('a state import refuses it in a client, and in a pending delivery', async () => {
    const exported = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const client = exported.collections.clients.find((c) => c.id === A.id);
    if (!client) throw new Error('no client A');
    client.webhookUrl = `http://[::1]:${port}/__sandbox/reset`;
    const res = await call(sandbox, 'PUT', '/__sandbox/state', { body: exported });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `collections.clients: ${A.id} has a webhookUrl that must not point at the sandbox itself (port ${port} of this machine): a delivery would call the sandbox's own API`,
    );

    // A delivery still pending (its receiver is down), then pointed at the sandbox in the document.
    expect((await update(await refusedUrl())).status).toBe(200);
    const va = await call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: { firstName: 'Self', lastName: 'Check', type: 'permanent', reference: 'self-url' },
    });
    expect(va.status).toBe(201);
    const { accountNumber } = dataOf(va, virtualAccount);
    const { deliveryId } = await sandbox.incomingPayment({ accountNumber, amount: 100_000 });
    const withDelivery = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const delivery = withDelivery.collections.deliveries.find((d) => d.id === deliveryId);
    expect(delivery?.status).toBe('pending');
    if (!delivery) throw new Error('no delivery');
    delivery.url = `http://localhost:${port}/__sandbox/incoming-payments`;
    const refused = await call(sandbox, 'PUT', '/__sandbox/state', { body: withDelivery });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      new RegExp(
        `^collections\\.deliveries: ${deliveryId} is pending to a url that must not point at the sandbox itself`,
      ),
    );

    delivery.url = null;
    const accepted = await call(sandbox, 'PUT', '/__sandbox/state', { body: withDelivery });
    expect(accepted.status).toBe(200);
  });
});

describe('billers', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });

  const configure = (body: Record<string, unknown>) =>
    call(sandbox, 'POST', CONFIGURE, { headers: schemeA(token, A.secretKey, A.a1.id), body });

  it('lists the fixture billers', async () => {
    const res = await call(sandbox, 'GET', BILLERS, { headers: schemeA(token, A.secretKey, A.a1.id) });
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

  // Contract, section 3: a biller is a bank code the transfers take, so an enabled biller can be paid.
  it('accepts every listed biller, the docs example’s 076 included, and a transfer reaches each', async () => {
    expect(billers).toContain('076');
    const res = await configure({ billers });
    expect(res.status).toBe(200);
    expect((await clientState(sandbox, A.id)).billers).toEqual(billers);
    const headers = schemeA(token, A.secretKey, A.a1.id);
    for (const code of billers) {
      const sent = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
        headers,
        body: {
          amount: 100,
          receiverAccountNumber: '0123456789',
          receiverBankCode: code,
          retrievalReference: `biller-${code}`,
          narration: 'Bill',
        },
      });
      expect(sent.status, code).toBe(200);
    }
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

  it('answers a code of any length that is no biller as unknown, not as a format error', async () => {
    const long = '0'.repeat(11);
    const res = await configure({ billers: [long] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: `Invalid biller code: ${long}`, data: null });
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
