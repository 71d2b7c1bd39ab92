import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../src/contract/api/auth.js';
import { apiContracts } from '../../../src/contract/api/index.js';
import { errorEnvelope } from '../../../src/contract/wire.js';
import { createSandbox } from '../../../src/sandbox.js';
import { bodyOf, dataOf } from '../../support/answers.js';
import { A, B, call, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const SIGNIN = '/api/v1/auth/signin';
const DETAILS = '/api/v1/clients/business/account-details';
/** Exactly what sign-in answers (docs), and of each business: no other field. */
const SIGN_IN_FIELDS = ['accessToken', 'businesses', 'email', 'firstName', 'id', 'lastName', 'phoneNo'];
const SIGN_IN_BUSINESS_FIELDS = ['businessName', 'id', 'isApproved'];

function b64url(value: string): string {
  return Buffer.from(value).toString('base64url');
}

function decodePart(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A JWT of the given claims signed with a key of our own choosing. */
function forge(claims: Record<string, unknown>, key: string, header = { alg: 'HS256', typ: 'JWT' }): string {
  const body = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

function expect401(res: { status: number; body: Record<string, unknown> }, message?: string): void {
  expect(res.status).toBe(401);
  expect(res.body.status).toBe(false);
  expect(res.body.data).toBeNull();
  if (message !== undefined) expect(res.body.message).toBe(message);
}

describe('sign-in', () => {
  const sandbox = useSandbox();

  it('returns a 3-part HS256 JWT with the contract claims', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const data = dataOf(res, signIn);
    const parts = data.accessToken.split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePart(parts[0])).toMatchObject({ alg: 'HS256' });
    const claims = decodePart(parts[1]);
    expect(claims).toMatchObject({ sub: A.owner.id, clientId: A.id, role: 'Admin' });
    expect(typeof claims.exp).toBe('number');
    expect(typeof claims.iat).toBe('number');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
  });

  it('answers Login successful with exactly the user and the ids, names and approval of its businesses', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Login successful');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    const data = dataOf(res, signIn);
    // The schema is strict, and the keys are pinned here too: sign-in carries no full Business record any more.
    expect(Object.keys(data).sort()).toEqual(SIGN_IN_FIELDS);
    expect(data).toMatchObject({
      id: A.owner.id,
      firstName: A.owner.firstName,
      lastName: A.owner.lastName,
      email: A.owner.email,
      phoneNo: A.owner.phoneNo,
    });
    for (const b of data.businesses) expect(Object.keys(b).sort()).toEqual(SIGN_IN_BUSINESS_FIELDS);
    expect([...data.businesses].sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: A.a1.id, businessName: A.a1.businessName, isApproved: true },
        { id: A.a2.id, businessName: A.a2.businessName, isApproved: false },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it('gives a member the same shape: the member itself and the businesses of its client', async () => {
    for (const member of [A.manager, A.viewer]) {
      const res = await call(sandbox, 'POST', SIGNIN, {
        body: { email: member.email, password: member.password },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Login successful');
      const data = dataOf(res, signIn);
      expect(Object.keys(data).sort()).toEqual(SIGN_IN_FIELDS);
      expect(data).toMatchObject({
        id: member.id,
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        phoneNo: member.phoneNo,
      });
      for (const b of data.businesses) expect(Object.keys(b).sort()).toEqual(SIGN_IN_BUSINESS_FIELDS);
      expect(data.businesses.map((b) => b.id).sort()).toEqual([A.a1.id, A.a2.id].sort());
    }
  });

  it("gives B only B's business", async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: B.owner.email, password: B.owner.password },
    });
    expect(res.status).toBe(200);
    const data = dataOf(res, signIn);
    expect(data.id).toBe(B.owner.id);
    expect(data.businesses).toEqual([{ id: B.b1.id, businessName: B.b1.businessName, isApproved: true }]);
  });

  it('matches the email case-insensitively', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email.toUpperCase(), password: A.owner.password },
    });
    expect(res.status).toBe(200);
    const token = dataOf(res, signIn).accessToken;
    const details = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(details.status).toBe(200);
  });

  it('signs in the members too, with their role in the token', async () => {
    for (const member of [A.manager, A.viewer]) {
      const res = await call(sandbox, 'POST', SIGNIN, {
        body: { email: member.email, password: member.password },
      });
      expect(res.status).toBe(200);
      const token = dataOf(res, signIn).accessToken;
      expect(decodePart(token.split('.')[1])).toMatchObject({
        sub: member.id,
        clientId: A.id,
        role: member.role,
      });
    }
  });

  it('answers 401 "Invalid email or password" to a wrong password', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: 'Sandbox123?' },
    });
    expect401(res, 'Invalid email or password');
  });

  it('answers the same 401 to an unknown email', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: 'nobody@nowhere.test', password: A.owner.password },
    });
    expect401(res, 'Invalid email or password');
  });

  it('does not match the password case-insensitively', async () => {
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password.toUpperCase() },
    });
    expect401(res, 'Invalid email or password');
  });

  it('answers 400 with field errors to missing fields', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['email', 'password']],
      [{ email: A.owner.email }, ['password']],
      [{ password: A.owner.password }, ['email']],
      [{ email: '', password: '' }, ['email', 'password']],
    ];
    for (const [body, fields] of cases) {
      const res = await call(sandbox, 'POST', SIGNIN, { body });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe(false);
      const { errors = [] } = bodyOf(res, errorEnvelope);
      expect(errors.map((e) => e.field).sort()).toEqual(fields);
    }
  });

  it('answers 400 to a request with no body at all', async () => {
    const res = await call(sandbox, 'POST', SIGNIN);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });
});

