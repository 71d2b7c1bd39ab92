import { beforeAll, describe, expect, it } from 'vitest';
import { apiContracts } from '../../../src/contract/api/index.js';
import { rotatedSecret } from '../../../src/contract/control/clients.js';
import {
  BUSINESS_ID_REQUIRED,
  CURRENT_SECRET_REQUIRED,
  INVALID_BUSINESS_ID,
  PRODUCTION_KEY_MESSAGE,
} from '../../../src/contract/failures.js';
import type { RouteContract as Route } from '../../../src/contract/kit.js';
import { permits, type RoleName } from '../../../src/domain/roles.js';
import { dataOf } from '../../support/answers.js';
import { A, B, call, EVERY_WORLD, schemeA, schemeB, tokenFor, useWorld } from '../../support/sandbox.js';

// Generated from the route definitions: every route of the bank's API refuses the credentials its auth does not
// accept, with the status and message of that refusal, and changes nothing when it does, at the root of a process
// and inside an isolated sandbox of one. A route added to the registry is covered here without a line written for
// it.

type Headers = Record<string, string>;
const LIVE_SECRET = 'sk_live_0123456789abcdef0123456789abcdef';
const LIVE_PUBLIC = 'pk_live_0123456789abcdef0123456789abcdef';
const UNKNOWN_BUSINESS = '00000000-0000-4000-8000-000000000000';
/** Client A's secret with its last character changed. */
const WRONG_SECRET = A.secretKey.replace(/.$/, (c) => (c === '0' ? '1' : '0'));

