import type { Context } from 'hono';
import {
  BUSINESS_ID_REQUIRED,
  CURRENT_SECRET_REQUIRED,
  INVALID_BUSINESS_ID,
  PRODUCTION_KEY_MESSAGE,
} from '../contract/failures.js';
import type { RouteAuth } from '../contract/kit.js';
import type { Deps } from '../deps.js';
import type { Actor } from '../domain/actor.js';
import { isoOf } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { canonicalId } from '../domain/ids.js';
import { issuedLater, type TokenClaims, tokenExpired, verifyToken } from '../domain/jwt.js';
import type { BusinessRecord, ClientRecord, UserRecord } from '../domain/records.js';
import { type Area, permits, type RoleName } from '../domain/roles.js';
import { isClientSecret, isCurrentSecret, isProductionKey } from '../domain/secrets.js';
import { type AppEnv, callerOf as authenticatedCaller, type Caller } from './env.js';
import { header } from './headers.js';
import { warn } from './warnings.js';

export interface SchemeAOptions {
  /**
   * `header`: the `businessId` header names the business (401 when missing or not the client's); `form`: the route
   * reads it itself; `none`: the route concerns no business yet (a header sent anyway is ignored).
   */
  business: 'header' | 'form' | 'none';
  area: Area;
  /** Only the current `SECRET_KEY`, not one rotated out and still in its grace period. */
  currentKeyOnly?: true;
}

export interface SchemeBOptions {
  /** The status for a missing `businessId`: the spec gives 400 on process but 401 on get. */
  missingBusinessStatus: 400 | 401;
}

/** A refusal `authenticate` may give: its status and message, the `ApiError` made only when it is given. */
interface Refusal {
  status: 401 | 404;
  message: string;
}
const SCHEME_A_FOREIGN_BUSINESS: Refusal = { status: 401, message: INVALID_BUSINESS_ID };
const SCHEME_B_FOREIGN_BUSINESS: Refusal = { status: 404, message: 'Business not found' };

const TOKEN_CACHE_LIMIT = 10_000;

export const TOKEN_REQUIRED = 'Authorization token is required';
export const BEARER_REQUIRED =
  'Authorization must be `Bearer <accessToken>`: the scheme word Bearer, a space, the token';

/**
 * The token of an `Authorization: Bearer <token>` header. The scheme word is compared case-insensitively (RFC
 * 7235, 2.1), so `bearer` and `BEARER` are accepted; no header, or the word alone, is a missing token; another
 * scheme, or a token with no scheme, says what the header must look like.
 */
export function bearerToken(value: string | undefined): string {
  const given = value?.trim() ?? '';
  if (!given) throw new ApiError(401, TOKEN_REQUIRED);
  const space = given.search(/\s/);
  const scheme = space === -1 ? given : given.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') throw new ApiError(401, BEARER_REQUIRED);
  const token = space === -1 ? '' : given.slice(space).trim();
  if (!token) throw new ApiError(401, TOKEN_REQUIRED);
  return token;
}

const NOT_YET_VALID = "Access token is not valid yet: it was issued after the sandbox clock's current time";
const TOKEN_REFUSED = {
  invalid: 'Invalid access token',
  expired: 'Access token has expired',
  'not-yet-valid': NOT_YET_VALID,
} as const;