describe('scheme A failures', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });

  it('accepts the full, correct set of headers', async () => {
    const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(res.status).toBe(200);
  });

  it('answers 401 to an Authorization that is not a Bearer token', async () => {
    for (const authorization of ['Bearer', 'Bearer ', `Basic ${token}`, token, `bearer${token}`]) {
      const res = await call(sandbox, 'GET', DETAILS, {
        headers: { authorization, SECRET_KEY: A.secretKey, businessId: A.a1.id },
      });
      expect401(res);
    }
  });

  it('answers 401 to a malformed token', async () => {
    for (const bad of ['abc', 'a.b', 'a.b.c', 'a.b.c.d', '...', `${token}.x`]) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(bad, A.secretKey, A.a1.id) });
      expect401(res);
    }
  });

  it('answers 401 to a tampered token', async () => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = decodePart(payload);
    const elevated = `${header}.${b64url(JSON.stringify({ ...claims, sub: A.manager.id }))}.${signature}`;
    const longer = `${header}.${b64url(JSON.stringify({ ...claims, exp: Number(claims.exp) + 10_000 }))}.${signature}`;
    const flipped = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [elevated, longer, flipped]) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(bad, A.secretKey, A.a1.id) });
      expect401(res);
    }
  });

  it('answers 401 to a token signed with another key or with alg none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: A.owner.id, clientId: A.id, role: 'Admin', iat: now, exp: now + 3600 };
    const otherKey = forge(claims, 'not-the-server-key');
    const none = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`;
    for (const bad of [otherKey, none]) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(bad, A.secretKey, A.a1.id) });
      expect401(res);
    }
  });

  it('answers 401 to a wrong SECRET_KEY', async () => {
    for (const key of [`sk_sandbox_${'0'.repeat(32)}`, 'nonsense', A.publicKey, `${A.secretKey}0`]) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, key, A.a1.id) });
      expect401(res);
    }
  });

  // A's token with B's SECRET_KEY is generated (route-auth.test.ts); the generated tests sign in as A only.
  it("answers 401 to B's token with A's SECRET_KEY", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const reverse = await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenB, A.secretKey, B.b1.id) });
    expect401(reverse);
  });

  it("answers 401 Invalid businessId to another client's businessId, exactly like an unknown one", async () => {
    const other = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, B.b1.id) });
    expect401(other, 'Invalid businessId');
    expect(other.body).toEqual({ status: false, message: 'Invalid businessId', data: null });
    const unknown = await call(sandbox, 'GET', DETAILS, {
      headers: schemeA(token, A.secretKey, 'b1a90000-0000-4000-8000-000000000099'),
    });
    expect401(unknown, 'Invalid businessId');
    expect(unknown.body).toEqual(other.body);
    expect(JSON.stringify(other.body)).not.toContain(B.b1.businessName);
  });

  it("answers the same 401 on every scheme A route given B1's id, a read, a write and settings alike", async () => {
    const headers = schemeA(token, A.secretKey, B.b1.id);
    for (const [method, path, body] of [
      ['GET', '/api/v1/clients/business/details', undefined],
      ['GET', '/api/v1/clients/business/customers', undefined],
      ['GET', '/api/v1/clients/settings/billers', undefined],
      ['PATCH', '/api/v1/clients/settings/update-webhook-url', { webhookUrl: 'https://example.com/hook' }],
    ] as const) {
      const res = await call(sandbox, method, path, { headers, ...(body ? { body } : {}) });
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ status: false, message: 'Invalid businessId', data: null });
    }
  });
});

describe('token expiry', () => {
  it('answers 401 once the clock passes tokenTtl, whether the token was used before or not', async () => {
    let now = Date.parse('2025-06-01T12:00:00.000Z');
    const clock = { now: () => now };
    const sandbox = await createSandbox({ inMemory: true, log: () => undefined, tokenTtl: 60 }, clock);
    const used = await tokenFor(sandbox, A.owner);
    const unused = await tokenFor(sandbox, A.manager);
    const claims = decodePart(used.split('.')[1]);
    expect(claims.exp).toBe(Math.floor(now / 1000) + 60);

    const before = await call(sandbox, 'GET', DETAILS, { headers: schemeA(used, A.secretKey, A.a1.id) });
    expect(before.status).toBe(200);

    now += 59_000;
    const stillValid = await call(sandbox, 'GET', DETAILS, { headers: schemeA(used, A.secretKey, A.a1.id) });
    expect(stillValid.status).toBe(200);

    now += 2_000;
    for (const token of [used, unused]) {
      const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) });
      expect401(res);
    }

    const fresh = await tokenFor(sandbox, A.owner);
    const again = await call(sandbox, 'GET', DETAILS, { headers: schemeA(fresh, A.secretKey, A.a1.id) });
    expect(again.status).toBe(200);
  });
});

describe('roles', () => {
  const sandbox = useSandbox();
  let viewer: string;
  let manager: string;
  let owner: string;
  beforeAll(async () => {
    viewer = await tokenFor(sandbox, A.viewer);
    manager = await tokenFor(sandbox, A.manager);
    owner = await tokenFor(sandbox, A.owner);
  });

  // Which role each route refuses (403, its message, nothing changed) is generated from the route definitions
  // (route-auth.test.ts: '%s: each role as the role rules say'). Those take each route's area from its
  // definition, so what is pinned here is that the settings routes are defined as settings, and that the roles
  // a route lets in really get their answer.
  it('defines every /clients/settings route as settings, which only the Admin may use', () => {
    const settings = apiContracts.filter((r) => r.path.startsWith('/clients/settings/'));
    expect(settings.length).toBeGreaterThan(0);
    for (const route of settings)
      expect(route.auth, route.path).toMatchObject({ scheme: 'A', area: 'settings' });
  });

  it('lets the Viewer read', async () => {
    const headers = schemeA(viewer, A.secretKey, A.a1.id);
    for (const path of [
      DETAILS,
      '/api/v1/clients/business/customers',
      '/api/v1/clients/business',
      '/api/v1/clients/members/roles',
    ]) {
      const res = await call(sandbox, 'GET', path, { headers });
      expect(res.status, path).toBe(200);
      expect(res.body.status).toBe(true);
    }
  });

  it('lets the Manager use business routes, including creating a business', async () => {
    const headers = schemeA(manager, A.secretKey, A.a1.id);
    for (const path of [DETAILS, '/api/v1/clients/business/customers', '/api/v1/clients/business']) {
      expect((await call(sandbox, 'GET', path, { headers })).status, path).toBe(200);
    }
    const created = await call(sandbox, 'POST', '/api/v1/clients/business', {
      headers,
      body: { businessName: 'Manager Made Ltd', countryId: 'NG', isNewBusiness: true },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe(true);
  });

  it('lets the Admin use settings', async () => {
    const res = await call(sandbox, 'GET', '/api/v1/clients/settings/get-keys', {
      headers: schemeA(owner, A.secretKey, A.a1.id),
    });
    expect(res.status).toBe(200);
  });
});
