import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import { virtualAccount } from '../../src/api/virtual-accounts/schemas.js';
import { MAX_LIFETIME_SECONDS } from '../../src/config.js';
import { isValidNuban } from '../../src/domain/nuban.js';
import { createSandbox, type Sandbox } from '../../src/sandbox.js';
import { dataOf } from '../support/answers.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor } from '../support/sandbox.js';

const VIRTUAL = '/api/v1/clients/business/virtual-accounts';
const NO_ACCOUNT = 'No payment account for this business';
const NOW = Date.parse('2025-06-01T10:00:00.000Z');
const TTL_SECONDS = 900;

describe('virtual accounts', () => {
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  let headersB: Record<string, string>;
  beforeAll(async () => {
    sandbox = await createSandbox(
      { inMemory: true, virtualAccountTtl: TTL_SECONDS, log: () => undefined },
      { now: () => NOW },
    );
    headers = await ownerHeaders(sandbox);
    headersB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
  });

  const create = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', VIRTUAL, { headers: h, body });

  const seen = new Set<string>();

  it('creates a temporal account: 201, a home-bank NUBAN, expiring createdAt + TTL', async () => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'order-1',
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    const data = dataOf(res, virtualAccount);
    expect(data).toEqual({
      accountNumber: expect.any(String),
      accountName: expect.any(String),
      clientRef: 'order-1',
      systemRef: expect.any(String),
      type: 'temporal',
      expiresAt: new Date(NOW + TTL_SECONDS * 1000).toISOString(),
    });
    expect(data.accountNumber).toMatch(/^\d{10}$/);
    expect(isValidNuban(banks.homeBankCode, data.accountNumber)).toBe(true);
    expect(data.accountName).toMatch(/Tunde/);
    expect(data.accountName).toMatch(/Bakare/);
    expect(data.systemRef).toMatch(/\S/);
    expect(data.systemRef).not.toBe('order-1');
    seen.add(data.accountNumber);
  });

  it('creates a permanent account with expiresAt null', async () => {
    const res = await create({
      firstName: 'Amaka',
      lastName: 'Eze',
      type: 'permanent',
      reference: 'customer-7',
    });
    expect(res.status).toBe(201);
    const data = dataOf(res, virtualAccount);
    expect(data).toMatchObject({ clientRef: 'customer-7', type: 'permanent', expiresAt: null });
    expect(isValidNuban(banks.homeBankCode, data.accountNumber)).toBe(true);
    seen.add(data.accountNumber);
  });

  it('gives every account its own number and systemRef, apart from the business accounts', async () => {
    const systemRefs = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const res = await create({
        firstName: 'Ife',
        lastName: 'Ade',
        type: 'permanent',
        reference: `many-${i}`,
      });
      expect(res.status).toBe(201);
      const data = dataOf(res, virtualAccount);
      expect(seen.has(data.accountNumber)).toBe(false);
      seen.add(data.accountNumber);
      systemRefs.add(data.systemRef);
    }
    expect(systemRefs.size).toBe(10);
    expect(seen.has(A.a1.accountNumber ?? '')).toBe(false);
    expect(seen.has(B.b1.accountNumber ?? '')).toBe(false);
  });

  it('answers 409 to a reference reused in the same business, whatever the type', async () => {
    for (const type of ['temporal', 'permanent']) {
      const res = await create({ firstName: 'Tunde', lastName: 'Bakare', type, reference: 'order-1' });
      expect(res.status, type).toBe(409);
      expect(res.body).toMatchObject({ status: false, data: null });
    }
  });

  it('lets another business reuse the reference', async () => {
    const res = await create(
      { firstName: 'Bola', lastName: 'Bello', type: 'temporal', reference: 'order-1' },
      headersB,
    );
    expect(res.status).toBe(201);
    const data = dataOf(res, virtualAccount);
    expect(data.clientRef).toBe('order-1');
    expect(seen.has(data.accountNumber)).toBe(false);
  });

  it.each([
    ['type "temporary"', { type: 'temporary' }, 'type'],
    ['type "PERMANENT"', { type: 'PERMANENT' }, 'type'],
    ['no type', { type: undefined }, 'type'],
    ['no firstName', { firstName: undefined }, 'firstName'],
    ['no lastName', { lastName: undefined }, 'lastName'],
    ['no reference', { reference: undefined }, 'reference'],
    ['an empty reference', { reference: '' }, 'reference'],
  ])('answers 400 to %s', async (_label, change, field) => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'bad-1',
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('created nothing for the refused requests: the reference is still free', async () => {
    const res = await create({
      firstName: 'Tunde',
      lastName: 'Bakare',
      type: 'temporal',
      reference: 'bad-1',
    });
    expect(res.status).toBe(201);
  });

  it('answers 400 No payment account for this business to A2', async () => {
    const res = await create(
      { firstName: 'Tunde', lastName: 'Bakare', type: 'permanent', reference: 'a2-ref' },
      { ...headers, businessId: A.a2.id },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: NO_ACCOUNT, data: null });
  });

  // A Viewer's 403 and a missing businessId's 400, the state unchanged (so a refused reference stays free):
  // route-auth.test.ts.
  it('lets a Manager create one', async () => {
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    const res = await create(
      { firstName: 'Musa', lastName: 'Ibrahim', type: 'temporal', reference: 'mgr-1' },
      manager,
    );
    expect(res.status).toBe(201);
  });
});

describe('virtual account lifetime', () => {
  it('uses the default of 30 minutes and reads the clock at creation', async () => {
    let t = NOW;
    const sandbox = await createSandbox({ inMemory: true, log: () => undefined }, { now: () => t });
    const headers = await ownerHeaders(sandbox);
    const first = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-1' },
    });
    expect(dataOf(first, virtualAccount).expiresAt).toBe(new Date(NOW + 1800 * 1000).toISOString());
    t += 5 * 60_000;
    const second = await call(sandbox, 'POST', VIRTUAL, {
      headers,
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-2' },
    });
    expect(dataOf(second, virtualAccount).expiresAt).toBe(new Date(t + 1800 * 1000).toISOString());
  });

  it('the largest accepted lifetime still stamps a valid expiry (it answered 500 when the setting had no bound)', async () => {
    const sandbox = await createSandbox(
      { inMemory: true, virtualAccountTtl: MAX_LIFETIME_SECONDS, log: () => undefined },
      { now: () => NOW },
    );
    const res = await call(sandbox, 'POST', VIRTUAL, {
      headers: await ownerHeaders(sandbox),
      body: { firstName: 'Tunde', lastName: 'Bakare', type: 'temporal', reference: 'life-max' },
    });
    expect(res.status).toBe(201);
    expect(dataOf(res, virtualAccount).expiresAt).toBe(
      new Date(NOW + MAX_LIFETIME_SECONDS * 1000).toISOString(),
    );
  });
});