/** The auth middleware of both schemes, sharing one cache of verified token signatures. */
export function createAuth(deps: Deps) {
  const { store, clock, tokens: epochs } = deps;
  // Verifying an HMAC per request is most of the cost of a cheap read, so a token whose signature was checked
  // once is remembered; its expiry is still checked on every request. The cache holds for one token key: an import
  // (`PUT /__sandbox/state`) or a reset that brings another key empties it, so no token of the old key verifies.
  const verified = new Map<string, TokenClaims>();
  let verifiedWith = '';
  // Who a token's caller was, the last time its records were looked at: the same object as long as the user, the
  // client and the role are the same records (the store replaces a record on every change, never edits one), so
  // a read builds none. Emptied with the tokens.
  const callers = new Map<string, Caller>();

  function claimsOf(token: string): TokenClaims {
    const now = clock.now();
    // Two values of the store's own, no caller's: a plain comparison tells whether the key changed.
    const signingKey = store.meta().jwtSecret;
    if (signingKey !== verifiedWith) {
      verified.clear();
      callers.clear();
      verifiedWith = signingKey;
    }
    const cached = verified.get(token);
    if (cached) {
      // Kept in the cache: the clock may yet reach its time of issue.
      if (issuedLater(cached, now)) throw new ApiError(401, NOT_YET_VALID);
      if (!tokenExpired(cached, now)) return cached;
      verified.delete(token);
      throw new ApiError(401, 'Access token has expired');
    }
    const result = verifyToken(token, signingKey, now);
    if (!result.ok) throw new ApiError(401, TOKEN_REFUSED[result.reason]);
    if (verified.size >= TOKEN_CACHE_LIMIT) {
      verified.clear();
      callers.clear();
    }
    verified.set(token, result.claims);
    return result.claims;
  }

  /** The caller of a token whose user and client were found: the one made last time if its records are the same. */
  function callerOf(token: string, user: UserRecord, client: ClientRecord): Caller {
    const roleRecord = store.get('roles', user.roleId);
    const role = (roleRecord?.name ?? 'Viewer') as RoleName;
    const known = callers.get(token);
    if (known !== undefined && known.user === user && known.client === client && known.role === role)
      return known;
    const caller: Caller = { client, user, role };
    callers.set(token, caller);
    return caller;
  }

  /**
   * The business of the `businessId` header: `missing.status` without one; for one that is not the client's (or
   * does not exist, which answers exactly alike) `foreign`: scheme A's 401 (an invalid credential), scheme B's 404
   * (the lookup the spec scopes to client and business finds nothing).
   */
  function businessOf(
    c: Context<AppEnv>,
    client: ClientRecord,
    missingStatus: 400 | 401,
    foreign: Refusal,
  ): BusinessRecord {
    const id = header(c, 'businessid');
    if (id === undefined || id === '') throw new ApiError(missingStatus, BUSINESS_ID_REQUIRED);
    const business = store.get('businesses', canonicalId(id));
    if (!business || business.clientId !== client.id) throw new ApiError(foreign.status, foreign.message);
    return business;
  }

  /** Scheme A: `Authorization: Bearer <token>`, `SECRET_KEY`, and (per route) `businessId`; then the role rules. */
  function schemeA(c: Context<AppEnv>, options: SchemeAOptions): void {
    const token = bearerToken(header(c, 'authorization'));
    const claims = claimsOf(token);
    const resetAt = epochs.resetAfter(claims.rst);
    if (resetAt !== null) {
      // Still the bank's answer; the warning tells a test that lost a race with another's reset why.
      warn(
        c,
        `This access token was issued at ${isoOf(claims.iat * 1000)}, before the sandbox was reset at ${isoOf(resetAt)}: sign in again`,
      );
      throw new ApiError(401, 'Invalid access token');
    }
    const user = store.get('users', claims.sub);
    const client = user && store.get('clients', user.clientId);
    if (!user || !client || !user.isActive) throw new ApiError(401, 'Invalid access token');
    const secret = header(c, 'secret_key');
    if (!secret) throw new ApiError(401, 'SECRET_KEY is required');
    if (isProductionKey(secret)) throw new ApiError(401, PRODUCTION_KEY_MESSAGE);
    if (!isClientSecret(client, secret, clock.now())) throw new ApiError(401, 'Invalid SECRET_KEY');
    if (options.currentKeyOnly && !isCurrentSecret(client, secret))
      throw new ApiError(401, CURRENT_SECRET_REQUIRED);
    // The spec: a missing or invalid credential is 401, and `businessId` is one of the three standard headers.
    const business =
      options.business === 'header' ? businessOf(c, client, 401, SCHEME_A_FOREIGN_BUSINESS) : undefined;
    const caller = callerOf(token, user, client);
    if (!permits(caller.role, options.area, c.req.method)) {
      throw new ApiError(403, `The ${caller.role} role does not have permission for this action`);
    }
    c.env.facts.caller = caller;
    c.env.facts.business = business;
  }

  /** Scheme B: `x-api-key` (public key), `x-api-secret` (secret key) of one client, and `businessId`. */
  function schemeB(c: Context<AppEnv>, options: SchemeBOptions): void {
    const key = header(c, 'x-api-key');
    const secret = header(c, 'x-api-secret');
    if (!key || !secret) throw new ApiError(401, 'x-api-key and x-api-secret are required');
    if (isProductionKey(key) || isProductionKey(secret)) throw new ApiError(401, PRODUCTION_KEY_MESSAGE);
    const client = store.where('clients', 'publicKey', key)[0];
    if (!client || !isClientSecret(client, secret, clock.now()))
      throw new ApiError(401, 'Invalid API credentials');
    const business = businessOf(c, client, options.missingBusinessStatus, SCHEME_B_FOREIGN_BUSINESS);
    c.env.facts.caller = { client, user: null, role: 'Admin' };
    c.env.facts.business = business;
  }

  /**
   * `SECRET_KEY` alone, for the invited member's registration: there and not a live key. Which client it belongs
   * to is the service's to find out.
   */
  function secretKeyOnly(c: Context<AppEnv>): void {
    const secret = header(c, 'secret_key');
    if (!secret) throw new ApiError(401, 'SECRET_KEY is required');
    if (isProductionKey(secret)) throw new ApiError(401, PRODUCTION_KEY_MESSAGE);
  }

  /**
   * Whom the request's credentials name, without checking them as a route would: the client of a token that
   * verifies, of an `x-api-key`, or of the `businessId` header's business, and that business. What a scoped
   * scenario rule (`match.clientId`, `match.businessId`) holds an `http` or `error` rule to, before (or without)
   * authentication. Empty when nothing names anyone.
   */
  function partyOf(c: Context<AppEnv>): { clientId?: string; businessId?: string } {
    const { caller, business: known } = c.env.facts;
    if (caller) return { clientId: caller.client.id, businessId: known?.id };
    let clientId: string | undefined;
    const authorization = header(c, 'authorization');
    if (authorization) {
      try {
        const claims = claimsOf(bearerToken(authorization));
        const current = epochs.resetAfter(claims.rst) === null;
        if (current) clientId = store.get('users', claims.sub)?.clientId;
      } catch {
        // A token that does not verify names nobody.
      }
    }
    const key = header(c, 'x-api-key');
    if (clientId === undefined && key) clientId = store.where('clients', 'publicKey', key)[0]?.id;
    const id = header(c, 'businessid');
    const business = id ? store.get('businesses', canonicalId(id)) : undefined;
    // A business of another client is not this request's: a rule scoped to it must not fire (and use its `times`)
    // on a request its own auth will refuse.
    if (clientId !== undefined && business !== undefined && business.clientId !== clientId)
      return { clientId };
    return { clientId: clientId ?? business?.clientId, businessId: business?.id };
  }

  /** Accepts the request's credentials as `auth` asks, or throws the 401, 403 or 404 that says why not. */
  function authenticate(c: Context<AppEnv>, auth: RouteAuth): void {
    switch (auth.scheme) {
      case 'A':
        schemeA(c, auth);
        return;
      case 'B':
        schemeB(c, { missingBusinessStatus: auth.missingBusiness });
        return;
      case 'secretKey':
        secretKeyOnly(c);
        return;
      case 'none':
        return;
    }
  }

  return { authenticate, partyOf };
}

export type Auth = ReturnType<typeof createAuth>;

/** The caller's address: the first `x-forwarded-for` hop if a proxy set one, else the socket's peer. */
export function clientIp(c: Context<AppEnv>): string {
  const forwarded = header(c, 'x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded;
  return c.env.incoming?.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
}

/** The acting user of an authenticated request, for the audit log. */
export function actorOf(c: Context<AppEnv>): Actor {
  const { client, user, role } = authenticatedCaller(c.env.facts);
  return {
    clientId: client.id,
    email: user?.email ?? client.email,
    name: user ? `${user.firstName} ${user.lastName}`.trim() : `${client.name} (API key)`,
    role,
    ipAddress: clientIp(c),
  };
}
