import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../src/contract/api/auth.js';
import { controlContracts } from '../../../src/contract/control/index.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { A, B, call, memorySandbox, schemeA, schemeB, tokenFor, useSandbox } from '../../support/sandbox.js';
import {
  BULK,
  DETAILS,
  type HeaderMap,
  type Json,
  MANAGER_ROLE,
  MEMBERS,
  PRODUCTION,
  SIGNIN,
} from '../../support/security.js';
import { stateOf } from '../../support/store.js';

// Secrets and credentials: compared in constant time, the control token on every control route, access tokens
// after the token key changes, sandbox and production keys kept apart.

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