describe.each(EVERY_WORLD)('%s', (where) => {
  const sandbox = useWorld(where);
  const tokens = {} as Record<RoleName, string>;

  beforeAll(async () => {
    tokens.Admin = await tokenFor(sandbox, A.owner);
    tokens.Manager = await tokenFor(sandbox, A.manager);
    tokens.Viewer = await tokenFor(sandbox, A.viewer);
  });

  const label = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;

  /** The route's path with every `{param}` filled: auth runs before any lookup, so any value will do. */
  const urlOf = (route: Route) => `/api/v1${route.path.replace(/\{\w+\}/g, 'any-id')}`;

  /** Calls the route with `headers` and an empty JSON body where it takes one; auth runs before the body is read. */
  function send(route: Route, headers: Headers) {
    const method = route.method.toUpperCase();
    return call(sandbox, method, urlOf(route), method === 'GET' ? { headers } : { headers, body: {} });
  }

  /** Calls the route and expects `status` and `message`, with the state exactly as it was. */
  async function refused(route: Route, headers: Headers, status: number, message: string | RegExp) {
    const before = JSON.stringify(sandbox.store.exportState());
    const res = await send(route, headers);
    expect(res.status, `${label(route)}: ${JSON.stringify(res.body)}`).toBe(status);
    expect(res.body.status).toBe(false);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
    expect(JSON.stringify(sandbox.store.exportState()), `${label(route)} changed the state`).toBe(before);
  }

  /** Passed auth: whatever the route answers next (its body was empty), it is not an auth refusal. */
  async function accepted(route: Route, headers: Headers) {
    const res = await send(route, headers);
    const refusal = [401, 403].includes(res.status) || res.body.message === 'Business not found';
    expect(refusal, `${label(route)}: ${res.status} ${JSON.stringify(res.body)}`).toBe(false);
  }

  const byScheme = (scheme: Route['auth']['scheme']) => apiContracts.filter((r) => r.auth.scheme === scheme);
  const schemeARoutes = byScheme('A');
  const schemeBRoutes = byScheme('B');

  describe('scheme A routes (bearer token and SECRET_KEY)', () => {
    const withBusiness = (route: Route): string | undefined =>
      route.auth.scheme === 'A' && route.auth.business === 'header' ? A.a1.id : undefined;
    /** The route reads `businessId` from somewhere other than the header (the form), or from nowhere. */
    const headerIgnored = (route: Route) => route.auth.scheme === 'A' && route.auth.business !== 'header';

    it('are all here', () => {
      expect(schemeARoutes.length).toBeGreaterThan(0);
    });

    it.each(schemeARoutes.map((r) => [label(r), r] as const))('%s: 401 without a token', async (_, route) => {
      await refused(
        route,
        { SECRET_KEY: A.secretKey, businessId: A.a1.id },
        401,
        'Authorization token is required',
      );
    });

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      '%s: 401 for a token that is not ours',
      async (_, route) => {
        await refused(route, schemeA('not.a.token', A.secretKey, A.a1.id), 401, 'Invalid access token');
      },
    );

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      '%s: 401 without SECRET_KEY',
      async (_, route) => {
        await refused(
          route,
          { authorization: `Bearer ${tokens.Admin}`, businessId: A.a1.id },
          401,
          'SECRET_KEY is required',
        );
      },
    );

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      "%s: 401 for a live key, a wrong one, and another client's",
      async (_, route) => {
        await refused(route, schemeA(tokens.Admin, LIVE_SECRET, A.a1.id), 401, PRODUCTION_KEY_MESSAGE);
        await refused(route, schemeA(tokens.Admin, B.secretKey, A.a1.id), 401, 'Invalid SECRET_KEY');
        await refused(route, schemeA(tokens.Admin, WRONG_SECRET, A.a1.id), 401, 'Invalid SECRET_KEY');
      },
    );

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      '%s: businessId as its auth says',
      async (_, route) => {
        if (route.auth.scheme !== 'A') throw new Error('scheme A only');
        const admin = (businessId?: string) => schemeA(tokens.Admin, A.secretKey, businessId);
        if (headerIgnored(route)) {
          // Business registration names the business in its form, and creating one names none: the header is not
          // read at all.
          await accepted(route, admin());
          await accepted(route, admin(B.b1.id));
          return;
        }
        // A standard header like the other two: missing, the spec's 401 for a missing credential.
        await refused(route, admin(), 401, BUSINESS_ID_REQUIRED);
        await refused(route, admin(''), 401, BUSINESS_ID_REQUIRED);
        // An invalid credential, as the spec and the docs say of any: 401.
        await refused(route, admin(UNKNOWN_BUSINESS), 401, INVALID_BUSINESS_ID);
        // Another client's business answers exactly like one that does not exist.
        await refused(route, admin(B.b1.id), 401, INVALID_BUSINESS_ID);
        // UUIDs compare case-insensitively: the upper-cased id names the same business.
        await accepted(route, admin(A.a1.id.toUpperCase()));
      },
    );

    it('every route the spec gives standard headers reads businessId from them', () => {
      // The exceptions to scheme A's three headers: business registration (a form field, the spec), creating a
      // business (no business yet, the docs) and validating a BVN (the body names the business, the docs).
      const elsewhere = schemeARoutes.filter(headerIgnored);
      expect(elsewhere.map(label).sort()).toEqual([
        'PATCH /clients/business/complete-registration',
        'POST /clients/business',
        'POST /clients/business/validate-bvn',
      ]);
    });

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      '%s: each role as the role rules say',
      async (_, route) => {
        if (route.auth.scheme !== 'A') throw new Error('scheme A only');
        for (const role of ['Admin', 'Manager', 'Viewer'] as const) {
          const headers = schemeA(tokens[role], A.secretKey, withBusiness(route));
          if (permits(role, route.auth.area, route.method.toUpperCase())) await accepted(route, headers);
          else
            await refused(route, headers, 403, `The ${role} role does not have permission for this action`);
        }
      },
    );
  });

  describe('scheme A routes, with a secret rotated out and in its grace period', () => {
    const rotated = useWorld(where, { secretGrace: 3600 });
    let token: string;
    beforeAll(async () => {
      token = await tokenFor(rotated, A.owner);
      const res = await call(rotated, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`);
      expect(dataOf(res, rotatedSecret).secretKey).not.toBe(A.secretKey);
    });

    it.each(schemeARoutes.map((r) => [label(r), r] as const))(
      '%s: the old key as its auth says (get-keys wants the current one)',
      async (_, route) => {
        if (route.auth.scheme !== 'A') throw new Error('scheme A only');
        const method = route.method.toUpperCase();
        const headers = schemeA(token, A.secretKey, A.a1.id);
        const res = await call(
          rotated,
          method,
          urlOf(route),
          method === 'GET' ? { headers } : { headers, body: {} },
        );
        if (route.auth.currentKeyOnly) {
          expect(res.status, JSON.stringify(res.body)).toBe(401);
          expect(res.body.message).toBe(CURRENT_SECRET_REQUIRED);
        } else expect([401, 403], `${label(route)}: ${JSON.stringify(res.body)}`).not.toContain(res.status);
      },
    );

    it('asks for the current key on get-keys alone, as the spec says', () => {
      const current = schemeARoutes.filter((r) => r.auth.scheme === 'A' && r.auth.currentKeyOnly);
      expect(current.map(label)).toEqual(['GET /clients/settings/get-keys']);
    });
  });

  describe('scheme B routes (x-api-key and x-api-secret)', () => {
    it('are all here', () => {
      expect(schemeBRoutes.length).toBeGreaterThan(0);
    });

    it.each(schemeBRoutes.map((r) => [label(r), r] as const))(
      '%s: 401 without the key pair',
      async (_, route) => {
        const required = 'x-api-key and x-api-secret are required';
        await refused(route, { businessId: A.a1.id }, 401, required);
        await refused(route, { 'x-api-key': A.publicKey, businessId: A.a1.id }, 401, required);
        await refused(route, { 'x-api-secret': A.secretKey, businessId: A.a1.id }, 401, required);
      },
    );

    it.each(schemeBRoutes.map((r) => [label(r), r] as const))(
      '%s: 401 for a live key, a wrong secret, and keys of two clients',
      async (_, route) => {
        await refused(route, schemeB(LIVE_PUBLIC, A.secretKey, A.a1.id), 401, PRODUCTION_KEY_MESSAGE);
        await refused(route, schemeB(A.publicKey, LIVE_SECRET, A.a1.id), 401, PRODUCTION_KEY_MESSAGE);
        await refused(route, schemeB(A.publicKey, B.secretKey, A.a1.id), 401, 'Invalid API credentials');
        await refused(route, schemeB(B.publicKey, A.secretKey, A.a1.id), 401, 'Invalid API credentials');
        await refused(route, schemeB(A.publicKey, WRONG_SECRET, A.a1.id), 401, 'Invalid API credentials');
      },
    );

    it.each(schemeBRoutes.map((r) => [label(r), r] as const))(
      '%s: businessId required, with the status the spec gives',
      async (_, route) => {
        if (route.auth.scheme !== 'B') throw new Error('scheme B only');
        const keys = (businessId?: string) => schemeB(A.publicKey, A.secretKey, businessId);
        await refused(route, keys(), route.auth.missingBusiness, BUSINESS_ID_REQUIRED);
        await refused(route, keys(UNKNOWN_BUSINESS), 404, 'Business not found');
        await refused(route, keys(B.b1.id), 404, 'Business not found');
        await accepted(route, keys(A.a1.id));
      },
    );
  });

  describe('SECRET_KEY-only routes', () => {
    it.each(byScheme('secretKey').map((r) => [label(r), r] as const))(
      '%s: 401 without it, or with a live one',
      async (_, route) => {
        await refused(route, {}, 401, 'SECRET_KEY is required');
        await refused(route, { SECRET_KEY: LIVE_SECRET }, 401, PRODUCTION_KEY_MESSAGE);
      },
    );
  });

  describe('routes without credentials', () => {
    it.each(byScheme('none').map((r) => [label(r), r] as const))(
      '%s: reached without any header',
      async (_, route) => {
        await accepted(route, {});
      },
    );
  });
});
