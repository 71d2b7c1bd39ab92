import { createHmac, timingSafeEqual } from 'node:crypto';
import { END_OF_TIME_MS, hasExpired } from './clock.js';

/** The claims of an access token. */
export interface TokenClaims {
  /** User id. */
  sub: string;
  clientId: string;
  role: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /** The reset of its sandbox it was issued after (`TokenEpoch`); absent before the first. */
  rst?: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(input: string, key: string): Buffer {
  return createHmac('sha256', key).update(input).digest();
}

/** A signed HS256 JWT. */
export function signToken(claims: TokenClaims, key: string): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign(body, key).toString('base64url')}`;
}

export type VerifyResult =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'invalid' | 'expired' | 'not-yet-valid' };

/** The last whole second of the clock's range: `exp` is in whole seconds. */
const LAST_SECOND = Math.floor(END_OF_TIME_MS / 1000);

/**
 * The `exp` of a token issued at `iat` to live `ttlSeconds`: capped at the clock's last second, since the clock
 * never passes the end and a later `exp` could not be written as a date with a four-digit year.
 */
export function expiryClaim(iat: number, ttlSeconds: number): number {
  return Math.min(iat + ttlSeconds, LAST_SECOND);
}

/**
 * Whether the token has expired at `nowMs`. An `exp` at the clock's last second is one capped there
 * (`expiryClaim`), and stands for the end of the range: like every expiry capped at the end, it never comes
 * (`hasExpired`), so a token issued near the end still works once the clock stands there.
 */
export function tokenExpired(claims: TokenClaims, nowMs: number): boolean {
  return hasExpired(claims.exp >= LAST_SECOND ? END_OF_TIME_MS : claims.exp * 1000, nowMs);
}

/** Whether a token was issued after `nowMs`: minted at a time the clock has not reached (it was reset, or imported). */
export function issuedLater(claims: TokenClaims, nowMs: number): boolean {
  return claims.iat * 1000 > nowMs;
}

/** Checks the signature (constant time), the algorithm, the time of issue and the expiry against `nowMs`. */
export function verifyToken(token: string, key: string, nowMs: number): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return { ok: false, reason: 'invalid' };
  // Compared as the canonical base64url text, not as the bytes it decodes to: Node's decoder also takes padding
  // (`=`), standard base64 (`+`, `/`) and stray characters, so a token altered that way would still verify.
  const expected = Buffer.from(sign(`${header}.${payload}`, key).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || typeof claims.sub !== 'string')
    return { ok: false, reason: 'invalid' };
  if (issuedLater(claims, nowMs)) return { ok: false, reason: 'not-yet-valid' };
  if (tokenExpired(claims, nowMs)) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
